/**
 * Field-level checks of one segment against its definition: required fields, withdrawn fields, repetitions,
 * lengths, required components of composite types, primitive formats and HL7-defined table values.
 *
 * Table values are checked only where the data type is ID: the standard reserves ID for HL7-defined tables, while
 * IS and CWE refer to user-defined or external tables whose values are a site's own business. A few ID tables are
 * skipped because another check owns them (MSH-9 and MSH-12) or because hl7-dictionary's single table set lags
 * behind newer versions.
 *
 * This runs for every field of every message, so the definitions are compiled once per version into check plans
 * (data types resolved, unchecked parts dropped), and paths and field names are put together only when an issue is
 * raised: a valid message allocates almost nothing here.
 */
import type { Hl7ComponentDefinition, Hl7FieldDefinition, Hl7SegmentDefinition, Hl7VersionDefinitions } from '../hl7-definitions.ts';
import { getHl7TableValues, isDataTypeOfAnyVersion, isHl7DefinedTable, isHl7TableValue, hl7TableCodes } from '../hl7-definitions.ts';
import { isHl7CodingSystem } from '../hl7-coding-systems.ts';
import { describeField, type Hl7IssueCollector } from './hl7-issue-messages.ts';
import type { Hl7Field, Hl7Repetition, Hl7Segment } from '../hl7-model.ts';
import { isFieldEmpty } from '../hl7-path.ts';
import { CHECKED_PRIMITIVES, checkPrimitiveValue, expectedPrimitive } from './hl7-value-check.ts';
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue, expectedCodes, MISSING_VALUE } from '../../../kernel/standards/issue-detail.ts';

/**
 * ID tables not checked here: 0076/0003/0354 (message type, event, structure: the header check owns them) and
 * 0104 (version: the version check owns it; hl7-dictionary's table stops at 2.6).
 */
const TABLES_CHECKED_ELSEWHERE: ReadonlySet<string> = new Set(['0076', '0003', '0354', '0104']);

/** Table 0125 (value type) lists data types; any data type of the version is a valid value. */
const VALUE_TYPE_TABLE = '0125';

/** Table 0396 (coding system): its values and patterns live in hl7-coding-systems.ts. */
const CODING_SYSTEM_TABLE = '0396';

/** Coded data types whose components 3, 6 (and 12 from v2.7) name a coding system. */
const CODED_TYPES: ReadonlySet<string> = new Set(['CE', 'CWE', 'CNE', 'CF']);
const CODING_SYSTEM_COMPONENTS: ReadonlySet<number> = new Set([3, 6, 12]);

/** What a coding-system name looks like: a short token. Anything else (words and spaces) is free text. */
const CODING_SYSTEM_TOKEN = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,19}$/;

/**
 * True for the table of an ID component or part that is checked: the version types the component ID, which the
 * standard reserves for HL7-defined tables (XPN-7 0200, XAD-7 0190, XTN-2/3 0201/0202, HD-3 0301, CX-5 0203 from
 * v2.4...), and hl7-dictionary has the table's values. The same table on an IS component (CX-5 in v2.3) is
 * user-defined there and not checked.
 */
function isCheckedTable(table: string | undefined): table is string {
  return table !== undefined && !TABLES_CHECKED_ELSEWHERE.has(table) && table !== VALUE_TYPE_TABLE && getHl7TableValues(table) !== undefined;
}

/** Types whose text may legitimately hold what looks like delimiters after parsing (formatted and varying data). */
const FREE_TYPES: ReadonlySet<string> = new Set(['VARIES', 'FT', 'TX', 'ST', 'NULLDT']);

/** What the field checks need to know about the message. */
export interface FieldCheckContext {
  definitions: Hl7VersionDefinitions;
  issues: Hl7IssueCollector;
  /** "ADT^A01 v2.5.1", used in sentences. */
  label: string;
  /** Path of a segment occurrence (`OBX[2]`, `PID`); called only when an issue is raised. */
  pathOf: (segment: Hl7Segment) => string;
}

