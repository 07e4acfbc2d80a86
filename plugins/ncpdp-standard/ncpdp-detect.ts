/**
 * Recognises NCPDP content without parsing it in full: SCRIPT is XML whose root element is `Message` (more sure
 * with the SCRIPT namespace or a version attribute); Telecommunication D.0 opens with a fixed-width header
 * (request: 6-digit BIN then the version; response: the version first) and carries field/segment separators; a
 * Batch Standard file opens with STX and its transmission header record `00`.
 */
import { looksLikeNcpdpBatch } from './ncpdp-batch.ts';
import { SCRIPT_NAMESPACE } from './script-definitions.ts';
import { firstSeparatorIndex, looksLikeResponseHeader, SEGMENT_ID_FIELD } from './telecom-d0-parser.ts';

/** Which NCPDP family a text belongs to, if any. */
export type NcpdpFormat = 'script' | 'telecom';

// A DOCTYPE is recognised here only so that validation can refuse it with a clear PARSE_ERROR (XXE, entity bombs).
const ROOT_MESSAGE =
  /^(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:[A-Za-z_][\w.-]*:)?Message[\s>/]/;

/** The NCPDP family of the content and the confidence (0..1) that it is one. */
export function detectNcpdpFormat(content: string): { format?: NcpdpFormat; confidence: number } {
  let text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (text.startsWith('\x02')) text = text.slice(1);
  const head = text.slice(0, 4096).trimStart();
  if (head.startsWith('<')) {
    if (!ROOT_MESSAGE.test(head)) return { confidence: 0 };
    if (head.includes(SCRIPT_NAMESPACE)) return { format: 'script', confidence: 0.95 };
    if (/<(?:\w+:)?Message\b[^>]*\b(?:version|TransactionVersion|TransactionDomain)\s*=/.test(head)) return { format: 'script', confidence: 0.9 };
    if (/<(?:\w+:)?(?:NewRx|RxRenewalRequest|CancelRx|RxChangeRequest|Status|Error|Verify|RxFill)\b/.test(head)) return { format: 'script', confidence: 0.85 };
    return { format: 'script', confidence: 0.6 };
  }
  const separators = firstSeparatorIndex(head) !== -1;
  if (/^\d{6}[A-Z0-9]{2}(?:B[1-3]|E1|N[1-3]|P[1-4]|C[1-3]|S[1-3])/.test(head) && (separators || /AM\d\d/.test(head))) {
    return { format: 'telecom', confidence: head.slice(6, 8) === 'D0' ? 0.95 : 0.7 };
  }
  if (looksLikeResponseHeader(head) && separators && /(?:B[1-3]|E1)/.test(head.slice(2, 4))) {
    return { format: 'telecom', confidence: head.startsWith('D0') ? 0.9 : 0.6 };
  }
  if (separators && SEGMENT_ID_FIELD.test(head)) return { format: 'telecom', confidence: 0.55 };
  return { confidence: 0 };
}

/** Confidence 0..1 that the content is NCPDP: a SCRIPT or Telecommunication message, or a Batch Standard file. */
export function detectNcpdp(content: string): number {
  if (looksLikeNcpdpBatch(content)) return 0.97;
  return detectNcpdpFormat(content).confidence;
}
