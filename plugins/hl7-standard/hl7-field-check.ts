/**
 * Field-level checks of one segment against its definition: required fields, withdrawn fields, repetitions,
 * lengths, required components of composite types, primitive formats and HL7-defined table values.
 *
 * Table values are checked only where the data type is ID: the standard reserves ID for HL7-defined tables, while
 * IS and CWE refer to user-defined or external tables whose values are a site's own business. A few ID tables are
 * skipped because another check owns them (MSH-9 and MSH-12) or because hl7-dictionary's single table set lags
 * behind newer versions.
 */
import type { Hl7DataTypeDefinition, Hl7FieldDefinition, Hl7SegmentDefinition, Hl7VersionDefinitions } from './hl7-definitions.ts';
import { isHl7DefinedTable, isHl7TableValue } from './hl7-definitions.ts';
import { describeField, type Hl7IssueCollector } from './hl7-issue-messages.ts';
import type { Hl7Component, Hl7Field, Hl7Repetition, Hl7Segment } from './hl7-model.ts';
import { isFieldEmpty } from './hl7-path.ts';
import { CHECKED_PRIMITIVES, checkPrimitiveValue } from './hl7-value-check.ts';

/**
 * ID tables not checked here: 0076/0003/0354 (message type, event, structure: the header check owns them) and
 * 0104 (version: the version check owns it; hl7-dictionary's table stops at 2.6).
 */
const TABLES_CHECKED_ELSEWHERE: ReadonlySet<string> = new Set(['0076', '0003', '0354', '0104']);

/** Table 0125 (value type) lists data types; any data type of the version is a valid value. */
const VALUE_TYPE_TABLE = '0125';

/** Types whose text may legitimately hold what looks like delimiters after parsing (formatted and varying data). */
const FREE_TYPES: ReadonlySet<string> = new Set(['VARIES', 'FT', 'TX', 'ST', 'NULLDT']);

/** What the field checks need to know about the message. */
export interface FieldCheckContext {
  definitions: Hl7VersionDefinitions;
  issues: Hl7IssueCollector;
  /** "ADT^A01 v2.5.1", used in sentences. */
  label: string;
}

/** Length of one repetition as written (parts plus the separators between them). */
function repetitionLength(rep: Hl7Repetition): number {
  let length = rep.length - 1;
  for (const comp of rep) {
    length += comp.length - 1;
    for (const sub of comp) length += sub.length;
  }
  return length;
}

function isRepetitionEmpty(rep: Hl7Repetition): boolean {
  for (const comp of rep) for (const sub of comp) if (sub !== '') return false;
  return true;
}

function isComponentEmpty(comp: Hl7Component | undefined): boolean {
  if (!comp) return true;
  for (const sub of comp) if (sub !== '') return false;
  return true;
}

/** Checks a primitive value (format and, for ID, the HL7 table). */
function checkPrimitive(ctx: FieldCheckContext, dataType: string, value: string, path: string, name: string, table: string | undefined): void {
  const problem = checkPrimitiveValue(dataType, value);
  if (problem) {
    ctx.issues.add(problem.code, path, `${describeField(path, name)} is ${problem.reason}: "${value}".`);
    return;
  }
  if (dataType === 'ID' && table && value !== '' && value !== '""' && !TABLES_CHECKED_ELSEWHERE.has(table)) {
    if (table === VALUE_TYPE_TABLE && ctx.definitions.dataType(value)) return;
    if (isHl7DefinedTable(table) && isHl7TableValue(table, value) === false) {
      ctx.issues.add('VALUE_NOT_IN_TABLE', path, `${describeField(path, name)} value "${value}" is not in HL7 table ${table} for ${ctx.label}.`);
    }
  }
}

/** The data type whose components are checked; TS before v2.5 declares its time as ST, but it is a DTM. */
function componentType(composite: Hl7DataTypeDefinition, position: number, declared: string): string {
  return composite.name === 'TS' && position === 1 ? 'DTM' : declared;
}

/**
 * Checks one repetition typed `dataType`: components of a composite (with one nested level as subcomponents),
 * or the value of a primitive.
 */
function checkTypedRepetition(ctx: FieldCheckContext, dataType: string, rep: Hl7Repetition, path: string, name: string, table: string | undefined): void {
  const type = ctx.definitions.dataType(dataType);
  if (!type || type.components.length === 0) {
    if (rep.length > 1 || (rep[0]?.length ?? 0) > 1) {
      if (!FREE_TYPES.has(dataType) && type) {
        ctx.issues.add(
          'INVALID_DATA_TYPE',
          path,
          `${describeField(path, name)} is of primitive type ${dataType} but holds separated parts; a delimiter inside the value must be escaped.`,
          // Senders often use a later version's composite form (IS became CWE in v2.6); compatibility accepts it.
          true,
        );
      }
      return;
    }
    checkPrimitive(ctx, dataType, rep[0]?.[0] ?? '', path, name, table);
    return;
  }
  // Paths and names are only built where something is checked: most components are strings nobody checks.
  for (const component of type.components) {
    const comp = rep[component.position - 1];
    if (isComponentEmpty(comp)) {
      if (component.optionality === 'R') {
        const compPath = `${path}.${component.position}`;
        ctx.issues.add(
          'REQUIRED_FIELD_MISSING',
          compPath,
          `${describeField(compPath, component.name)} is required in data type ${dataType} of ${name} (${ctx.label}) but is empty.`,
          // Senders often fill a composite partially; compatibility mode reports the missing part as a warning.
          true,
        );
      }
      continue;
    }
    const compType = componentType(type, component.position, component.dataType);
    const sub = ctx.definitions.dataType(compType);
    if (sub && sub.components.length > 0) {
      if (hasCheckedPart(ctx, sub)) checkSubcomponents(ctx, sub, comp as Hl7Component, `${path}.${component.position}`, `${name} - ${component.name}`);
    } else if ((comp as Hl7Component).length === 1 && CHECKED_PRIMITIVES.has(compType)) {
      // Tables of components are not checked: hl7-dictionary's single table set does not follow the versions
      // closely enough there (coding-system names, identifier types), and most are user-defined in practice.
      checkPrimitive(ctx, compType, (comp as Hl7Component)[0] as string, `${path}.${component.position}`, `${name} - ${component.name}`, undefined);
    }
  }
}