/** One part (subcomponent) of a composite component whose format is checked. */
interface PartPlan {
  def: Hl7ComponentDefinition;
  /** Primitive type checked (TS's time part read as DTM). */
  type: string;
  /** HL7-defined table whose values the part must hold (ID parts only). */
  table?: string;
}

/** One component of a composite type, with what is checked in it. */
interface ComponentPlan {
  def: Hl7ComponentDefinition;
  /** Primitive type whose format is checked when the component holds a single value; undefined when unchecked. */
  primitive?: string;
  /** HL7-defined table whose values the component must hold (ID components only). */
  table?: string;
  /**
   * Table 0396 for a coded type's coding-system component where the version's definitions name none (CE in
   * v2.3-2.4): applied only to an observation value (OBX-5), where a receiver has to interpret the code.
   */
  observationTable?: string;
  /** Checked parts when the component is itself composite; undefined when none is checked. */
  parts?: PartPlan[];
}

/** A data type of one version, resolved for checking. */
interface TypePlan {
  name: string;
  /** False when the version does not define the type (its values are then not checked). */
  defined: boolean;
  /** True when a value of this (primitive) type has a checked format or, for ID, table: most have neither. */
  checksValue: boolean;
  /**
   * Components of a composite type that can raise an issue (required, or with a checked format); the others are
   * left out so the walk skips them. Undefined for a primitive (or undefined) type.
   */
  components?: ComponentPlan[];
}

/** A field definition with its type plan. */
interface FieldPlan {
  def: Hl7FieldDefinition;
  type: TypePlan;
  /** Length a repetition may have (see {@link effectiveMaxLength}); undefined when the version gives none. */
  maxLength?: number;
}

/** Versions whose lengths are conformance lengths (v2.7 chapter 2) rather than maximum lengths. */
const CONFORMANCE_LENGTH_VERSIONS: ReadonlySet<string> = new Set(['2.7', '2.7.1', '2.8']);

/**
 * The length a field's repetition may have. Published lengths that cannot hold the field's own legal values are
 * known to be too small (OBX-2 is 2 in v2.5 and v2.5.1, yet holds `CWE`, a value of its table 0125): for an ID
 * field the length is at least its HL7 table's longest code.
 */
function effectiveMaxLength(def: Hl7FieldDefinition): number | undefined {
  if (def.maxLength === undefined) return undefined;
  if (def.dataType !== 'ID' || def.table === undefined) return def.maxLength;
  let longest = def.maxLength;
  for (const entry of getHl7TableValues(def.table)?.values ?? []) longest = Math.max(longest, entry.code.length);
  return longest;
}

/** The field plans of one segment definition. */
interface SegmentPlan {
  /** Every field, in order (MSH-1 and MSH-2 left out: they are the parser's concern). */
  fields: FieldPlan[];
  /** The required fields only: beyond the last field a segment holds, nothing else can raise an issue. */
  required: FieldPlan[];
}

/** Plans of one version's definitions. */
interface VersionPlans {
  types: Map<string, TypePlan>;
  segments: Map<Hl7SegmentDefinition, SegmentPlan>;
}

const plansByVersion = new WeakMap<Hl7VersionDefinitions, VersionPlans>();

function plansOf(definitions: Hl7VersionDefinitions): VersionPlans {
  let plans = plansByVersion.get(definitions);
  if (!plans) {
    plans = { types: new Map(), segments: new Map() };
    plansByVersion.set(definitions, plans);
  }
  return plans;
}

/** The data type whose components are checked; TS before v2.5 declares its time as ST, but it is a DTM. */
function componentType(composite: string, position: number, declared: string): string {
  return composite === 'TS' && position === 1 ? 'DTM' : declared;
}

function isComposite(definitions: Hl7VersionDefinitions, type: string): boolean {
  return (definitions.dataType(type)?.components.length ?? 0) > 0;
}

