/**
 * Fixes that answer a finding itself, from what its check expected (kernel/standards/issue-detail.ts): a bad code names the
 * allowed codes instead of a generic "translate to the value set", an impossible date says it is impossible instead of
 * repeating the format, a segment out of order is moved rather than added, and an NCPDP fix names the element (the
 * SCRIPT element path, or the D.0 field id and name) and the rule it broke. The value found is not repeated (it can
 * be a patient's birth date).
 */
import type { FieldDescription } from '../../../kernel/standards-registry.ts';

/** A fix as the knowledge base writes one, before it is numbered. */
export interface FindingFix {
  side: 'sender' | 'receiver';
  field: string;
  action: string;
}

/** The finding a fix answers, as the triage engine knows it. */
export interface FixableFinding {
  /** Standard id (`hl7`, `fhir`, `ncpdp`). */
  standard: string;
  /** The knowledge entry's category. */
  category: string;
  code: string;
  /** The finding's (normalised) path. */
  field: string;
  expected?: string;
  actual?: string;
  /** The message type, for structure fixes (`ADT^A01`). */
  messageType?: string | null;
  /** What the standard says of the field (its name, optionality, and for D.0 the field id). */
  description?: FieldDescription;
}

/** D.0 field id (`304-C4`) as the NCPDP definitions write it at the start of a field's description. */
const D0_FIELD_ID = /^(\d{3}-[A-Z0-9]{2})\b/;

/** How an NCPDP fix names its element: `D.0 field 304-C4 (Date of Birth) in segment AM01`, or a SCRIPT path. */
export function ncpdpElementLabel(field: string, description: FieldDescription | undefined): string {
  const id = description?.description ? D0_FIELD_ID.exec(description.description)?.[1] : undefined;
  if (id) {
    const segment = field.split('.')[0] ?? '';
    const where = segment === 'Header' ? 'the transaction header' : `segment ${segment}`;
    return `D.0 field ${id} (${description?.name ?? field}) in ${where}`;
  }
  const batch = /^record\[(\d+)\]\.(\w+)$/.exec(field);
  if (batch) return `batch record ${batch[1]} field ${batch[2]}`;
  const path = field.replace(/\./g, '/');
  const last = field.split('.').at(-1) ?? field;
  const name = description?.name && description.name.toLowerCase() !== last.toLowerCase() ? ` (${description.name})` : '';
  return `SCRIPT element ${path}${name}`;
}

/** The rule an NCPDP element broke, in words, from the finding's expected value and the element's definition. */
function ncpdpRule(finding: FixableFinding): string {
  const { code, expected, description } = finding;
  if (code === 'REQUIRED_FIELD_MISSING') {
    const optionality = description?.optionality && description.optionality !== 'situational' ? description.optionality : 'required';
    return `${optionality}${expected && expected !== 'a value' ? `; it must hold ${expected}` : ''}`;
  }
  if (expected?.startsWith('one of ')) return `its code list: ${expected}`;
  if (expected) return `it must be ${expected}`;
  return description?.dataType ? `its format: ${description.dataType}` : 'its definition';
}

/** The sender's fix for an NCPDP finding: the element and its rule. */
function ncpdpFix(finding: FixableFinding): FindingFix | undefined {
  if (finding.field === '' || (finding.expected === undefined && finding.description === undefined)) return undefined;
  const label = ncpdpElementLabel(finding.field, finding.description);
  const rule = ncpdpRule(finding);
  const action =
    finding.code === 'REQUIRED_FIELD_MISSING'
      ? `Send ${label} with a value (rule: ${rule}).`
      : finding.code === 'INVALID_DATE'
        ? `${label} holds an impossible date or time; send the real one (rule: ${rule}).`
        : finding.code === 'FIELD_TOO_LONG'
          ? `Shorten ${label} (rule: ${rule}).`
          : `Correct ${label} (rule: ${rule}).`;
  return { side: 'sender', field: finding.field, action };
}

/** The sender's fix for a segment present but out of its place: move it (adding another would not help). */
function moveFix(finding: FixableFinding): FindingFix {
  const segment = finding.field.split(/[.[]/)[0] || finding.field;
  const now = finding.actual ? ` (now ${finding.actual})` : '';
  const structure = finding.messageType ? `the ${finding.messageType} structure` : 'the message structure';
  const place = finding.expected ? `: ${finding.expected}` : '';
  return {
    side: 'sender',
    field: finding.field,
    action: `Move ${segment}${now} to its place in ${structure}${place}. The segment is there, only out of order: do not add another.`,
  };
}

/**
 * The sender's fix for a finding, or undefined when the knowledge base's own fix says as much. It answers this very
 * finding: the allowed codes, the impossible date, the segment to move, the NCPDP element and its rule.
 */
export function findingFix(finding: FixableFinding): FindingFix | undefined {
  const { category, code, field, expected } = finding;
  if (field === '') return undefined;
  if (code === 'SEGMENT_OUT_OF_ORDER' && finding.standard === 'hl7') return moveFix(finding);
  if (finding.standard === 'ncpdp') return ncpdpFix(finding);
  if (expected === undefined) return undefined;
  if (category === 'wrong-code' && expected.startsWith('one of ')) {
    return { side: 'sender', field, action: `Send in ${field} one of the codes it allows: ${expected.slice('one of '.length)}.` };
  }
  if (category === 'date-time-format' && code === 'INVALID_DATE' && expected.startsWith('a real ')) {
    const format = expected.replace(/^a real [^,]*,\s*/, '');
    return {
      side: 'sender',
      field,
      action: `${field} holds an impossible date or time (no such day, month or hour exists); send the real moment, written ${format}.`,
    };
  }
  return undefined;
}

/** Binding strength of a described FHIR element (`... (required)`), if its description names one. */
export function bindingStrength(description: FieldDescription | undefined): string | undefined {
  return description?.table ? /\((required|extensible|preferred|example)\)\s*$/.exec(description.table)?.[1] : undefined;
}