const checkedParts = new WeakMap<Hl7DataTypeDefinition, boolean>();

/** True when some primitive part of a composite has a checked format (cached per type). */
function hasCheckedPart(ctx: FieldCheckContext, type: Hl7DataTypeDefinition): boolean {
  let known = checkedParts.get(type);
  if (known === undefined) {
    known = type.components.some((part) => {
      const partType = componentType(type, part.position, part.dataType);
      const partDef = ctx.definitions.dataType(partType);
      return !(partDef && partDef.components.length > 0) && CHECKED_PRIMITIVES.has(partType);
    });
    checkedParts.set(type, known);
  }
  return known;
}

/** Checks the subcomponents of a component whose type is itself composite (e.g. XCN.9 HD). */
function checkSubcomponents(ctx: FieldCheckContext, type: Hl7DataTypeDefinition, comp: Hl7Component, path: string, name: string): void {
  for (const part of type.components) {
    const value = comp[part.position - 1];
    if (value === undefined || value === '') continue;
    const partType = componentType(type, part.position, part.dataType);
    if (!CHECKED_PRIMITIVES.has(partType)) continue;
    const partDef = ctx.definitions.dataType(partType);
    if (partDef && partDef.components.length > 0) continue;
    checkPrimitive(ctx, partType, value, `${path}.${part.position}`, `${name} - ${part.name}`, undefined);
  }
}

/** Checks one field of a segment against its definition. `valueType` overrides a VARIES type (OBX-5 by OBX-2). */
function checkField(ctx: FieldCheckContext, def: Hl7FieldDefinition, field: Hl7Field | undefined, segmentPath: string, valueType?: string): void {
  if (isFieldEmpty(field)) {
    if (def.optionality === 'R') {
      const path = `${segmentPath}.${def.position}`;
      ctx.issues.add('REQUIRED_FIELD_MISSING', path, `${describeField(path, def.name)} is required in ${ctx.label} but is empty.`);
    }
    return;
  }
  const path = `${segmentPath}.${def.position}`;
  const reps = field as Hl7Field;
  if (def.optionality === 'W') {
    ctx.issues.add('WITHDRAWN_FIELD_PRESENT', path, `${describeField(path, def.name)} is withdrawn in ${ctx.label} but has a value.`);
    return;
  }
  if (reps.length > def.maxRepetitions) {
    ctx.issues.add(
      'TOO_MANY_REPETITIONS',
      path,
      `${describeField(path, def.name)} may repeat at most ${def.maxRepetitions} time(s) in ${ctx.label} but has ${reps.length} repetitions.`,
    );
  }
  const dataType = def.dataType === 'VARIES' && valueType ? valueType : def.dataType;
  for (let r = 0; r < reps.length; r++) {
    const rep = reps[r] as Hl7Repetition;
    if (isRepetitionEmpty(rep)) continue;
    const repPath = r === 0 ? path : `${path}[${r + 1}]`;
    if (def.maxLength !== undefined) {
      const length = repetitionLength(rep);
      if (length > def.maxLength) {
        ctx.issues.add(
          'FIELD_TOO_LONG',
          repPath,
          `${describeField(repPath, def.name)} is ${length} characters long; ${ctx.label} allows at most ${def.maxLength}.`,
        );
      }
    }
    checkTypedRepetition(ctx, dataType, rep, repPath, def.name, def.table);
  }
}

/**
 * Checks every defined field of a segment. `segmentPath` is `PID` or `OBX[2]`. MSH-1 and MSH-2 are the parser's
 * concern (delimiters) and are skipped.
 */
export function checkSegmentFields(ctx: FieldCheckContext, segment: Hl7Segment, def: Hl7SegmentDefinition, segmentPath: string): void {
  const isHeader = segment.name === 'MSH';
  let valueType: string | undefined;
  if (segment.name === 'OBX') {
    const declared = segment.fields[2]?.[0]?.[0]?.[0];
    if (declared && ctx.definitions.dataType(declared)) valueType = declared;
  }
  for (const fieldDef of def.fields) {
    if (isHeader && fieldDef.position <= 2) continue;
    checkField(ctx, fieldDef, segment.fields[fieldDef.position], segmentPath, valueType);
  }
}