/** The check plan of a data type in a version (compiled on first use). */
function typePlan(definitions: Hl7VersionDefinitions, plans: VersionPlans, name: string): TypePlan {
  let plan = plans.types.get(name);
  if (plan) return plan;
  const type = definitions.dataType(name);
  plan = { name, defined: type !== undefined, checksValue: name === 'ID' || CHECKED_PRIMITIVES.has(name) };
  if (type && type.components.length > 0) {
    plan.components = type.components.map((def): ComponentPlan => {
      const compType = componentType(name, def.position, def.dataType);
      const sub = definitions.dataType(compType);
      if (!sub || sub.components.length === 0) {
        // Only HL7-defined tables (and 0396) on ID components: IS and CWE components name user-defined tables.
        if (compType === 'ID' && isCheckedTable(def.table)) return { def, primitive: 'ID', table: def.table };
        const plan: ComponentPlan = CHECKED_PRIMITIVES.has(compType) ? { def, primitive: compType } : { def };
        if (!def.table && CODED_TYPES.has(name) && CODING_SYSTEM_COMPONENTS.has(def.position)) {
          plan.primitive ??= 'ID';
          plan.observationTable = CODING_SYSTEM_TABLE;
        }
        return plan;
      }
      const parts = sub.components
        .map((part): PartPlan => {
          const type = componentType(compType, part.position, part.dataType);
          return type === 'ID' && isCheckedTable(part.table) ? { def: part, type, table: part.table } : { def: part, type };
        })
        .filter((part) => (part.table !== undefined || CHECKED_PRIMITIVES.has(part.type)) && !isComposite(definitions, part.type));
      return parts.length > 0 ? { def, parts } : { def };
    });
    plan.components = plan.components.filter((c) => c.def.optionality === 'R' || c.primitive !== undefined || c.parts !== undefined);
  }
  plans.types.set(name, plan);
  return plan;
}

/** Segments whose first two fields are the delimiters themselves (the parser's concern, never checked here). */
const HEADER_SEGMENTS: ReadonlySet<string> = new Set(['MSH', 'FHS', 'BHS']);

/** The field plans of a segment definition in a version (compiled on first use). */
function segmentPlan(definitions: Hl7VersionDefinitions, plans: VersionPlans, segment: Hl7SegmentDefinition): SegmentPlan {
  let plan = plans.segments.get(segment);
  if (!plan) {
    const fields = segment.fields
      .filter((def) => !(HEADER_SEGMENTS.has(segment.name) && def.position <= 2))
      .map((def) => ({ def, type: typePlan(definitions, plans, def.dataType), maxLength: effectiveMaxLength(def) }));
    plan = { fields, required: fields.filter((field) => field.def.optionality === 'R') };
    plans.segments.set(segment, plan);
  }
  return plan;
}

/**
 * Where a value sits, kept as indexes while checking and turned into a path and a name only for an issue.
 * One object is reused for a whole segment.
 */
interface Place {
  ctx: FieldCheckContext;
  segment: Hl7Segment;
  field: Hl7FieldDefinition;
  /** 0-based repetition. */
  repetition: number;
  /** True when the segment's definition comes from a profile, whose lengths are the profile's own rules. */
  profileSegment: boolean;
}

function segmentPathOf(place: Place): string {
  return place.ctx.pathOf(place.segment);
}

/** `PID.3` (the whole field). */
function fieldPathOf(place: Place): string {
  return `${segmentPathOf(place)}.${place.field.position}`;
}

/** `PID.3` for the first repetition, `PID.3[2]` for the others. */
function repetitionPathOf(place: Place): string {
  return place.repetition === 0 ? fieldPathOf(place) : `${fieldPathOf(place)}[${place.repetition + 1}]`;
}

/** Path and name of a value: the repetition itself, one of its components, or a part of a component. */
function describeValue(place: Place, component?: Hl7ComponentDefinition, part?: Hl7ComponentDefinition): { path: string; name: string } {
  let path = repetitionPathOf(place);
  let name = place.field.name;
  if (component) {
    path += `.${component.position}`;
    name += ` - ${component.name}`;
  }
  if (part) {
    path += `.${part.position}`;
    name += ` - ${part.name}`;
  }
  return { path, name };
}

