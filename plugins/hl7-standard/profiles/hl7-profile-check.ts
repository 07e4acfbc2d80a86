/**
 * Applies a profile's rules to one message: segment usage and cardinality, field and component usage, fixed
 * values, value sets, lengths and repetitions. Profile findings keep their severity in both modes: a profile is
 * an agreement between two systems, so what it requires is required (RE stays a warning).
 */
import type { Hl7VersionDefinitions } from '../hl7-definitions.ts';
import { describeField, type Hl7IssueCollector, type IssueDetail } from '../validation/hl7-issue-messages.ts';
import type { Hl7Field, Hl7Repetition, Hl7Segment } from '../hl7-model.ts';
import type { Hl7ParsedMessage } from '../parsing/hl7-parser.ts';
import { isFieldEmpty } from '../hl7-path.ts';
import type { Hl7FieldRule, Hl7Profile } from './hl7-profiles.ts';
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue, expectedCodes, MISSING_VALUE } from '../../../kernel/standards/issue-detail.ts';

/** Inputs of a profile check. */
export interface ProfileCheckInput {
  profile: Hl7Profile;
  message: Hl7ParsedMessage;
  issues: Hl7IssueCollector;
  label: string;
  pathOf: (segment: Hl7Segment) => string;
  definitions: Hl7VersionDefinitions;
}

function fieldName(input: ProfileCheckInput, segment: string, field: number, component?: number): string | undefined {
  const def = input.definitions.segment(segment) ?? input.profile.zSegments.get(segment);
  const fieldDef = def?.fields[field - 1];
  if (!fieldDef || component === undefined) return fieldDef?.name;
  const comp = input.definitions.dataType(fieldDef.dataType)?.components[component - 1];
  return comp ? `${fieldDef.name} - ${comp.name}` : fieldDef.name;
}

function add(
  input: ProfileCheckInput,
  code: Parameters<Hl7IssueCollector['add']>[0],
  field: string,
  message: string,
  severity: 'error' | 'warning' = 'error',
  detail?: IssueDetail,
): void {
  // The standard's own check may already have said the same of the same place (a segment both require).
  if (input.issues.has(code, field)) return;
  input.issues.push({ field, code, message, severity, ...detail });
}

/** The text a rule looks at in one repetition: its whole text (field rule) or one component's text. */
function repetitionText(rep: Hl7Repetition, component: number | undefined, d: Hl7ParsedMessage['delimiters']): string {
  if (component !== undefined) return (rep[component - 1] ?? []).join(d.subcomponent);
  if (rep.length === 1 && rep[0]?.length === 1) return rep[0][0] as string;
  return rep.map((c) => c.join(d.subcomponent)).join(d.component);
}

/** True when some repetition holds a value in the component (or anywhere, for a field rule). */
function hasValue(field: Hl7Field | undefined, component: number | undefined): boolean {
  if (!field) return false;
  if (component === undefined) return !isFieldEmpty(field);
  for (const rep of field) for (const part of rep[component - 1] ?? []) if (part !== '') return true;
  return false;
}

/** Value sets as sets, made once per rule: a rule is checked against every repetition of every segment. */
const valueSets = new WeakMap<Hl7FieldRule, ReadonlySet<string>>();

function valueSetOf(rule: Hl7FieldRule & { valueSet: string[] }): ReadonlySet<string> {
  let set = valueSets.get(rule);
  if (!set) {
    set = new Set(rule.valueSet);
    valueSets.set(rule, set);
  }
  return set;
}

