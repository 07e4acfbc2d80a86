/**
 * Checks of a Narrative `div` (https://hl7.org/fhir/R4/narrative.html): it must be well-formed XHTML whose root is
 * a `div` in the XHTML namespace, and it may hold only the basic formatting elements the specification lists
 * (invariant txt-1): no scripts, forms, frames, objects or embedded documents, no event-handler attributes
 * (`onclick`...), no `javascript:` URLs. A receiver shows the narrative to people, in a browser more often than
 * not, so active content in it is an attack on whoever opens the record.
 *
 * One scan of the text with a stack of open elements: no regular expression sees the markup, and the time is linear
 * in its length whatever it holds (deep nesting included).
 */

/** The XHTML namespace a narrative's root `div` declares. */
export const XHTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/**
 * What is wrong with a narrative: `malformed` (not XHTML), `active` (executable content), `disallowed` (txt-1),
 * `empty` (txt-2: no non-whitespace text).
 */
export type NarrativeProblemKind = 'malformed' | 'active' | 'disallowed' | 'empty';

/** One problem of a narrative, with a sentence saying what and where (a character offset in the div). */
export interface NarrativeProblem {
  kind: NarrativeProblemKind;
  reason: string;
}

/**
 * Elements txt-1 allows: the HTML 4.0 formatting elements of chapters 7-11 and 15 (not the objects of 13, forms of
 * 17, scripts of 18 or frames of 16), `a` and `img`.
 */
const ALLOWED_ELEMENTS: ReadonlySet<string> = new Set([
  'a', 'abbr', 'acronym', 'address', 'area', 'b', 'bdo', 'big', 'blockquote', 'br', 'caption', 'center', 'cite', 'code',
  'col', 'colgroup', 'dd', 'del', 'dfn', 'div', 'dl', 'dt', 'em', 'font', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr',
  'i', 'img', 'ins', 'kbd', 'li', 'map', 'ol', 'p', 'pre', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong',
  'sub', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'tt', 'u', 'ul', 'var',
]);

/** Elements that run code or load other documents: active content in any mode. */
const ACTIVE_ELEMENTS: ReadonlySet<string> = new Set([
  'script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'input', 'button', 'select',
  'textarea', 'base', 'link', 'meta', 'svg', 'math', 'template', 'noscript', 'portal', 'audio', 'video',
  'source', 'track', 'html', 'head', 'body', 'param',
]);

/** Attributes that hold a URL a browser follows or loads. */
const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href', 'src', 'longdesc', 'usemap', 'cite', 'action', 'formaction', 'background', 'lowsrc', 'dynsrc', 'xlink:href', 'data', 'poster',
]);

/** URL schemes that run code when followed. */
const ACTIVE_SCHEMES = ['javascript:', 'vbscript:', 'livescript:', 'data:text/html'];

/** The entities XML defines; any other named entity (`&nbsp;`) makes the XHTML ill-formed. */
const XML_ENTITIES: ReadonlySet<string> = new Set(['lt', 'gt', 'amp', 'quot', 'apos']);

/** Most problems of one kind described in one sentence (the count of all of them is given). */
const EXAMPLES_PER_KIND = 3;

function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 58 || code > 127;
}

function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57) || code === 45 || code === 46;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** A short printable excerpt for sentences. */
function shown(text: string): string {
  const cut = text.length > 40 ? `${text.slice(0, 40)}...` : text;
  return cut.replace(/[\u0000-\u001f\u007f]/g, '?');
}

/** Decodes character references in an attribute value, for judging a URL (as a browser reads it). */
function decodeReferences(value: string): string {
  if (!value.includes('&')) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (ch !== '&') {
      out += ch;
      continue;
    }
    const end = value.indexOf(';', i);
    if (end < 0 || end - i > 12) {
      out += ch;
      continue;
    }
    const name = value.slice(i + 1, end);
    let code: number | undefined;
    if (name.startsWith('#x') || name.startsWith('#X')) code = Number.parseInt(name.slice(2), 16);
    else if (name.startsWith('#')) code = Number.parseInt(name.slice(1), 10);
    const decoded = code !== undefined && Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
    if (decoded === undefined) {
      out += ch;
      continue;
    }
    out += decoded;
    i = end;
  }
  return out;
}

