/**
 * HL7 v2 definitions per version: segments and their fields, data types and their components, message structures
 * (with groups, choices and cardinality) and the values of HL7 tables.
 *
 * Sources: the npm package `hl7-dictionary` (v2.3 to v2.7.1, and its one set of tables) and, for v2.8, the copy of
 * HAPI's v2.8 definitions in `definitions/` (same shape; see `definitions/README.md` for provenance and limits).
 * `definitions/corrections.json` corrects hl7-dictionary where it disagrees with the reference facts in
 * `definitions/reference/` (repetition flags, the structure an event uses), each correction with its reason.
 * Versions load lazily on first use and stay cached for the life of the process (the data never changes).
 *
 * Conventions of the raw data, mapped here to explicit fields:
 * - `opt`: 1 optional, 2 required, 3 conditional, 4 backward-compatible (kept only for old senders);
 * - `rep`: maximum repetitions, 0 meaning unbounded;
 * - structure `max`: 1 or 0 (unbounded); `compounds` is a choice of one of its members;
 * - messages are keyed by event (`ADT_A04`) in hl7-dictionary and by structure (`ADT_A01`) for v2.8.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTableProvenance } from './hl7-table-provenance.ts';

/** Versions with definitions, oldest first. */
export const HL7_VERSIONS = ['2.3', '2.3.1', '2.4', '2.5', '2.5.1', '2.6', '2.7', '2.7.1', '2.8'] as const;

/** A version with definitions. */
export type Hl7Version = (typeof HL7_VERSIONS)[number];

/** Optionality of a field or component: Required, Optional, Conditional, Backward-compatible, Withdrawn. */
export type Hl7Optionality = 'R' | 'O' | 'C' | 'B' | 'W';

/** One field of a segment. */
export interface Hl7FieldDefinition {
  /** 1-based position (SEG-n). */
  position: number;
  name: string;
  dataType: string;
  optionality: Hl7Optionality;
  /** Maximum repetitions; `Infinity` when unbounded. */
  maxRepetitions: number;
  maxLength?: number;
  /** HL7 table number as written in the standard (`0001`). */
  table?: string;
}

/** One segment. */
export interface Hl7SegmentDefinition {
  name: string;
  description: string;
  fields: Hl7FieldDefinition[];
}

/** One component of a composite data type. */
export interface Hl7ComponentDefinition {
  position: number;
  name: string;
  dataType: string;
  optionality: Hl7Optionality;
  maxLength?: number;
  table?: string;
}

/** A data type; primitives have no components. */
export interface Hl7DataTypeDefinition {
  name: string;
  description: string;
  components: Hl7ComponentDefinition[];
}

/** One element of a message structure: a segment, a group of elements, or a choice of one of its elements. */
export interface Hl7StructureNode {
  kind: 'segment' | 'group' | 'choice';
  /** Segment name, group name (`INSURANCE`) or choice label (`OBR,RQD`). */
  name: string;
  description: string;
  min: number;
  /** `Infinity` when the element repeats without limit. */
  max: number;
  children: Hl7StructureNode[];
}

/** A message structure (abstract message syntax). */
export interface Hl7MessageStructure {
  /** Structure id (`ADT_A01`), or the event key it was found under in hl7-dictionary. */
  id: string;
  description: string;
  nodes: Hl7StructureNode[];
}

/** The message type a header declares, resolved against a version. */
export interface Hl7MessageTypeResolution {
  /** `ADT^A01`. */
  messageType: string;
  structure?: Hl7MessageStructure;
  /** Structure id the header declared in MSH-9.3, if any. */
  declaredStructure?: string;
  /** True when the message code is in HL7 table 0076 (or is an ACK). */
  knownCode: boolean;
  /** True when the trigger event is in HL7 table 0003. */
  knownTrigger: boolean;
}

