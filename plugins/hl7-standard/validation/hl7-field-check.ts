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
 *
 * The check plans are in hl7-check-plans.ts, the checks of one repetition (components, primitives, tables) in
 * hl7-repetition-check.ts and the places of values in hl7-check-place.ts.
 */
import type { Hl7FieldDefinition, Hl7SegmentDefinition } from '../hl7-definitions.ts';
import { describeField } from './hl7-issue-messages.ts';
import type { Hl7Field, Hl7Repetition, Hl7Segment } from '../hl7-model.ts';
import { isFieldEmpty } from '../hl7-path.ts';
import { MISSING_VALUE } from '../../../kernel/standards/issue-detail.ts';
import { type FieldPlan, plansOf, segmentPlan, typePlan, type TypePlan } from './hl7-check-plans.ts';
import { type FieldCheckContext, fieldPathOf, type Place, repetitionPathOf } from './hl7-check-place.ts';
import { checkTypedRepetition, isRepetitionEmpty, repetitionLength } from './hl7-repetition-check.ts';

/** Versions whose lengths are conformance lengths (v2.7 chapter 2) rather than maximum lengths. */
const CONFORMANCE_LENGTH_VERSIONS: ReadonlySet<string> = new Set(['2.7', '2.7.1', '2.8']);

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