/** True when a URL runs code when followed (`javascript:`, with the blanks and case a browser ignores). */
function isActiveUrl(value: string): boolean {
  let compact = '';
  // A scheme comes first: blanks and references padding it out are bounded by what a browser would read as one.
  const decoded = decodeReferences(value.slice(0, 1000));
  for (let i = 0; i < decoded.length && compact.length < 20; i++) {
    const code = decoded.charCodeAt(i);
    // Browsers drop control characters and blanks inside the scheme.
    if (code > 32) compact += decoded[i]?.toLowerCase();
  }
  return ACTIVE_SCHEMES.some((scheme) => compact.startsWith(scheme));
}

/** Collects problems of one kind: a few examples and the count. */
class ProblemTally {
  private readonly examples = new Map<NarrativeProblemKind, string[]>();
  private readonly counts = new Map<NarrativeProblemKind, number>();

  note(kind: NarrativeProblemKind, example: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    const list = this.examples.get(kind) ?? [];
    if (list.length < EXAMPLES_PER_KIND) list.push(example);
    this.examples.set(kind, list);
  }

  problems(): NarrativeProblem[] {
    const out: NarrativeProblem[] = [];
    for (const kind of ['active', 'disallowed'] as const) {
      const count = this.counts.get(kind) ?? 0;
      if (count === 0) continue;
      const examples = (this.examples.get(kind) ?? []).join('; ');
      const more = count > EXAMPLES_PER_KIND ? ` (${count} in all)` : '';
      out.push({
        kind,
        reason:
          kind === 'active'
            ? `holds active content that a receiver displaying it would run: ${examples}${more}`
            : `holds elements the narrative may not contain (txt-1 allows only basic XHTML formatting, a and img): ${examples}${more}`,
      });
    }
    return out;
  }
}

/** Scanner state over one div; the tally is made on the first problem (most narratives have none). */
interface Scan {
  text: string;
  pos: number;
  tally: ProblemTally | undefined;
}

function note(scan: Scan, kind: NarrativeProblemKind, example: string): void {
  (scan.tally ??= new ProblemTally()).note(kind, example);
}

/** The attributes of a tag that has none (shared: never written to). */
const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();

function malformed(reason: string, at: number): NarrativeProblem {
  return { kind: 'malformed', reason: `is not well-formed XHTML: ${reason} at character ${at + 1}` };
}

/** Checks character and entity references in text or an attribute value; returns the bad one or undefined. */
function badReference(text: string, from: number, to: number): { at: number; what: string } | undefined {
  // Character by character within the range: indexOf could run past `to` on every call and make the scan quadratic.
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) !== 38 /* & */) continue;
    let end = i + 1;
    while (end < to && end - i <= 12 && text.charCodeAt(end) !== 59 /* ; */) end++;
    if (end >= to || text.charCodeAt(end) !== 59) return { at: i, what: 'a "&" that starts no entity or character reference' };
    const name = text.slice(i + 1, end);
    if (/^#[0-9]{1,7}$/.test(name) || /^#x[0-9a-fA-F]{1,6}$/.test(name)) continue;
    if (!XML_ENTITIES.has(name)) return { at: i, what: `the entity "&${shown(name)};", which XML does not define (write it as a character reference)` };
  }
  return undefined;
}

/** Reads a name at the scan position; empty when none starts there. */
function readName(scan: Scan): string {
  const start = scan.pos;
  if (start >= scan.text.length || !isNameStart(scan.text.charCodeAt(start))) return '';
  let end = start + 1;
  while (end < scan.text.length && isNameChar(scan.text.charCodeAt(end))) end++;
  scan.pos = end;
  return scan.text.slice(start, end);
}

