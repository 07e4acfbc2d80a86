/**
 * Validation rules of Telecommunication D.0: header values, segment placement (transmission level before the
 * first group separator, transaction level inside groups), segments and fields required per transaction code,
 * field formats (digits, CCYYMMDD dates, signed overpunch amounts, implied-decimal quantities, widths, code lists)
 * and identifier check digits (NPI, DEA) and NDC shape where a qualifier says which identifier a field holds.
 * Paths: `Header.A1` for header fields, `AM07.D2` for segment fields, `AM07[2].D2` for the second claim of a
 * transmission, `AM21.FB[2]` for a field's second repetition.
 */
import type { TelecomMessage, TelecomSegment } from '../ncpdp-model.ts';
import { fieldPaths, segmentPaths } from '../ncpdp-paths.ts';
import type { IssueCollector } from '../ncpdp-issues.ts';
import { deaProblem, npiProblem } from '../../identifiers/api.ts';
import { decodeOverpunch } from './overpunch.ts';
import { isCcyymmdd } from '../value-formats.ts';
import {
  DEA_QUALIFIER,
  HEADER_RESPONSE_STATUS,
  NDC_QUALIFIER,
  NPI_QUALIFIER,
  REQUEST_HEADER,
  REQUIRED_FIELDS,
  REQUIRED_REQUEST_SEGMENTS,
  REQUIRED_RESPONSE_SEGMENTS,
  RESPONSE_HEADER,
  SERVICE_PROVIDER_ID_QUALIFIERS,
  TELECOM_FIELDS,
  TELECOM_SEGMENTS,
  TELECOM_VERSION,
  TRANSACTION_CODES,
  type TelecomFormat,
} from './telecom-d0-definitions.ts';
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue, expectedCodes } from '../../../kernel/standards/issue-detail.ts';

/** Header field value by id. */
export function headerValue(message: TelecomMessage, id: string): string {
  return message.header.find((field) => field.id === id)?.value ?? '';
}

/** Display label of a field: `402-D2 (Prescription/Service Reference Number)`. */
export function fieldLabel(id: string): string {
  const def = TELECOM_FIELDS.get(id) ?? [...REQUEST_HEADER, ...RESPONSE_HEADER].find((h) => h.id === id);
  return def ? `${def.number}-${id} (${def.name})` : `field ${id}`;
}

/** Display label of a segment: `AM07 (Claim)`. */
export function segmentLabel(id: string): string {
  const def = TELECOM_SEGMENTS.get(id);
  return def ? `AM${id} (${def.name})` : `AM${id}`;
}

const FORMAT_WORDS: Record<TelecomFormat, string> = {
  N: 'digits only',
  A: 'text',
  D: 'a date CCYYMMDD',
  S: 'a signed overpunch amount (digits ending in { or A-I for positive, } or J-R for negative)',
  Q: 'a quantity of digits with three implied decimals (30000 = 30.000)',
};

/** Checks one value against a format and width; reports under `path`. */
function checkFormat(path: string, label: string, value: string, format: TelecomFormat, maxLength: number, issues: IssueCollector): void {
  if (value.length > maxLength) {
    issues.strictError(path, 'FIELD_TOO_LONG', `${label} is ${value.length} characters long; the maximum is ${maxLength}.`, {
      expected: `at most ${maxLength} characters`,
      actual: `${value.length} characters`,
    });
  }
  switch (format) {
    case 'N':
    case 'Q':
      if (!/^\d+$/.test(value)) {
        issues.error(path, 'INVALID_DATA_TYPE', `${label} must be ${FORMAT_WORDS[format]}, but is "${excerpt(value)}".`, { expected: FORMAT_WORDS[format], actual: actualValue(value) });
      }
      break;
    case 'D':
      if (!isCcyymmdd(value)) {
        issues.error(path, 'INVALID_DATE', `${label} must be a real date written CCYYMMDD, but is "${excerpt(value)}".`, { expected: 'a real date, CCYYMMDD', actual: actualValue(value) });
      }
      break;
    case 'S':
      if (/^\d+$/.test(value)) {
        issues.strictError(path, 'INVALID_DATA_TYPE', `${label} is "${excerpt(value)}" without a sign character; D.0 amounts end in an overpunch character ({, A-I, }, J-R).`);
      } else if (!decodeOverpunch(value)) {
        issues.error(path, 'INVALID_DATA_TYPE', `${label} must be ${FORMAT_WORDS.S}, but is "${excerpt(value)}".`, { expected: FORMAT_WORDS.S, actual: actualValue(value) });
      }
      break;
    case 'A':
      break;
  }
}