/*
 * The hot loops of this file are index loops: they run for every field of every message, and for-of's iterator
 * protocol made walking the tree about twice as slow here.
 */

/** Length of one repetition as written (parts plus the separators between them). */
function repetitionLength(rep: Hl7Repetition): number {
  let length = rep.length - 1;
  for (let c = 0; c < rep.length; c++) {
    const comp = rep[c] as string[];
    length += comp.length - 1;
    for (let s = 0; s < comp.length; s++) length += (comp[s] as string).length;
  }
  return length;
}

function isComponentEmpty(comp: string[]): boolean {
  for (let s = 0; s < comp.length; s++) if (comp[s] !== '') return false;
  return true;
}

function isRepetitionEmpty(rep: Hl7Repetition): boolean {
  for (let c = 0; c < rep.length; c++) if (!isComponentEmpty(rep[c] as string[])) return false;
  return true;
}

/** Checks a primitive value (format and, for ID, the HL7 table) found at `place` (and component, part). */
function checkPrimitive(
  place: Place,
  dataType: string,
  value: string,
  table: string | undefined,
  component?: Hl7ComponentDefinition,
  part?: Hl7ComponentDefinition,
): void {
  const ctx = place.ctx;
  const problem = checkPrimitiveValue(dataType, value);
  if (problem) {
    const { path, name } = describeValue(place, component, part);
    ctx.issues.add(problem.code, path, `${describeField(path, name)} is ${problem.reason}: "${excerpt(value)}".`, problem.tolerable, {
      expected: expectedPrimitive(dataType, problem),
      actual: actualValue(value),
    });
    return;
  }
  if (dataType === 'ID' && table && value !== '' && value !== '""' && !TABLES_CHECKED_ELSEWHERE.has(table)) {
    if (table === VALUE_TYPE_TABLE) {
      checkValueType(place, value, component, part);
      return;
    }
    if (table === CODING_SYSTEM_TABLE) {
      if (isHl7CodingSystem(value)) return;
      // Public-health implementation guides name their value sets here: in compatibility mode that is readable.
      if (ctx.issues.mode === 'compatibility' && PUBLIC_HEALTH_CODING_SYSTEM.test(value)) return;
      reportCodingSystem(place, value, component, part);
      return;
    }
    // A field's table counts when HL7-defined; a component's table was chosen by its plan (ID in the version).
    if ((component !== undefined || isHl7DefinedTable(table)) && isHl7TableValue(table, value) === false) {
      const { path, name } = describeValue(place, component, part);
      ctx.issues.add('VALUE_NOT_IN_TABLE', path, `${describeField(path, name)} value "${excerpt(value)}" is not in HL7 table ${table} for ${ctx.label}.`, undefined, {
        expected: `${expectedCodes(hl7TableCodes(table) ?? [])} (HL7 table ${table})`,
        actual: actualValue(value),
      });
    }
  }
}

/**
 * Coding-system names of public-health implementation guides (CDC PHIN VADS): value-set names such as
 * `PH_SexOfPatient_HL7_2x` or `PH_NotifiableEvent_Disease_Condition_CDC_NNDSS`, and `PHINQUESTION` for the
 * guides' question codes. Not in HL7 table 0396, but a receiver of such a guide knows them.
 */
