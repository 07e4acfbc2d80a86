/**
 * Recognises NCPDP content without parsing it in full: SCRIPT is XML whose root element is `Message` (more sure
 * with the SCRIPT namespace or a version attribute); Telecommunication D.0 opens with a fixed-width header
 * (request: 6-digit BIN then the version; response: the version first) and carries field/segment separators; a
 * Batch Standard file opens with STX and its transmission header record `00`.
 */
import { looksLikeNcpdpBatch } from './telecom/ncpdp-batch.ts';
import { SCRIPT_NAMESPACE } from './script/script-definitions.ts';
import { firstSeparatorIndex, looksLikeResponseHeader, SEGMENT_ID_FIELD } from './telecom/telecom-d0-parser.ts';

/** Which NCPDP family a text belongs to, if any. */
export type NcpdpFormat = 'script' | 'telecom';

/** XML white space (what `\s` means between markup). */
function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isXmlSpace(text.charCodeAt(i))) i++;
  return i;
}

function skipComments(text: string, at: number): number {
  let i = at;
  while (text.startsWith('<!--', i)) {
    const end = text.indexOf('-->', i + 4);
    if (end < 0) return -1;
    i = skipSpace(text, end + 3);
  }
  return i;
}

function isNameChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d || code === 0x2e;
}

/**
 * Where the root element's start tag begins when it is `Message` (with any namespace prefix), else -1: an XML
 * declaration, comments and a DOCTYPE may come first (the DOCTYPE is recognised only so that validation can refuse
 * it with a clear PARSE_ERROR: XXE, entity bombs). A scan that moves forward only: a regular expression for the same
 * prolog backtracks exponentially over a run of comments.
 */
export function messageRootStart(text: string): number {
  let i = 0;
  if (text.startsWith('<?xml', 0)) {
    const end = text.indexOf('>', 5);
    if (end < 0 || text[end - 1] !== '?' || end - 1 < 5) return -1;
    i = skipSpace(text, end + 1);
  }
  i = skipComments(text, i);
  if (i >= 0 && text.startsWith('<!DOCTYPE', i)) {
    let j = i + 9;
    while (j < text.length && text[j] !== '>' && text[j] !== '[') j++;
    if (text[j] === '[') {
      const close = text.indexOf(']', j + 1);
      if (close < 0) return -1;
      j = skipSpace(text, close + 1);
    }
    if (text[j] !== '>') return -1;
    i = skipComments(text, skipSpace(text, j + 1));
  }
  if (i < 0 || text[i] !== '<') return -1;
  // An optional namespace prefix: a name followed by a colon.
  let name = i + 1;
  let j = name;
  const first = text.charCodeAt(j);
  if ((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a) || first === 0x5f) {
    while (j < text.length && isNameChar(text.charCodeAt(j))) j++;
    if (text[j] === ':') name = j + 1;
  }
  if (!text.startsWith('Message', name)) return -1;
  const after = text.charCodeAt(name + 7);
  return isXmlSpace(after) || after === 0x3e || after === 0x2f ? i : -1;
}

/** True when the start tag at `start` carries a SCRIPT version or domain attribute. */
function rootDeclaresScript(text: string, start: number): boolean {
  const end = text.indexOf('>', start);
  const tag = text.slice(start, end < 0 ? text.length : end);
  return /\b(?:version|TransactionVersion|TransactionDomain)\s*=/.test(tag);
}

/** The NCPDP family of the content and the confidence (0..1) that it is one. */
export function detectNcpdpFormat(content: string): { format?: NcpdpFormat; confidence: number } {
  let text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (text.startsWith('\x02')) text = text.slice(1);
  const head = text.slice(0, 4096).trimStart();
  if (head.startsWith('<')) {
    const root = messageRootStart(head);
    if (root < 0) return { confidence: 0 };
    if (head.includes(SCRIPT_NAMESPACE)) return { format: 'script', confidence: 0.95 };
    if (rootDeclaresScript(head, root)) return { format: 'script', confidence: 0.9 };
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