function checkIdentifier(path: string, label: string, value: string, kind: 'NPI' | 'DEA' | 'NDC', issues: IssueCollector): void {
  if (kind === 'NDC') {
    if (!/^\d{11}$/.test(value)) issues.error(path, 'INVALID_DATA_TYPE', `${label} is qualified as an NDC (03) and must be 11 digits without hyphens, but is "${excerpt(value)}".`);
    return;
  }
  const problem = kind === 'NPI' ? npiProblem(value) : deaProblem(value);
  if (problem === 'format') {
    const shape = kind === 'NPI' ? '10 digits' : 'two letters and seven digits';
    issues.error(path, 'INVALID_DATA_TYPE', `${label} is qualified as a ${kind} and must be ${shape}, but is "${excerpt(value)}".`);
  } else if (problem === 'check-digit') {
    issues.error(path, 'INVALID_CHECK_DIGIT', `${label} "${excerpt(value)}" is not a valid ${kind}: its check digit does not match.`);
  }
}

function validateHeader(message: TelecomMessage, issues: IssueCollector): void {
  const layout = message.direction === 'response' ? RESPONSE_HEADER : REQUEST_HEADER;
  for (const def of layout) {
    const field = message.header.find((f) => f.id === def.id);
    const path = `Header.${def.id}`;
    const label = `${def.number}-${def.id} (${def.name})`;
    if (field?.present && def.blankAllowed) continue;
    if (!field?.present || field.value.trim() === '') {
      issues.error(path, 'REQUIRED_FIELD_MISSING', `${label} is required in the ${message.direction} header but ${field?.present ? 'is blank' : 'is missing: the header ends before it'}.`);
      continue;
    }
    if (def.format !== 'A') checkFormat(path, label, field.value, def.format, def.length, issues);
  }
  const version = headerValue(message, 'A2');
  if (version && version !== TELECOM_VERSION) {
    issues.error('Header.A2', 'UNSUPPORTED_VERSION', `102-A2 (Version/Release Number) is "${excerpt(version)}"; only Telecommunication ${TELECOM_VERSION} is supported.`);
  }
  const code = headerValue(message, 'A3');
  if (code && !(code in TRANSACTION_CODES)) {
    issues.error('Header.A3', 'VALUE_NOT_IN_TABLE', `103-A3 (Transaction Code) "${excerpt(code)}" is not a D.0 transaction code (B1, B2, B3, E1, ...).`, {
      expected: expectedCodes(Object.keys(TRANSACTION_CODES)),
      actual: actualValue(code),
    });
  }
  const count = headerValue(message, 'A9');
  if (/^\d$/.test(count) && (Number(count) < 1 || Number(count) > 4)) {
    issues.error('Header.A9', 'VALUE_NOT_IN_TABLE', `109-A9 (Transaction Count) is ${count}; a transmission holds 1 to 4 transactions.`);
  }
  const qualifier = headerValue(message, 'B2');
  if (qualifier && !(qualifier in SERVICE_PROVIDER_ID_QUALIFIERS)) {
    issues.error('Header.B2', 'VALUE_NOT_IN_TABLE', `202-B2 (Service Provider ID Qualifier) "${excerpt(qualifier)}" is not one of ${Object.keys(SERVICE_PROVIDER_ID_QUALIFIERS).join(', ')}.`, {
      expected: expectedCodes(Object.keys(SERVICE_PROVIDER_ID_QUALIFIERS)),
      actual: actualValue(qualifier),
    });
  }
  const providerId = headerValue(message, 'B1');
  if (qualifier === NPI_QUALIFIER && providerId) checkIdentifier('Header.B1', fieldLabel('B1'), providerId, 'NPI', issues);
  if (message.direction === 'response') {
    const status = headerValue(message, 'F1');
    if (status && !(status in HEADER_RESPONSE_STATUS)) {
      issues.error('Header.F1', 'VALUE_NOT_IN_TABLE', `501-F1 (Header Response Status) "${excerpt(status)}" is not A (accepted) or R (rejected).`);
    }
  }
}