const PUBLIC_HEALTH_CODING_SYSTEM = /^(?:PH_[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*|PHINQUESTION|PHINVADS)$/;

/** True when the value checked is an observation value (OBX-5), which a receiver has to interpret. */
function isObservationValue(place: Place): boolean {
  return place.field.position === 5 && place.segment.name === 'OBX';
}

/**
 * A coding-system name outside table 0396. In an observation value, free text where the coding system belongs
 * (`Not detected^^some text`) leaves the code uninterpretable: an error in both modes. Elsewhere, and for a
 * token that is merely not listed, the usual table rule applies (strict error, compatibility warning).
 */
function reportCodingSystem(place: Place, value: string, component?: Hl7ComponentDefinition, part?: Hl7ComponentDefinition): void {
  const { path, name } = describeValue(place, component, part);
  const freeText = isObservationValue(place) && !CODING_SYSTEM_TOKEN.test(value);
  place.ctx.issues.add(
    'VALUE_NOT_IN_TABLE',
    path,
    freeText
      ? `${describeField(path, name)} holds text, "${excerpt(value)}", where the name of a coding system (HL7 table 0396) belongs, so a receiver cannot interpret the code.`
      : `${describeField(path, name)} value "${excerpt(value)}" is not a coding system of HL7 table 0396 (nor a local one, beginning 99) for ${place.ctx.label}.`,
    freeText ? false : undefined,
    { expected: 'a coding system of HL7 table 0396 (or a local one, beginning 99)', actual: actualValue(value) },
  );
}

/**
 * A value type (table 0125: OBX-2, OM1-3...) must be a data type of the version, or the value it types cannot be
 * read. A type another supported version defines (CE after its withdrawal in v2.7) still tells a receiver how to
 * read the value, so compatibility mode reports it as a warning; anything else is an error in both modes.
 */
function checkValueType(place: Place, value: string, component?: Hl7ComponentDefinition, part?: Hl7ComponentDefinition): void {
  const ctx = place.ctx;
  if (ctx.definitions.dataType(value)) return;
  const { path, name } = describeValue(place, component, part);
  const elsewhere = isDataTypeOfAnyVersion(value);
  ctx.issues.add(
    'INVALID_DATA_TYPE',
    path,
    `${describeField(path, name)} "${excerpt(value)}" is not a data type of ${ctx.label}${elsewhere ? ' (it is one of another HL7 version)' : ''}, so the value it types cannot be interpreted.`,
    elsewhere,
    { expected: `a data type of ${ctx.label} (HL7 table 0125)`, actual: actualValue(value) },
  );
}

/**
 * Checks one repetition typed `type`: components of a composite (with one nested level as subcomponents), or the
 * value of a primitive.
 */
function checkTypedRepetition(place: Place, type: TypePlan, rep: Hl7Repetition, table: string | undefined): void {
  const components = type.components;
  if (!components) {
    if (rep.length > 1 || (rep[0]?.length ?? 0) > 1) {
      if (!FREE_TYPES.has(type.name) && type.defined) {
        const path = repetitionPathOf(place);
        place.ctx.issues.add(
          'INVALID_DATA_TYPE',
          path,
          `${describeField(path, place.field.name)} is of primitive type ${type.name} but holds separated parts; a delimiter inside the value must be escaped.`,
          // Senders often use a later version's composite form (IS became CWE in v2.6); compatibility accepts it.
          true,
          { expected: `one ${type.name} value without separators`, actual: `${rep.length} component(s)` },
        );
      }
      return;
    }
    if (type.checksValue) checkPrimitive(place, type.name, rep[0]?.[0] ?? '', table);
    return;
  }
  for (let c = 0; c < components.length; c++) {
    const component = components[c] as ComponentPlan;
    const comp = rep[component.def.position - 1];
    if (comp === undefined || isComponentEmpty(comp)) {
      if (component.def.optionality === 'R') {
        const compPath = `${repetitionPathOf(place)}.${component.def.position}`;
        place.ctx.issues.add(
          'REQUIRED_FIELD_MISSING',
          compPath,
          `${describeField(compPath, component.def.name)} is required in data type ${type.name} of ${place.field.name} (${place.ctx.label}) but is empty.`,
          // Senders often fill a composite partially; compatibility mode reports the missing part as a warning.
          true,
          MISSING_VALUE,
        );
      }
      continue;
    }
    if (component.parts) {
      for (let p = 0; p < component.parts.length; p++) {
        const part = component.parts[p] as PartPlan;
        const value = comp[part.def.position - 1];
        if (value !== undefined && value !== '') checkPrimitive(place, part.type, value, part.table, component.def, part.def);
      }
    } else if (component.primitive !== undefined && comp.length === 1) {
      const table = component.table ?? (component.observationTable !== undefined && isObservationValue(place) ? component.observationTable : undefined);
      checkPrimitive(place, component.primitive, comp[0] as string, table, component.def);
    }
  }
}

/**
 * A repetition longer than the version's length. The standard gives no receiver the right to reject a message for
 * it: up to v2.6 the length is the maximum a sender should send, and receivers commonly truncate; from v2.7 it is
 * the conformance length, the least a receiver must be able to store, and a longer value may be truncated. So it
 * is a warning in both modes. A profile's Z-segment lengths are the profile's rules and keep the usual severity.
 */
function reportLength(place: Place, length: number, maxLength: number): void {
  const { ctx, field } = place;
  const repPath = repetitionPathOf(place);
  if (place.profileSegment) {
    ctx.issues.add('FIELD_TOO_LONG', repPath, `${describeField(repPath, field.name)} is ${length} characters long; ${ctx.label} allows at most ${maxLength}.`, undefined, {
      expected: `at most ${maxLength} characters`,
      actual: `${length} characters`,
    });
    return;
  }
  const conformance = CONFORMANCE_LENGTH_VERSIONS.has(ctx.definitions.version);
  ctx.issues.push({
    field: repPath,
    code: 'FIELD_TOO_LONG',
    severity: 'warning',
    expected: `at most ${maxLength} characters`,
    actual: `${length} characters`,
    message: conformance
      ? `${describeField(repPath, field.name)} is ${length} characters long, over its conformance length of ${maxLength} in ${ctx.label}; a receiver may truncate it.`
      : `${describeField(repPath, field.name)} is ${length} characters long; ${ctx.label} publishes a maximum of ${maxLength}, beyond which a receiver may truncate it.`,
  });
}

/** Checks one field of a segment against its plan. `valueType` (OBX only) types OBX-5 as OBX-2 names. */
function checkField(place: Place, plan: FieldPlan, field: Hl7Field | undefined, valueType: TypePlan | undefined): void {
  const def = plan.def;
  place.field = def;
  place.repetition = 0;
  if (field === undefined || isFieldEmpty(field)) {
    if (def.optionality === 'R') {
      const path = fieldPathOf(place);
      place.ctx.issues.add('REQUIRED_FIELD_MISSING', path, `${describeField(path, def.name)} is required in ${place.ctx.label} but is empty.`, undefined, MISSING_VALUE);
    }
    return;
  }
  const ctx = place.ctx;
  const reps = field;
  if (def.optionality === 'W') {
    const path = fieldPathOf(place);
    ctx.issues.add('WITHDRAWN_FIELD_PRESENT', path, `${describeField(path, def.name)} is withdrawn in ${ctx.label} but has a value.`);
    return;
  }
  if (reps.length > def.maxRepetitions) {
    const path = fieldPathOf(place);
    ctx.issues.add(
      'TOO_MANY_REPETITIONS',
      path,
      `${describeField(path, def.name)} may repeat at most ${def.maxRepetitions} time(s) in ${ctx.label} but has ${reps.length} repetitions.`,
      undefined,
      { expected: `at most ${def.maxRepetitions} repetition(s)`, actual: `${reps.length} repetitions` },
    );
  }
  // OBX-5 is read as the type OBX-2 names, whatever its definition says (VARIES; v2.7 data types it ST).
  const type = valueType && (def.dataType === 'VARIES' || def.position === 5) ? valueType : plan.type;
  for (let r = 0; r < reps.length; r++) {
    const rep = reps[r] as Hl7Repetition;
    if (isRepetitionEmpty(rep)) continue;
    place.repetition = r;
    if (plan.maxLength !== undefined) {
      const length = repetitionLength(rep);
      if (length > plan.maxLength) reportLength(place, length, plan.maxLength);
    }
    checkTypedRepetition(place, type, rep, def.table);
  }
}

/**
 * Checks every defined field of a segment. MSH-1 and MSH-2 are the parser's concern (delimiters) and are skipped.
 * Issues come out in the order of the definition's fields, as required fields missing at the end of a segment can
 * only follow those it holds.
 */
export function checkSegmentFields(ctx: FieldCheckContext, segment: Hl7Segment, def: Hl7SegmentDefinition, profileSegment = false): void {
  const plans = plansOf(ctx.definitions);
  let valueType: TypePlan | undefined;
  if (segment.name === 'OBX') {
    const declared = segment.fields[2]?.[0]?.[0]?.[0];
    if (declared && ctx.definitions.dataType(declared)) valueType = typePlan(ctx.definitions, plans, declared);
  }
  const plan = segmentPlan(ctx.definitions, plans, def);
  // `field` and `repetition` are set by checkField for each field checked.
  const place: Place = { ctx, segment, field: def.fields[0] as Hl7FieldDefinition, repetition: 0, profileSegment };
  const present = segment.fields.length;
  // QPD-3 onwards are each query's own parameters, defined by its conformance statement (IHE PDQ repeats QPD-3,
  // PIX uses QPD-4, PDQ QPD-8), not by the segment definition.
  const lastChecked = segment.name === 'QPD' ? QPD_LAST_STANDARD_FIELD : Number.POSITIVE_INFINITY;
  for (let f = 0; f < plan.fields.length; f++) {
    const field = plan.fields[f] as FieldPlan;
    if (field.def.position < present && field.def.position <= lastChecked) checkField(place, field, segment.fields[field.def.position], valueType);
  }
  for (let f = 0; f < plan.required.length; f++) {
    const field = plan.required[f] as FieldPlan;
    if (field.def.position >= present && field.def.position <= lastChecked) checkField(place, field, undefined, valueType);
  }
  if (segment.name === 'OBX') checkObservationValueType(ctx, segment);
  const lastDefined = def.fields.length > 0 ? (def.fields[def.fields.length - 1] as Hl7FieldDefinition).position : 0;
  // A definition without fields (CON in the v2.8 data) says nothing about where the segment ends.
  if (lastDefined > 0 && present - 1 > lastDefined && segment.name !== 'QPD') checkFieldsBeyond(ctx, segment, def, lastDefined);
}

/** The last QPD field the segment definition governs (QPD-2, the query tag); the rest is the query's own. */
const QPD_LAST_STANDARD_FIELD = 2;

/**
 * An observation value (OBX-5) with no value type (OBX-2) cannot be read: its type is unknown. An error in both
 * modes, whatever the version says about OBX-2.
 */
function checkObservationValueType(ctx: FieldCheckContext, segment: Hl7Segment): void {
  if (isFieldEmpty(segment.fields[5]) || !isFieldEmpty(segment.fields[2])) return;
  const path = `${ctx.pathOf(segment)}.2`;
  ctx.issues.add(
    'REQUIRED_FIELD_MISSING',
    path,
    `${path} (Value Type) is empty but ${ctx.pathOf(segment)}.5 holds a value: without its type a receiver cannot read the observation value.`,
    false,
    MISSING_VALUE,
  );
}

/**
 * Fields a segment holds after the last one its definition knows (`PID.40` in v2.5.1, whose PID ends at PID.39):
 * a receiver has nowhere to put them. Trailing empty fields are only separators and are not reported. One finding
 * per segment names the first such field and how many there are, however many the sender wrote.
 */
function checkFieldsBeyond(ctx: FieldCheckContext, segment: Hl7Segment, def: Hl7SegmentDefinition, lastDefined: number): void {
  let first = 0;
  let count = 0;
  for (let position = lastDefined + 1; position < segment.fields.length; position++) {
    if (isFieldEmpty(segment.fields[position])) continue;
    if (first === 0) first = position;
    count++;
  }
  if (count === 0) return;
  const segmentPath = ctx.pathOf(segment);
  const others = count > 1 ? ` and ${count - 1} more filled field(s) after it` : '';
  ctx.issues.add(
    'UNKNOWN_ELEMENT',
    `${segmentPath}.${first}`,
    `${segmentPath}.${first}${others} ${count > 1 ? 'lie' : 'lies'} beyond ${def.name}.${lastDefined}, the last field ${def.name} (${def.description}) has in ${ctx.label}; a receiver has no place for ${count > 1 ? 'them' : 'it'}.`,
  );
}
