/**
 * A single-pass XML well-formedness check (used by kernel/lib/xml/safe-xml.ts), which also enforces the nesting limit. It covers
 * what a message without a DTD can get wrong: tag and attribute syntax, quoting, repeated attributes, matching
 * and closing of elements, one root, text outside the root, entity references (only the five predefined ones and
 * character references exist without a DTD), comments, CDATA and processing instructions. It runs before the
 * parser so that malformed input is reported with its line and column and never reaches it; it replaces a
 * separate validation pass that cost as much as parsing itself.
 */

/** Verdict of {@link checkWellFormed}: ok, or the first problem and its character offset. */
export type WellFormedness = { ok: true } | { ok: false; offset: number; reason: string };

const OK: WellFormedness = { ok: true };
const PREDEFINED_ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58 || c > 127;
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const fail = (offset: number, reason: string): WellFormedness => ({ ok: false, offset, reason });

/**
 * Longest element or attribute name accepted. SCRIPT's longest names are under 60 characters; refusing longer ones
 * keeps every path and sentence that names an element short, whatever a sender makes up.
 */
export const MAX_XML_NAME_CHARS = 128;

/** The problem of a name from `start` to `end` that is too long, or undefined. */
function nameTooLong(start: number, end: number, what: string): WellFormedness | undefined {
  return end - start > MAX_XML_NAME_CHARS
    ? fail(start, `${what} is ${end - start} characters long; names of at most ${MAX_XML_NAME_CHARS} are accepted`)
    : undefined;
}

/** Checks every `&` in [from, to); returns the problem or undefined. */
function checkReferences(text: string, from: number, to: number): WellFormedness | undefined {
  let amp = text.indexOf('&', from);
  while (amp !== -1 && amp < to) {
    const semi = text.indexOf(';', amp);
    if (semi === -1 || semi > to || semi - amp > 12) return fail(amp, 'a "&" must start an entity reference such as &amp;');
    const ref = text.slice(amp + 1, semi);
    if (!PREDEFINED_ENTITIES.has(ref) && !/^#(?:\d{1,7}|x[0-9a-fA-F]{1,6})$/.test(ref)) return fail(amp, `&${ref}; is not a predefined entity or character reference`);
    amp = text.indexOf('&', semi + 1);
  }
  return undefined;
}

/** Checks that `text` is one well-formed XML document nested at most `maxDepth` elements deep. */
export function checkWellFormed(text: string, maxDepth: number): WellFormedness {
  const n = text.length;
  const stack: string[] = [];
  let rootSeen = false;
  let rootClosed = false;
  let i = 0;
  if (text.startsWith('<?xml', 0) && isSpace(text.charCodeAt(5))) {
    const end = text.indexOf('?>', 5);
    if (end === -1) return fail(0, 'the XML declaration is not closed with "?>"');
    i = end + 2;
  }
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c !== 60 /* < */) {
      const lt = text.indexOf('<', i);
      const end = lt === -1 ? n : lt;
      if (stack.length === 0) {
        for (let k = i; k < end; k++) {
          if (!isSpace(text.charCodeAt(k))) return fail(k, rootClosed ? 'text follows the root element' : 'text comes before the root element');
        }
      } else {
        const problem = checkReferences(text, i, end);
        if (problem) return problem;
      }
      i = end;
      continue;
    }
    const next = text.charCodeAt(i + 1);
    if (next === 33 /* ! */) {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end === -1) return fail(i, 'a comment is not closed with "-->"');
        i = end + 3;
        continue;
      }
      if (text.startsWith('<![CDATA[', i)) {
        if (stack.length === 0) return fail(i, 'a CDATA section lies outside the root element');
        const end = text.indexOf(']]>', i + 9);
        if (end === -1) return fail(i, 'a CDATA section is not closed with "]]>"');
        i = end + 3;
        continue;
      }
      return fail(i, 'markup declarations ("<!") are not allowed here');
    }
    if (next === 63 /* ? */) {
      if (text.startsWith('<?xml', i) && isSpace(text.charCodeAt(i + 5))) return fail(i, 'the XML declaration must come first');
      const end = text.indexOf('?>', i + 2);
      if (end === -1) return fail(i, 'a processing instruction is not closed with "?>"');
      i = end + 2;
      continue;
    }
    if (next === 47 /* / */) {
      let j = i + 2;
      if (!isNameStart(text.charCodeAt(j))) return fail(j, 'a closing tag needs a name right after "</"');
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      const long = nameTooLong(i + 2, j, 'a closing tag name');
      if (long) return long;
      const name = text.slice(i + 2, j);
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 62) return fail(j, `the closing tag </${name}> is not closed with ">"`);
      const open = stack.pop();
      if (open === undefined) return fail(i, `the closing tag </${name}> has no opening tag`);
      if (open !== name) return fail(i, `the closing tag </${name}> does not match the open element <${open}>`);
      if (stack.length === 0) rootClosed = true;
      i = j + 1;
      continue;
    }
    if (rootClosed) return fail(i, 'a second root element follows the first');
    let j = i + 1;
    if (!isNameStart(text.charCodeAt(j))) return fail(j, 'a tag needs a name right after "<"');
    while (j < n && isNameChar(text.charCodeAt(j))) j++;
    const longName = nameTooLong(i + 1, j, 'an element name');
    if (longName) return longName;
    const name = text.slice(i + 1, j);
    const attributes = new Set<string>();
    for (;;) {
      const before = j;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (j >= n) return fail(i, `the tag <${name}> is not closed`);
      const d = text.charCodeAt(j);
      if (d === 62 /* > */) {
        stack.push(name);
        if (stack.length > maxDepth) return fail(i, `elements are nested deeper than ${maxDepth} levels`);
        j++;
        break;
      }
      if (d === 47 && text.charCodeAt(j + 1) === 62) {
        if (stack.length === 0) rootClosed = true;
        j += 2;
        break;
      }
      if (j === before) return fail(j, `attributes of <${name}> must be separated by white space`);
      if (!isNameStart(d)) return fail(j, `unexpected character "${text[j]}" in the tag <${name}>`);
      const start = j;
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      const longAttribute = nameTooLong(start, j, 'an attribute name');
      if (longAttribute) return longAttribute;
      const attribute = text.slice(start, j);
      if (attributes.has(attribute)) return fail(start, `the attribute ${attribute} is repeated in <${name}>`);
      attributes.add(attribute);
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 61 /* = */) return fail(j, `the attribute ${attribute} of <${name}> has no value`);
      j++;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      const quote = text.charCodeAt(j);
      if (quote !== 34 && quote !== 39) return fail(j, `the value of the attribute ${attribute} must be quoted`);
      const end = text.indexOf(quote === 34 ? '"' : "'", j + 1);
      if (end === -1) return fail(j, `the value of the attribute ${attribute} is not closed`);
      const lt = text.indexOf('<', j + 1);
      if (lt !== -1 && lt < end) return fail(lt, `"<" is not allowed in the value of the attribute ${attribute}`);
      const problem = checkReferences(text, j + 1, end);
      if (problem) return problem;
      j = end + 1;
    }
    rootSeen = true;
    i = j;
  }
  if (stack.length > 0) return fail(n, `the element <${stack[stack.length - 1]}> is not closed`);
  if (!rootSeen) return fail(0, 'there is no root element');
  return OK;
}