/** Identifier kinds implied by qualifier fields of the same segment. */
function qualifiedIdentifiers(segment: TelecomSegment): Map<string, 'NPI' | 'DEA' | 'NDC'> {
  const value = (id: string) => segment.fields.find((f) => f.id === id)?.value;
  const kinds = new Map<string, 'NPI' | 'DEA' | 'NDC'>();
  if (value('EZ') === NPI_QUALIFIER) kinds.set('DB', 'NPI');
  if (value('EZ') === DEA_QUALIFIER) kinds.set('DB', 'DEA');
  if (value('EY') === NPI_QUALIFIER) kinds.set('E9', 'NPI');
  if (value('E1') === NDC_QUALIFIER) kinds.set('D7', 'NDC');
  return kinds;
}

function validateSegment(segment: TelecomSegment, path: string, message: TelecomMessage, issues: IssueCollector): void {
  const def = TELECOM_SEGMENTS.get(segment.id);
  if (!segment.id) {
    issues.error(path, 'SEGMENT_ID_MISSING', `A segment at offset ${segment.offset} does not start with 111-AM (Segment Identification), so its fields cannot be placed.`);
    return;
  }
  if (!def) {
    issues.strictError(path, 'UNKNOWN_ELEMENT', `Segment ${path} is not a D.0 segment this validator knows; its fields were not checked.`);
    return;
  }
  if (def.direction !== message.direction) {
    issues.error(path, 'SEGMENT_UNEXPECTED', `${segmentLabel(segment.id)} is a ${def.direction} segment but this transmission is a ${message.direction}.`);
    return;
  }
  const kinds = qualifiedIdentifiers(segment);
  const paths = fieldPaths(path, segment.fields);
  const seen = new Set<string>();
  segment.fields.forEach((field, index) => {
    const fieldPath = paths[index];
    const fieldDef = TELECOM_FIELDS.get(field.id);
    if (!fieldDef || !def.fields.includes(field.id)) {
      const known = fieldDef ? `${fieldLabel(field.id)} is a D.0 field but does not belong in ${segmentLabel(segment.id)}` : `Field id "${excerpt(field.id)}" is not a D.0 field this validator knows`;
      issues.strictError(fieldPath, 'UNKNOWN_ELEMENT', `${known}.`);
      return;
    }
    if (seen.has(field.id) && !def.repeating.includes(field.id)) {
      issues.error(fieldPath, 'TOO_MANY_REPETITIONS', `${fieldLabel(field.id)} occurs more than once in ${segmentLabel(segment.id)}, where it does not repeat.`);
    }
    seen.add(field.id);
    const label = fieldLabel(field.id);
    if (field.value === '') {
      issues.error(fieldPath, 'REQUIRED_FIELD_MISSING', `${label} is sent without a value; leave a field out rather than send it empty.`);
      return;
    }
    checkFormat(fieldPath, label, field.value, fieldDef.format, fieldDef.maxLength, issues);
    if (fieldDef.table && !(field.value in fieldDef.table)) {
      issues.error(fieldPath, 'VALUE_NOT_IN_TABLE', `${label} "${excerpt(field.value)}" is not one of ${Object.keys(fieldDef.table).join(', ')}.`);
    }
    const kind = kinds.get(field.id);
    if (kind) checkIdentifier(fieldPath, label, field.value, kind, issues);
  });
  const rules = REQUIRED_FIELDS[message.direction === 'response' ? 'response' : headerValue(message, 'A3')]?.[segment.id] ?? [];
  for (const id of rules) {
    if (!seen.has(id)) {
      const what = message.direction === 'response' ? 'a response' : `a ${headerValue(message, 'A3')} ${TRANSACTION_CODES[headerValue(message, 'A3')]?.toLowerCase() ?? ''}`.trimEnd();
      issues.error(`${path}.${id}`, 'REQUIRED_FIELD_MISSING', `${fieldLabel(id)} is required in ${segmentLabel(segment.id)} of ${what}.`);
    }
  }
  if (segment.id === '21' && segment.fields.some((f) => f.id === 'AN' && f.value === 'R') && !seen.has('FB')) {
    issues.error(`${path}.FB`, 'REQUIRED_FIELD_MISSING', `${fieldLabel('FB')} is required when 112-AN (Transaction Response Status) is R (rejected).`);
  }
}

