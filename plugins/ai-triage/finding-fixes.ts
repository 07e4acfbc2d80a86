/**
 * Fixes that answer a finding itself, from what its check expected (kernel/issue-detail.ts): a bad code names the
 * allowed codes instead of a generic "translate to the value set", an impossible date says it is impossible instead of
 * repeating the format. The value found is not repeated (it can be a patient's birth date).
 */

/** A fix as the knowledge base writes one, before it is numbered. */
export interface FindingFix {
  side: 'sender' | 'receiver';
  field: string;
  action: string;
}

/**
 * The sender's fix for a finding of `category` with this `expected`, or undefined when the knowledge base's own
 * fix says as much. `field` is the finding's path.
 */
export function findingFix(category: string, code: string, field: string, expected: string | undefined): FindingFix | undefined {
  if (expected === undefined || field === '') return undefined;
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
