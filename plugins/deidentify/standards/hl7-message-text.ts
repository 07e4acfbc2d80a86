/**
 * The text of HL7 v2 messages as the de-identification walks it: lines kept with their terminators, the MSH found
 * after a BOM or MLLP start block, each message's own delimiters and version, and HL7 escape sequences read and written.
 */

/** The five delimiters of one message, from its MSH-1 and MSH-2. */
export interface Delimiters {
  field: string;
  component: string;
  repetition: string;
  escape: string;
  subcomponent: string;
}

/** Escapers made so far, by the five delimiters (nearly every feed uses `|^~\\&`: one escaper serves them all). */
const ESCAPERS = new Map<string, (value: string) => string>();

/** A value with the message's delimiters written as HL7 escape sequences. */
export function escapeFor(delimiters: Delimiters): (value: string) => string {
  const { field, component, repetition, escape, subcomponent } = delimiters;
  const key = field + component + repetition + escape + subcomponent;
  let escaper = ESCAPERS.get(key);
  if (escaper) return escaper;
  const names: Record<string, string> = { [escape]: 'E', [field]: 'F', [component]: 'S', [repetition]: 'R', [subcomponent]: 'T' };
  const special = new RegExp(`[${[...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}\\r\\n]`);
  escaper = (value) => {
    // Most replacements hold no delimiter: they are written as they are.
    if (!special.test(value)) return value;
    let out = '';
    for (const char of value) out += names[char] !== undefined ? `${escape}${names[char]}${escape}` : char === '\r' || char === '\n' ? ' ' : char;
    return out;
  };
  if (ESCAPERS.size >= 1_000) ESCAPERS.clear();
  ESCAPERS.set(key, escaper);
  return escaper;
}

/** Splits text into lines, keeping each terminator with its line so the output can be rebuilt byte for byte. */
export function splitLines(text: string): Array<{ body: string; end: string }> {
  const lines: Array<{ body: string; end: string }> = [];
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 13 || char === 10) {
      const end = char === 13 && text.charCodeAt(index + 1) === 10 ? '\r\n' : text[index]!;
      lines.push({ body: text.slice(start, index), end });
      index += end.length - 1;
      start = index + 1;
    }
  }
  if (start < text.length) lines.push({ body: text.slice(start), end: '' });
  return lines;
}

/** The MSH position in a line (after a BOM or MLLP start block), or -1. Only the line's first five characters are read. */
export function mshAt(line: string): number {
  for (let at = 0; at <= 2; at++) if (line.startsWith('MSH', at)) return line.length > at + 3 ? at : -1;
  return -1;
}

/** An encoding character, or `fallback` when it is missing, the field separator, a letter, a digit or a blank. */
function usable(char: string | undefined, field: string, fallback: string): string {
  return char && char !== field && !/[A-Za-z0-9\s]/.test(char) ? char : fallback;
}

/** The delimiters of a message from its MSH line (MSH-1 and MSH-2), each missing or unusable one defaulted. */
export function delimitersOf(msh: string): Delimiters {
  const field = msh[3] ?? '|';
  const encoding = msh.slice(4, msh.indexOf(field, 4) >= 0 ? msh.indexOf(field, 4) : undefined);
  return {
    field,
    component: usable(encoding[0], field, '^'),
    repetition: usable(encoding[1], field, '~'),
    escape: usable(encoding[2], field, '\\'),
    subcomponent: usable(encoding[3], field, '&'),
  };
}

/** MSH-12's version id (its first component, trimmed), or undefined; MSH is read up to that field only. */
export function versionOf(msh: string, delimiters: Delimiters): string | undefined {
  let at = 0;
  for (let field = 0; field < 11; field++) {
    at = msh.indexOf(delimiters.field, at);
    if (at < 0) return undefined;
    at++;
  }
  let end = msh.indexOf(delimiters.field, at);
  if (end < 0) end = msh.length;
  const component = msh.indexOf(delimiters.component, at);
  if (component >= 0 && component < end) end = component;
  return msh.slice(at, end).trim() || undefined;
}

/** Removes HL7 escape sequences (`\F\`, `\X0D\`...) from a value before it is pseudonymised. */
export function unescaped(value: string, escape: string): string {
  if (!value.includes(escape)) return value;
  let out = '';
  for (let index = 0; index < value.length; index++) {
    if (value[index] === escape) {
      const close = value.indexOf(escape, index + 1);
      if (close > index) {
        index = close;
        continue;
      }
    }
    out += value[index];
  }
  return out;
}