function checkFieldRule(input: ProfileCheckInput, segment: Hl7Segment, path: string, rule: Hl7FieldRule): void {
  const [segName, fieldText, compText] = path.split('.') as [string, string, string | undefined];
  const fieldNo = Number(fieldText);
  const compNo = compText === undefined ? undefined : Number(compText);
  const field = segment.fields[fieldNo];
  const where = () => `${input.pathOf(segment)}.${fieldNo}${compNo === undefined ? '' : `.${compNo}`}`;
  const name = () => fieldName(input, segName, fieldNo, compNo);
  const profile = `profile ${input.profile.name}`;
  if (!hasValue(field, compNo)) {
    const at = where();
    if (rule.usage === 'R') add(input, 'REQUIRED_FIELD_MISSING', at, `${describeField(at, name())} is required by ${profile} (${input.label}) but is empty.`, 'error', MISSING_VALUE);
    else if (rule.usage === 'RE') add(input, 'RECOMMENDED_FIELD_EMPTY', at, `${describeField(at, name())} should be sent when known (${profile}, usage RE) but is empty.`, 'warning');
    return;
  }
  if (rule.usage === 'X') {
    const at = where();
    add(input, 'WITHDRAWN_FIELD_PRESENT', at, `${describeField(at, name())} is not supported by ${profile} (usage X) but has a value.`);
    return;
  }
  const reps = field?.length ?? 0;
  if (rule.maxRepetitions !== undefined && rule.maxRepetitions !== '*' && reps > rule.maxRepetitions) {
    const at = where();
    add(input, 'TOO_MANY_REPETITIONS', at, `${describeField(at, name())} may repeat at most ${rule.maxRepetitions} time(s) under ${profile} but has ${reps}.`, 'error', {
      expected: `at most ${rule.maxRepetitions} repetition(s)`,
      actual: `${reps} repetitions`,
    });
  }
  // Usage and repetition rules need no text; only length, fixed-value and value-set rules read each repetition's.
  if (rule.maxLength === undefined && rule.fixed === undefined && rule.valueSet === undefined) return;
  const allowed = rule.valueSet ? valueSetOf(rule as Hl7FieldRule & { valueSet: string[] }) : undefined;
  for (const rep of field ?? []) {
    const value = repetitionText(rep, compNo, input.message.delimiters);
    if (value === '') continue;
    if (rule.maxLength !== undefined && value.length > rule.maxLength) {
      const at = where();
      add(input, 'FIELD_TOO_LONG', at, `${describeField(at, name())} is ${value.length} characters long; ${profile} allows at most ${rule.maxLength}.`, 'error', {
        expected: `at most ${rule.maxLength} characters`,
        actual: `${value.length} characters`,
      });
    }
    if (rule.fixed !== undefined && value !== rule.fixed) {
      const at = where();
      add(input, 'CONSTRAINT_FAILED', at, `${describeField(at, name())} must be "${rule.fixed}" under ${profile} but is "${excerpt(value)}".`, 'error', {
        expected: actualValue(rule.fixed),
        actual: actualValue(value),
      });
    }
    if (allowed && !allowed.has(value)) {
      const at = where();
      add(input, 'VALUE_NOT_IN_VALUE_SET', at, `${describeField(at, name())} value "${excerpt(value)}" is not in the value set of ${profile} (${rule.valueSet?.join(', ')}).`, 'error', {
        expected: expectedCodes(rule.valueSet ?? []),
        actual: actualValue(value),
      });
    }
  }
}

/** Checks a message against a profile, reporting into `input.issues`. */
export function checkProfile(input: ProfileCheckInput): void {
  const { profile, message } = input;
  const type = `${message.segments[0]?.fields[9]?.[0]?.[0]?.[0] ?? ''}^${message.segments[0]?.fields[9]?.[0]?.[1]?.[0] ?? ''}`;
  if (profile.messageTypes.length > 0 && !profile.messageTypes.some((t) => t === type || t === type.split('^')[0])) {
    add(input, 'CONSTRAINT_FAILED', 'MSH.9', `MSH.9 (Message Type) ${type} is not one of the message types of profile ${profile.name} (${profile.messageTypes.join(', ')}).`);
    return;
  }
  const bySegment = new Map<string, Hl7Segment[]>();
  for (const segment of message.segments) {
    const list = bySegment.get(segment.name);
    if (list) list.push(segment);
    else bySegment.set(segment.name, [segment]);
  }
  for (const [name, rule] of profile.segments) {
    const present = bySegment.get(name) ?? [];
    const min = rule.min ?? (rule.usage === 'R' ? 1 : 0);
    const max = rule.max === '*' ? Number.POSITIVE_INFINITY : (rule.max ?? Number.POSITIVE_INFINITY);
    if (rule.usage === 'X' && present.length > 0) {
      add(input, 'SEGMENT_UNEXPECTED', input.pathOf(present[0] as Hl7Segment), `Segment ${name} is not supported by profile ${profile.name} (usage X) but occurs ${present.length} time(s).`);
    } else if (present.length < min) {
      add(input, 'SEGMENT_MISSING', name, `Segment ${name} is required by profile ${profile.name} (at least ${min}) but occurs ${present.length} time(s).`);
    } else if (present.length > max) {
      add(input, 'TOO_MANY_REPETITIONS', input.pathOf(present[max] as Hl7Segment), `Segment ${name} may occur at most ${max} time(s) under profile ${profile.name} but occurs ${present.length} times.`);
    }
  }
  for (const [path, rule] of profile.fields) {
    const segments = bySegment.get(path.slice(0, 3)) ?? [];
    for (const segment of segments) checkFieldRule(input, segment, path, rule);
  }
}