function skipSpaces(scan: Scan): void {
  while (scan.pos < scan.text.length && isSpace(scan.text.charCodeAt(scan.pos))) scan.pos++;
}

/** The local part of a possibly prefixed name, lower-cased for comparison with the HTML lists. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return (colon < 0 ? name : name.slice(colon + 1)).toLowerCase();
}

/**
 * Reads the attributes of a start tag up to `>` or `/>`. Returns the attributes, whether the tag closed itself, or
 * the malformation found.
 */
function readAttributes(scan: Scan, element: string): { attributes: ReadonlyMap<string, string>; selfClosing: boolean } | NarrativeProblem {
  let attributes: Map<string, string> | undefined;
  const text = scan.text;
  for (;;) {
    const before = scan.pos;
    skipSpaces(scan);
    const code = text.charCodeAt(scan.pos);
    if (code === 62 /* > */) {
      scan.pos++;
      return { attributes: attributes ?? NO_ATTRIBUTES, selfClosing: false };
    }
    if (code === 47 /* / */ && text.charCodeAt(scan.pos + 1) === 62) {
      scan.pos += 2;
      return { attributes: attributes ?? NO_ATTRIBUTES, selfClosing: true };
    }
    if (scan.pos >= text.length) return malformed(`the start tag <${shown(element)}> is not closed`, before);
    if (scan.pos === before) return malformed(`attributes of <${shown(element)}> must be separated by spaces`, scan.pos);
    const nameAt = scan.pos;
    const name = readName(scan);
    if (name === '') return malformed(`unexpected "${shown(text.charAt(scan.pos))}" in the start tag <${shown(element)}>`, scan.pos);
    skipSpaces(scan);
    if (text.charCodeAt(scan.pos) !== 61 /* = */) return malformed(`the attribute ${shown(name)} of <${shown(element)}> has no quoted value`, nameAt);
    scan.pos++;
    skipSpaces(scan);
    const quote = text.charAt(scan.pos);
    if (quote !== '"' && quote !== "'") return malformed(`the value of the attribute ${shown(name)} is not quoted`, scan.pos);
    const end = text.indexOf(quote, scan.pos + 1);
    if (end < 0) return malformed(`the value of the attribute ${shown(name)} is not closed`, scan.pos);
    for (let i = scan.pos + 1; i < end; i++) {
      if (text.charCodeAt(i) === 60 /* < */) return malformed(`the value of the attribute ${shown(name)} holds "<"`, i);
    }
    const bad = badReference(text, scan.pos + 1, end);
    if (bad) return malformed(`the value of the attribute ${shown(name)} holds ${bad.what}`, bad.at);
    attributes ??= new Map();
    if (attributes.has(name)) return malformed(`the attribute ${shown(name)} occurs twice on <${shown(element)}>`, nameAt);
    attributes.set(name, text.slice(scan.pos + 1, end));
    scan.pos = end + 1;
  }
}

/** Judges an element's name and attributes (its well-formedness is already known). */
function judgeElement(scan: Scan, name: string, attributes: ReadonlyMap<string, string>): void {
  const local = localName(name);
  if (ACTIVE_ELEMENTS.has(local)) note(scan, 'active', `a <${shown(name)}> element`);
  else if (!ALLOWED_ELEMENTS.has(local)) note(scan, 'disallowed', `<${shown(name)}>`);
  for (const [attribute, value] of attributes) {
    const attributeLocal = attribute.toLowerCase();
    if (attributeLocal.startsWith('on')) note(scan, 'active', `the event-handler attribute ${shown(attribute)} on <${shown(name)}>`);
    else if (URL_ATTRIBUTES.has(attributeLocal) && isActiveUrl(value)) note(scan, 'active', `a script URL in ${shown(attribute)} of <${shown(name)}> ("${shown(value)}")`);
  }
}

