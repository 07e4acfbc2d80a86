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
 *
 * This file builds each version's definitions and answers the look-ups; reading the sources and their corrections is
 * hl7-definitions-source.ts, and the shapes are in hl7-definition-types.ts.
 */
import { HL7_VERSIONS } from './hl7-definition-types.ts';
import type {
  Hl7DataTypeDefinition,
  Hl7MessageStructure,
  Hl7SegmentDefinition,
  Hl7StructureNode,
  Hl7Version,
  Hl7VersionDefinitions,
} from './hl7-definition-types.ts';
import {
  correctionsOf,
  eventMap28,
  fieldOptionality,
  fieldRepetitions,
  keptHl7DefinedTables,
  loadRaw,
  optionality,
  type RawSegmentNode,
  type RawVersion,
  rawTables,
  tableId,
} from './hl7-definitions-source.ts';

export { HL7_VERSIONS } from './hl7-definition-types.ts';
export type {
  Hl7ComponentDefinition,
  Hl7FieldDefinition,
  Hl7MessageStructure,
  Hl7Optionality,
  Hl7SegmentDefinition,
  Hl7StructureNode,
  Hl7Version,
  Hl7VersionDefinitions,
} from './hl7-definition-types.ts';
export { deriveHl7DefinedTables, deriveTwoStateConditionals, keptHl7DefinedTables, keptTwoStateConditionals } from './hl7-definitions-source.ts';

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