/** Most transaction groups checked: 109-A9 allows four; more are reported once, not checked one by one. */
const MAX_TRANSACTIONS = 4;

/** Transactions of the transmission: the groups, or the whole body when no group separator was sent. */
function transactionGroups(message: TelecomMessage): number[] {
  if (message.groupCount === 0) return [0];
  return Array.from({ length: Math.min(message.groupCount, MAX_TRANSACTIONS) }, (_, i) => i + 1);
}

function validatePlacement(message: TelecomMessage, paths: string[], issues: IssueCollector): void {
  if (message.groupCount === 0) return;
  message.segments.forEach((segment, index) => {
    const def = TELECOM_SEGMENTS.get(segment.id);
    if (!def || def.direction !== message.direction) return;
    if (def.level === 'transmission' && segment.group > 0) {
      issues.error(paths[index], 'SEGMENT_OUT_OF_ORDER', `${segmentLabel(segment.id)} belongs to the transmission level, before the first group separator, but appears inside transaction ${segment.group}.`);
    } else if (def.level === 'transaction' && segment.group === 0) {
      issues.error(paths[index], 'SEGMENT_OUT_OF_ORDER', `${segmentLabel(segment.id)} belongs inside a transaction group (after a group separator 0x1D) but appears before the first one.`);
    }
  });
  if (message.groupCount > MAX_TRANSACTIONS) {
    issues.error('Header', 'TOO_MANY_REPETITIONS', `The transmission holds ${message.groupCount} transaction groups; D.0 allows at most ${MAX_TRANSACTIONS}. Only the first ${MAX_TRANSACTIONS} were checked for required segments.`);
  }
  const count = headerValue(message, 'A9');
  if (/^[1-4]$/.test(count) && Number(count) !== message.groupCount) {
    issues.error('Header.A9', 'CONSTRAINT_FAILED', `109-A9 (Transaction Count) says ${count} but the transmission holds ${message.groupCount} transaction group(s).`);
  }
}

function validateRequiredSegments(message: TelecomMessage, issues: IssueCollector): void {
  const code = headerValue(message, 'A3');
  const required = message.direction === 'response' ? REQUIRED_RESPONSE_SEGMENTS : (REQUIRED_REQUEST_SEGMENTS[code] ?? []);
  const what = message.direction === 'response' ? 'each response transaction' : `a ${code} ${TRANSACTION_CODES[code]?.toLowerCase() ?? ''}`.trimEnd();
  // Without group separators every segment counts as the one transaction's.
  const present = new Set(message.segments.map((s) => `${message.groupCount === 0 ? 0 : s.group}:${s.id}`));
  const anywhere = new Set(message.segments.map((s) => s.id));
  for (const id of required) {
    const def = TELECOM_SEGMENTS.get(id);
    if (!def) continue;
    if (def.level === 'transmission' || message.groupCount === 0) {
      const found = def.level === 'transmission' && message.groupCount > 0 ? present.has(`0:${id}`) || anywhere.has(id) : anywhere.has(id);
      if (!found) issues.error(`AM${id}`, 'SEGMENT_MISSING', `${segmentLabel(id)} is required in ${what} but is missing.`);
      continue;
    }
    for (const group of transactionGroups(message)) {
      if (!present.has(`${group}:${id}`)) {
        const suffix = group === 1 ? '' : `[${group}]`;
        issues.error(`AM${id}${suffix}`, 'SEGMENT_MISSING', `${segmentLabel(id)} is required in ${what} but transaction ${group} has none.`);
      }
    }
  }
}

/** Validates a parsed D.0 transmission into the collector. */
export function validateTelecomD0(message: TelecomMessage, issues: IssueCollector): void {
  validateHeader(message, issues);
  if (headerValue(message, 'A2') !== TELECOM_VERSION) return;
  const paths = segmentPaths(message.segments);
  validatePlacement(message, paths, issues);
  validateRequiredSegments(message, issues);
  message.segments.forEach((segment, index) => {
    validateSegment(segment, paths[index], message, issues);
  });
}