/** Definitions of one version. */
export interface Hl7VersionDefinitions {
  readonly version: Hl7Version;
  segment(name: string): Hl7SegmentDefinition | undefined;
  dataType(name: string): Hl7DataTypeDefinition | undefined;
  /** Structure by key: an event key (`ADT_A04`) or a structure id (`ADT_A01`). */
  structure(key: string): Hl7MessageStructure | undefined;
  /** Resolves MSH-9 (code, trigger, structure) to a message structure of this version. */
  resolveMessage(code: string, trigger: string, structure?: string): Hl7MessageTypeResolution;
  /** Message keys (event or structure ids) of this version. */
  messageKeys(): string[];
  /** Segment names of this version. */
  segmentNames(): string[];
}

interface RawField {
  datatype: string;
  desc: string;
  opt: number;
  rep: number;
  len?: number;
  table?: number;
  withdrawn?: boolean;
}
interface RawSegmentNode {
  name: string;
  desc: string;
  min: number;
  max: number;
  children?: RawSegmentNode[];
  compounds?: RawSegmentNode[];
}
interface RawVersion {
  fields: Record<string, { desc: string; subfields: RawField[] }>;
  segments: Record<string, { desc: string; fields: RawField[] }>;
  messages: Record<string, { desc: string; name: string; segments: { desc: string; segments: RawSegmentNode[] } }>;
}
interface RawTables {
  [id: string]: { desc?: string; values: Record<string, string> };
}

const require = createRequire(import.meta.url);
const definitionsDir = join(dirname(fileURLToPath(import.meta.url)), 'definitions');

/** True for a version this plugin has definitions for. */
export function isSupportedVersion(version: string): version is Hl7Version {
  return (HL7_VERSIONS as readonly string[]).includes(version);
}

