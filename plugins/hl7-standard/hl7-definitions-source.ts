/**
 * Reading the sources of the HL7 v2 definitions: hl7-dictionary's versions and tables (with the dated table updates
 * added), the v2.8 files in `definitions/`, and the corrections kept there (repetition flags, event structures,
 * optionality the two-state versions cannot express, the HL7-defined tables). Each file is read once, on first use.
 *
 * `definitions/` is found next to this file, in the sources as in the compiled build.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hl7Optionality, Hl7Version } from './hl7-definition-types.ts';
import { loadTableProvenance } from './hl7-table-provenance.ts';

/** One field (or component) as the raw definitions give it. */
export interface RawField {
  datatype: string;
  desc: string;
  opt: number;
  rep: number;
  len?: number;
  table?: number;
  withdrawn?: boolean;
}
/** One node of a raw message structure: a segment, a group (`children`) or a choice (`compounds`). */
export interface RawSegmentNode {
  name: string;
  desc: string;
  min: number;
  max: number;
  children?: RawSegmentNode[];
  compounds?: RawSegmentNode[];
}
/** One version of the raw definitions: data types (`fields`), segments and message structures. */
export interface RawVersion {
  fields: Record<string, { desc: string; subfields: RawField[] }>;
  segments: Record<string, { desc: string; fields: RawField[] }>;
  messages: Record<string, { desc: string; name: string; segments: { desc: string; segments: RawSegmentNode[] } }>;
}
/** The raw HL7 tables by number (`1`, not `0001`). */
export interface RawTables {
  [id: string]: { desc?: string; values: Record<string, string> };
}

const require = createRequire(import.meta.url);
const definitionsDir = join(dirname(fileURLToPath(import.meta.url)), 'definitions');

const rawCache = new Map<Hl7Version, RawVersion>();

/** The raw definitions of a version (read once, then cached). */
export function loadRaw(version: Hl7Version): RawVersion {
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
export function rawTables(): RawTables {
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

/** v2.8 events and the structure each uses (`ADT_A04` -> `ADT_A01`), from `definitions/2.8-events.json`. */
export function eventMap28(): Record<string, string> {
  events28 ??= JSON.parse(readFileSync(join(definitionsDir, '2.8-events.json'), 'utf8')) as Record<string, string>;
  return events28;
}

/** Table number as the standard writes it (4 digits). */
export function tableId(table: number | undefined): string | undefined {
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
export function correctionsOf(version: Hl7Version): VersionCorrections | undefined {
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
export function fieldRepetitions(version: Hl7Version, segment: string, index: number, raw: RawField): number {
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
export function fieldOptionality(version: Hl7Version, segment: string, index: number, raw: RawField): Hl7Optionality {
  const corrected = OPTIONALITY_CORRECTIONS[version]?.[`${segment}.${index + 1}`];
  if (corrected) return corrected;
  const base = optionality(raw);
  if (base !== 'R' || !TWO_STATE_VERSIONS.has(version)) return base;
  twoStateConditionals ??= new Map(Object.entries(keptTwoStateConditionals()).map(([v, fields]) => [v, new Set(fields)]));
  return twoStateConditionals.get(version)?.has(`${segment}.${index + 1}`) ? 'C' : base;
}

/** Optionality as the raw data writes it (`opt`, `withdrawn`), without corrections. */
export function optionality(raw: RawField): Hl7Optionality {
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