/**
 * Checks a narrative div as FHIR JSON carries it (an XHTML string). Returns its problems: at most one `malformed`
 * (the first malformation stops the scan), else one sentence each for active and disallowed content.
 */
export function checkNarrativeDiv(div: string): NarrativeProblem[] {
  const text = div.trim();
  const scan: Scan = { text, pos: 0, tally: undefined };
  if (!text.startsWith('<div')) return [malformed('the narrative must be one <div> element', 0)];
  const open: string[] = [];
  let rootClosed = false;
  // txt-2: the narrative SHALL have some non-whitespace content (text, text in a CDATA section, or an image).
  let hasText = false;
  while (scan.pos < text.length) {
    const lt = text.indexOf('<', scan.pos);
    const textEnd = lt < 0 ? text.length : lt;
    if (textEnd > scan.pos) {
      if (rootClosed && text.slice(scan.pos, textEnd).trim() !== '') return [malformed('content follows the closing </div>', scan.pos)];
      const bad = badReference(text, scan.pos, textEnd);
      if (bad) return [malformed(`the text holds ${bad.what}`, bad.at)];
      if (open.length === 0 && !rootClosed) return [malformed('the narrative must be one <div> element', scan.pos)];
      if (!hasText && !rootClosed) hasText = text.slice(scan.pos, textEnd).trim() !== '';
    }
    if (lt < 0) break;
    scan.pos = lt;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) return [malformed('a comment is not closed', lt)];
      scan.pos = end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      if (open.length === 0) return [malformed('a CDATA section lies outside the <div>', lt)];
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) return [malformed('a CDATA section is not closed', lt)];
      if (!hasText) hasText = text.slice(lt + 9, end).trim() !== '';
      scan.pos = end + 3;
      continue;
    }
    if (text.startsWith('<!', lt) || text.startsWith('<?', lt)) return [malformed('declarations and processing instructions are not allowed in a narrative', lt)];
    if (rootClosed) return [malformed('content follows the closing </div>', lt)];
    if (text.charCodeAt(lt + 1) === 47 /* / */) {
      scan.pos = lt + 2;
      const name = readName(scan);
      skipSpaces(scan);
      if (name === '' || text.charCodeAt(scan.pos) !== 62) return [malformed('an end tag is malformed', lt)];
      scan.pos++;
      const expected = open.pop();
      if (expected !== name) {
        return [malformed(expected === undefined ? `the end tag </${shown(name)}> closes nothing` : `the end tag </${shown(name)}> does not close <${shown(expected)}>`, lt)];
      }
      if (open.length === 0) rootClosed = true;
      continue;
    }
    scan.pos = lt + 1;
    const name = readName(scan);
    if (name === '') return [malformed('a "<" that starts no element (write it as &lt;)', lt)];
    const read = readAttributes(scan, name);
    if ('kind' in read) return [read];
    if (open.length === 0) {
      if (name !== 'div') return [malformed('the narrative must be one <div> element', lt)];
      if (read.attributes.get('xmlns') !== XHTML_NAMESPACE) {
        return [malformed(`the <div> must declare the XHTML namespace (xmlns="${XHTML_NAMESPACE}")`, lt)];
      }
    }
    judgeElement(scan, name, read.attributes);
    // An image is content too (HL7's validator accepts a narrative that is one <img>).
    if (!hasText && name.toLowerCase() === 'img') hasText = true;
    if (read.selfClosing) {
      if (open.length === 0) rootClosed = true;
    } else open.push(name);
  }
  if (open.length > 0) return [malformed(`the element <${shown(open[open.length - 1] as string)}> is not closed`, text.length - 1)];
  const problems = scan.tally?.problems() ?? [];
  // Said only of a narrative with nothing else wrong: an empty div holding active content has one problem that matters.
  if (!hasText && problems.length === 0) problems.push({ kind: 'empty', reason: 'has no text (txt-2: the narrative SHALL have some non-whitespace content)' });
  return problems;
}