/** Numeric parts of a version string (`2.5.1` -> [2, 5, 1]); non-numeric parts count as 0. */
function versionParts(version: string): number[] {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/**
 * The supported version closest to the one given: the same version when supported, else the newest supported
 * version not newer than it (`2.5.2` -> `2.5.1`, `2.9` -> `2.8`), else the oldest (`2.1` -> `2.3`).
 */
export function nearestVersion(version: string): Hl7Version {
  if (isSupportedVersion(version)) return version;
  const wanted = versionParts(version.trim());
  let best: Hl7Version = HL7_VERSIONS[0];
  for (const candidate of HL7_VERSIONS) {
    const parts = versionParts(candidate);
    let cmp = 0;
    for (let i = 0; i < Math.max(parts.length, wanted.length) && cmp === 0; i++) cmp = (parts[i] ?? 0) - (wanted[i] ?? 0);
    if (cmp <= 0) best = candidate;
  }
  return best;
}

const rawCache = new Map<Hl7Version, RawVersion>();

function loadRaw(version: Hl7Version): RawVersion {
  let raw = rawCache.get(version);
  if (!raw) {
    raw = readRaw(version);
    rawCache.set(version, raw);
  }
  return raw;
}

function readRaw(version: Hl7Version): RawVersion {
  if (version === '2.8') return JSON.parse(readFileSync(join(definitionsDir, '2.8.json'), 'utf8')) as RawVersion;
  return require(`hl7-dictionary/lib/${version}/index.js`) as RawVersion;
}

let tablesCache: RawTables | undefined;

/** hl7-dictionary's tables with the values of the dated update files added (see hl7-table-provenance.ts). */
function rawTables(): RawTables {
  if (tablesCache) return tablesCache;
  const base = require('hl7-dictionary/lib/tables.js') as RawTables;
  const merged: RawTables = { ...base };
  for (const update of loadTableProvenance().updates) {
    const id = String(Number(update.table));
    const entry = merged[id];
    const values = { ...(entry?.values ?? {}) };
    for (const { code, display } of update.add) values[code] ??= display;
    merged[id] = { ...entry, values };
  }
  tablesCache = merged;
  return tablesCache;
}

let events28: Record<string, string> | undefined;
function eventMap28(): Record<string, string> {
  events28 ??= JSON.parse(readFileSync(join(definitionsDir, '2.8-events.json'), 'utf8')) as Record<string, string>;
  return events28;
}

/** Table number as the standard writes it (4 digits). */
function tableId(table: number | undefined): string | undefined {
  return table === undefined ? undefined : String(table).padStart(4, '0');
}

/**
 * Corrections of the source data where it contradicts the standard. HAPI's v2.8 classes carry only a required
 * flag and mark OBX-2 and OBX-4 required, while v2.8 makes both conditional (OBX-2 is needed only when OBX-5 is
 * valued; OBX-4 only to tell observations apart).
 */
const OPTIONALITY_CORRECTIONS: Partial<Record<Hl7Version, Record<string, Hl7Optionality>>> = {
  '2.8': { 'OBX.2': 'C', 'OBX.4': 'C' },
};

interface RawCorrections {
  repetition: { version: string; field: string; repeats: boolean }[];
  eventStructures: { events: Record<string, Record<string, string>> }[];
}

/** Corrections by version: repeating fields (`SEG.n` -> repeats) and event -> structure. */
interface VersionCorrections {
  repetition: Map<string, boolean>;
  events: Map<string, string>;
}

let correctionsByVersion: Map<string, VersionCorrections> | undefined;

/** The corrections of `definitions/corrections.json` for one version (read once). */
function correctionsOf(version: Hl7Version): VersionCorrections | undefined {
  if (!correctionsByVersion) {
    const raw = JSON.parse(readFileSync(join(definitionsDir, 'corrections.json'), 'utf8')) as RawCorrections;
    correctionsByVersion = new Map();
    const entry = (v: string) => {
      let found = correctionsByVersion?.get(v);
      if (!found) {
        found = { repetition: new Map(), events: new Map() };
        correctionsByVersion?.set(v, found);
      }
      return found;
    };
    for (const { version: v, field, repeats } of raw.repetition) entry(v).repetition.set(field, repeats);
    for (const group of raw.eventStructures)
      for (const [v, events] of Object.entries(group.events)) for (const [event, structure] of Object.entries(events)) entry(v).events.set(event, structure);
  }
  return correctionsByVersion.get(version);
}

/** Maximum repetitions of a field, with the corrections applied (a corrected repeating field is unbounded). */
function fieldRepetitions(version: Hl7Version, segment: string, index: number, raw: RawField): number {
  const repeats = correctionsOf(version)?.repetition.get(`${segment}.${index + 1}`);
  if (repeats !== undefined) return repeats ? Number.POSITIVE_INFINITY : 1;
  return raw.rep === 0 ? Number.POSITIVE_INFINITY : raw.rep;
}

/** Versions whose hl7-dictionary data knows only "required" and "optional" (no conditional fields). */
const TWO_STATE_VERSIONS: ReadonlySet<Hl7Version> = new Set<Hl7Version>(['2.3', '2.3.1', '2.4']);

/**
 * The fields of the two-state versions (2.3 to 2.4) that hl7-dictionary marks required but that are conditional:
 * its data for those versions has no conditional state (OBX-2 "required if OBX-5 is valued" shows as required). A
 * field required there is conditional when the same field (same name) is conditional in 2.7.1, or, for 2.3,
 * optional in 2.3.1 (ORC-7, OBR-27, NK1-7: a minor revision does not relax a requirement). Derived from the
 * package on demand, as `SEG.n` per version; `definitions/two-state-conditionals.json` keeps the result, so reading
 * 2.3 does not load the 2.7.1 and 2.3.1 dictionaries too (a test derives it again and compares).
 */
export function deriveTwoStateConditionals(): Record<string, string[]> {
  const later = loadRaw('2.7.1');
  const next = loadRaw('2.3.1');
  const out: Record<string, string[]> = {};
  for (const version of TWO_STATE_VERSIONS) {
    const fields: string[] = [];
    for (const [segment, { fields: raws }] of Object.entries(loadRaw(version).segments)) {
      raws.forEach((raw, index) => {
        if (optionality(raw) !== 'R') return;
        const inLater = later.segments[segment]?.fields[index];
        const inNext = version === '2.3' ? next.segments[segment]?.fields[index] : undefined;
        const conditional = (inLater && inLater.desc === raw.desc && inLater.opt === 3) || (inNext && inNext.desc === raw.desc && inNext.opt === 1);
        if (conditional) fields.push(`${segment}.${index + 1}`);
      });
    }
    out[version] = fields.sort();
  }
  return out;
}

/** The kept fields of {@link deriveTwoStateConditionals}. */
export function keptTwoStateConditionals(): Record<string, string[]> {
  return (JSON.parse(readFileSync(join(definitionsDir, 'two-state-conditionals.json'), 'utf8')) as { fields: Record<string, string[]> }).fields;
}

let twoStateConditionals: Map<string, ReadonlySet<string>> | undefined;

/** Optionality of a field, with the source data's known distortions undone (see {@link deriveTwoStateConditionals}). */
function fieldOptionality(version: Hl7Version, segment: string, index: number, raw: RawField): Hl7Optionality {
  const corrected = OPTIONALITY_CORRECTIONS[version]?.[`${segment}.${index + 1}`];
  if (corrected) return corrected;
  const base = optionality(raw);
  if (base !== 'R' || !TWO_STATE_VERSIONS.has(version)) return base;
  twoStateConditionals ??= new Map(Object.entries(keptTwoStateConditionals()).map(([v, fields]) => [v, new Set(fields)]));
  return twoStateConditionals.get(version)?.has(`${segment}.${index + 1}`) ? 'C' : base;
}

function optionality(raw: RawField): Hl7Optionality {
  if (raw.withdrawn || raw.datatype === 'NULLDT') return 'W';
  switch (raw.opt) {
    case 2:
      return 'R';
    case 3:
      return 'C';
    case 4:
      return 'B';
    default:
      return 'O';
  }
}

function convertNodes(nodes: RawSegmentNode[]): Hl7StructureNode[] {
  return nodes.map((node) => {
    const kind = node.compounds ? 'choice' : node.children ? 'group' : 'segment';
    return {
      kind,
      name: node.name,
      description: node.desc,
      min: node.min,
      max: node.max === 0 ? Number.POSITIVE_INFINITY : node.max,
      children: convertNodes(node.compounds ?? node.children ?? []),
    };
  });
}

/** Groups of a structure by name, at any depth. */
function groupsByName(nodes: Hl7StructureNode[], into = new Map<string, Hl7StructureNode>()): Map<string, Hl7StructureNode> {
  for (const node of nodes) {
    if (node.kind === 'group' && !into.has(node.name)) into.set(node.name, node);
    groupsByName(node.children, into);
  }
  return into;
}

/**
 * hl7-dictionary's v2.6 structures give some optional repeating groups (e.g. OML_O21 INSURANCE, PRIOR_RESULT) a
 * cardinality of exactly one. Such groups take the cardinality of the same group in v2.5.1, or become optional
 * and repeating when v2.5.1 lacks them, so real messages are not reported missing groups the standard never required.
 */
function correctGroupCardinality(nodes: Hl7StructureNode[], reference: Hl7StructureNode[] | undefined): void {
  const known = groupsByName(reference ?? []);
  const visit = (list: Hl7StructureNode[]) => {
    for (const node of list) {
      if (node.kind === 'group' && node.min === 1 && node.max === 1) {
        const same = known.get(node.name);
        node.min = same ? same.min : 0;
        node.max = same ? same.max : Number.POSITIVE_INFINITY;
      }
      visit(node.children);
    }
  };
  visit(nodes);
}

/** Builds the definitions object of one version; conversions happen once per element, on first use. */
function createVersionDefinitions(version: Hl7Version, raw: RawVersion): Hl7VersionDefinitions {
  const segments = new Map<string, Hl7SegmentDefinition | undefined>();
  const dataTypes = new Map<string, Hl7DataTypeDefinition | undefined>();
  const structures = new Map<string, Hl7MessageStructure | undefined>();
  const tables = rawTables();
  const inTable = (table: string, value: string) => {
    const entry = tables[String(Number(table))];
    return entry ? value in entry.values : true;
  };
  const definitions: Hl7VersionDefinitions = {
    version,
    segment(name) {
      // One lookup for the common case (known and converted): these run for every segment and data type checked.
      const known = segments.get(name);
      if (known !== undefined) return known;
      if (!segments.has(name)) {
        const seg = Object.hasOwn(raw.segments, name) ? raw.segments[name] : undefined;
        segments.set(
          name,
          seg && {
            name,
            description: seg.desc,
            fields: seg.fields.map((f, i) => ({
              position: i + 1,
              name: f.desc,
              dataType: f.datatype,
              optionality: fieldOptionality(version, name, i, f),
              maxRepetitions: fieldRepetitions(version, name, i, f),
              maxLength: f.len,
              table: tableId(f.table),
            })),
          },
        );
      }
      return segments.get(name);
    },
    dataType(name) {
      const known = dataTypes.get(name);
      if (known !== undefined) return known;
      if (!dataTypes.has(name)) {
        const type = Object.hasOwn(raw.fields, name) ? raw.fields[name] : undefined;
        dataTypes.set(
          name,
          type && {
            name,
            description: type.desc,
            components: type.subfields.map((f, i) => ({
              position: i + 1,
              name: f.desc,
              dataType: f.datatype,
              optionality: optionality(f),
              maxLength: f.len,
              table: tableId(f.table),
            })),
          },
        );
      }
      return dataTypes.get(name);
    },
    structure(key) {
      if (!structures.has(key)) {
        const message = Object.hasOwn(raw.messages, key) ? raw.messages[key] : undefined;
        const nodes = message && convertNodes(message.segments.segments);
        if (nodes && version === '2.6') correctGroupCardinality(nodes, getHl7Definitions('2.5.1').structure(key)?.nodes);
        structures.set(key, message && nodes && { id: message.name || key, description: message.desc, nodes });
      }
      return structures.get(key);
    },
    resolveMessage(code, trigger, declaredStructure) {
      const event = trigger ? `${code}_${trigger}` : code;
      const candidates =
        version === '2.8'
          ? [declaredStructure, eventMap28()[event], event, code]
          : [correctionsOf(version)?.events.get(event), event, declaredStructure, code];
      let structure: Hl7MessageStructure | undefined;
      for (const key of candidates) {
        structure = key ? definitions.structure(key) : undefined;
        if (structure) break;
      }
      return {
        messageType: trigger ? `${code}^${trigger}` : code,
        structure,
        declaredStructure: declaredStructure || undefined,
        knownCode: code === 'ACK' || inTable('0076', code),
        knownTrigger: trigger === '' || inTable('0003', trigger),
      };
    },
    messageKeys: () => Object.keys(raw.messages),
    segmentNames: () => Object.keys(raw.segments),
  };
  return definitions;
}

const loaded = new Map<Hl7Version, Hl7VersionDefinitions>();

/** The definitions of a supported version (loaded on first use, then cached). */
export function getHl7Definitions(version: Hl7Version): Hl7VersionDefinitions {
  let definitions = loaded.get(version);
  if (!definitions) {
    definitions = createVersionDefinitions(version, loadRaw(version));
    loaded.set(version, definitions);
  }
  return definitions;
}

/** One value of an HL7 table. */
export interface Hl7TableValue {
  code: string;
  description: string;
}

/**
 * Values of an HL7 table (`0001` or `1`), or undefined when hl7-dictionary has none. hl7-dictionary ships one set
 * of tables for all versions and does not mark which are HL7-defined and which user-defined: callers decide by the
 * data type that refers to the table (ID refers to HL7-defined tables, IS and CWE to user-defined or external ones).
 */
export function getHl7TableValues(table: string): { description: string; values: Hl7TableValue[] } | undefined {
  const entry = rawTables()[String(Number(table))];
  if (!entry) return undefined;
  return {
    description: entry.desc ?? '',
    values: Object.entries(entry.values).map(([code, description]) => ({ code, description })),
  };
}

let hl7DefinedTables: ReadonlySet<string> | undefined;

/**
 * The tables hl7-dictionary's newest version (2.7.1) refers to only by ID fields: hl7-dictionary does not say which
 * tables are HL7-defined, and a table that any IS, CWE or CE field refers to is user-defined or external. Derived
 * from the package on demand; `definitions/hl7-defined-tables.json` keeps the result, so validation need not load
 * the whole 2.7.1 dictionary to know it (a test derives it again and compares).
 */
export function deriveHl7DefinedTables(): string[] {
  const raw = loadRaw('2.7.1');
  const id = new Set<string>();
  const other = new Set<string>();
  const note = (f: RawField) => {
    const t = tableId(f.table);
    if (t) (f.datatype === 'ID' ? id : other).add(t);
  };
  for (const seg of Object.values(raw.segments)) seg.fields.forEach(note);
  for (const type of Object.values(raw.fields)) type.subfields.forEach(note);
  return [...id].filter((t) => !other.has(t)).sort();
}

/** The kept list of HL7-defined tables (see {@link deriveHl7DefinedTables}). */
export function keptHl7DefinedTables(): string[] {
  const kept = JSON.parse(readFileSync(join(definitionsDir, 'hl7-defined-tables.json'), 'utf8')) as { tables: string[] };
  return kept.tables;
}

/**
 * True when the table is HL7-defined: its values are the standard's, and a value outside them is an error. Tables
 * only ever referred to by ID fields in hl7-dictionary 2.7.1 (see {@link deriveHl7DefinedTables}).
 */
export function isHl7DefinedTable(table: string): boolean {
  hl7DefinedTables ??= new Set(keptHl7DefinedTables());
  return hl7DefinedTables.has(table);
}

/**
 * Codes of each table by id as written (`0001`), `null` for tables hl7-dictionary lacks: table checks run for every
 * ID value of every message, so each table's codes are put in a set once and every later look-up is one probe.
 */
const tableCodesById = new Map<string, ReadonlySet<string> | null>();

/** True when `value` is one of the table's codes; undefined when the table is unknown. */
export function isHl7TableValue(table: string, value: string): boolean | undefined {
  const codes = hl7TableCodes(table);
  return codes ? codes.has(value) : undefined;
}

/** The codes of an HL7 table, in the table's order; undefined when the table has no values in the definitions. */
export function hl7TableCodes(table: string): ReadonlySet<string> | undefined {
  let codes = tableCodesById.get(table);
  if (codes === undefined) {
    const values = rawTables()[String(Number(table))]?.values;
    codes = values ? new Set(Object.keys(values)) : null;
    // Table ids come from the definitions (a few hundred at most); the guard only bounds odd callers.
    if (tableCodesById.size < 4096) tableCodesById.set(table, codes);
  }
  return codes ?? undefined;
}

let dataTypeNames: Set<string> | undefined;

/** True when some supported version defines a data type of that name (CE, withdrawn in v2.7, is one). */
export function isDataTypeOfAnyVersion(name: string): boolean {
  if (!dataTypeNames) {
    dataTypeNames = new Set<string>();
    for (const version of HL7_VERSIONS) for (const type of Object.keys(loadRaw(version).fields)) dataTypeNames.add(type);
  }
  return dataTypeNames.has(name);
}
