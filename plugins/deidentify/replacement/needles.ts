/**
 * Needles: original identifying values looked for in any text, case- and punctuation-insensitively, whole words only.
 *
 * Text is read as words (runs of letters and digits, lower-cased, accents dropped). A needle is the concatenation of
 * its own words (`Roe, Jane` -> `roejane`; `(555) 555-2004` -> `5555552004`; `1961-06-15` and `19610615` are the same
 * needle). An occurrence is a run of consecutive words of the text whose concatenation equals a needle, where the
 * words are separated only by soft punctuation (blanks, `- . , ( ) / ' _`, at most three characters): so `ROE, JANE`
 * holds the needles `Jane` and `Roe`, `555-555-2004` holds `5555552004`, and `Janet` does not hold `Jane`. Structural
 * delimiters (`| ^ ~ & \ < > " = : ; { } [ ]`, line ends) always end an occurrence, so a match never spans two HL7
 * fields or two JSON strings.
 *
 * Ignored needles (too short or too common to mean anything): fewer than 3 letters or digits once normalised, digits
 * only and fewer than 4 of them, or a single common word of {@link COMMON_WORDS} (titles, suffixes, sexes, street
 * kinds, yes/no). Needles longer than {@link MAX_NEEDLE_CHARS} normalised characters are cut to their words' limit
 * (free text is never a needle as a whole; its words are found by the recognisers instead).
 *
 * The scan is a single pass over the text's words; from each word it extends only while the concatenation is a
 * prefix of some needle, so the work is at most the text's words times the longest needle (bounded).
 */

/** Longest needle kept, in normalised characters. */
export const MAX_NEEDLE_CHARS = 120;

/** Single words never treated as needles: they occur everywhere and identify no one. */
export const COMMON_WORDS: ReadonlySet<string> = new Set([
  'the', 'and', 'for', 'not', 'mrs', 'miss', 'mister', 'doctor', 'phd', 'rn', 'jr', 'sr', 'iii', 'md', 'male', 'female', 'unknown', 'other',
  'none', 'null', 'true', 'false', 'yes', 'home', 'work', 'street', 'avenue', 'ave', 'road', 'lane', 'drive', 'apt', 'suite', 'usa', 'test',
  'patient', 'text', 'note', 'notes', 'value', 'name', 'date', 'code', 'type', 'system', 'family', 'given', 'phone', 'email', 'mobile',
]);

/** Where a needle occurs in a text (UTF-16 offsets, end exclusive). */
export interface NeedleSpan {
  start: number;
  end: number;
}

const ASCII_ACCENTS = /[^\x00-\x7f]/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARKS = /\p{M}/gu;

function isWordChar(code: number, char: string): boolean {
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return LETTER_OR_DIGIT.test(char);
}

/** ASCII letters and digits, by character code (one array read per character). */
const ASCII_WORD = new Uint8Array(128);
for (let code = 0; code < 128; code++) ASCII_WORD[code] = (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ? 1 : 0;

/** {@link isWordChar} of the character at `index` of `text` (no one-character string is made for ASCII). */
function isWordAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return ASCII_WORD[code] === 1;
  return LETTER_OR_DIGIT.test(text[index]!);
}

/**
 * Prefixes shorter than this many characters are kept exactly; a longer run is tested by its head of this length
 * and the longest needle sharing it, so adding a needle costs a few short keys whatever its length.
 */
const PREFIX_CHARS = 4;

/** Soft separators between the words of one occurrence. */
function isSoftGap(text: string, from: number, to: number): boolean {
  if (to - from > 3) return false;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    // space, tab, ' ( ) , - . / _
    if (!(code === 32 || code === 9 || code === 39 || code === 40 || code === 41 || code === 44 || code === 45 || code === 46 || code === 47 || code === 95)) return false;
  }
  return true;
}

function normaliseWord(word: string): string {
  const lower = word.toLowerCase();
  return ASCII_ACCENTS.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}

/** {@link normaliseWord} of `text` from `start` to `end`: a word of ASCII digits and small letters is only sliced. */
function normaliseWordAt(text: string, start: number, end: number): string {
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code > 122 || (code >= 65 && code <= 90)) return normaliseWord(text.slice(start, end));
  }
  return text.slice(start, end);
}

/** The words of a text with their offsets. */
export interface Words {
  starts: number[];
  ends: number[];
  norms: string[];
}

/** Splits `text` into words (runs of letters and digits) with their normalised forms. */
export function wordsOf(text: string): Words {
  const starts: number[] = [];
  const ends: number[] = [];
  const norms: string[] = [];
  let start = -1;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 32;
    const word = index < text.length && isWordChar(code, text[index]!);
    if (word && start < 0) start = index;
    else if (!word && start >= 0) {
      starts.push(start);
      ends.push(index);
      norms.push(normaliseWord(text.slice(start, index)));
      start = -1;
    }
  }
  return { starts, ends, norms };
}

/** The normalised form of a needle (its words concatenated), or undefined when the needle is ignored by the rule above. */
export function normaliseNeedle(value: string): string | undefined {
  // Runs of letters and digits are sliced whole (no string built a character at a time) and lower-cased once.
  let joined = '';
  let count = 0;
  let runStart = -1;
  let words = 0;
  let digitsOnly = true;
  let upper = false;
  let ascii = true;
  let index = 0;
  for (; index < value.length && count < MAX_NEEDLE_CHARS; index++) {
    const code = value.charCodeAt(index);
    if (code >= 128) {
      ascii = false;
      break;
    }
    const digit = code >= 48 && code <= 57;
    const capital = code >= 65 && code <= 90;
    const letter = capital || (code >= 97 && code <= 122);
    if (digit || letter) {
      if (runStart < 0) {
        runStart = index;
        words++;
      }
      count++;
      if (letter) digitsOnly = false;
      if (capital) upper = true;
    } else if (runStart >= 0) {
      joined += value.slice(runStart, index);
      runStart = -1;
    }
  }
  if (ascii && runStart >= 0) joined += value.slice(runStart, index);
  if (upper) joined = joined.toLowerCase();
  if (!ascii) {
    const { norms } = wordsOf(value);
    joined = '';
    for (const norm of norms) {
      if (joined.length + norm.length > MAX_NEEDLE_CHARS) break;
      joined += norm;
    }
    words = norms.length;
    digitsOnly = /^\d+$/.test(joined);
  }
  if (joined.length < 3) return undefined;
  if (words === 1 && COMMON_WORDS.has(joined)) return undefined;
  if (digitsOnly && joined.length < 4) return undefined;
  return joined;
}

/** A string of one to three characters as one number (two bytes a character), for a set of numbers. */
function prefixKey(text: string): number {
  let key = 0;
  for (let index = 0; index < text.length; index++) key = key * 65_536 + text.charCodeAt(index);
  return key;
}

/**
 * A set of needles prepared for scanning many texts: the normalised needles and every prefix of them (the scan
 * extends a run of words only while it is a prefix). Each needle carries a payload (its replacement, for instance).
 */
export class NeedleSet<T> {
  private readonly targets = new Map<string, T>();
  /**
   * The first one, two and three characters of every needle as numbers ({@link prefixKey}): a word starting
   * otherwise is skipped unread, and a short run of words grows only while it is such a prefix.
   */
  private readonly prefixes = new Set<number>();
  /** The first {@link PREFIX_CHARS} characters of every longer needle, with the longest needle length sharing them. */
  private readonly heads = new Map<string, number>();

  /** Adds a needle; the first payload given for a normalised needle is kept. Returns false for an ignored needle. */
  add(value: string, payload: T): boolean {
    const norm = normaliseNeedle(value);
    if (norm === undefined) return false;
    this.addNormalised(norm, payload);
    return true;
  }

  /** Adds a needle already normalised by {@link normaliseNeedle}; false when it was there already (its payload kept). */
  addNormalised(norm: string, payload: T): boolean {
    if (this.targets.has(norm)) return false;
    this.targets.set(norm, payload);
    const exact = Math.min(norm.length, PREFIX_CHARS);
    let key = 0;
    for (let length = 1; length < exact; length++) {
      key = key * 65_536 + norm.charCodeAt(length - 1);
      this.prefixes.add(key);
    }
    if (norm.length > PREFIX_CHARS) {
      const head = norm.slice(0, PREFIX_CHARS);
      if ((this.heads.get(head) ?? 0) < norm.length) this.heads.set(head, norm.length);
    }
    return true;
  }

  /** Whether a word starting at `at` (ASCII) could begin a needle; non-ASCII words always could (accents fold). */
  private couldStart(text: string, at: number, end: number): boolean {
    let first = text.charCodeAt(at);
    if (first >= 128) return true;
    if (first >= 65 && first <= 90) first += 32;
    if (end - at === 1) return this.prefixes.has(first);
    let second = text.charCodeAt(at + 1);
    if (second >= 128) return true;
    if (second >= 65 && second <= 90) second += 32;
    return this.prefixes.has(first * 65_536 + second);
  }

  /**
   * Whether a run of words reading `joined` could still grow into a needle: exactly while it is short, and for a
   * longer run while some needle starting like it is longer still (the exact match is checked at every step anyway).
   */
  private couldGrow(joined: string): boolean {
    if (joined.length < PREFIX_CHARS) return this.prefixes.has(prefixKey(joined));
    return (this.heads.get(joined.length === PREFIX_CHARS ? joined : joined.slice(0, PREFIX_CHARS)) ?? 0) > joined.length;
  }

  /** Number of distinct needles. */
  get size(): number {
    return this.targets.size;
  }

  /** Every occurrence in `text`, left to right, longest first at each start, never overlapping. */
  scan(text: string): Array<NeedleSpan & { payload: T }> {
    const found: Array<NeedleSpan & { payload: T }> = [];
    if (this.targets.size === 0 || text.length === 0) return found;
    // Words are found in one pass; a word is read (sliced, lower-cased) only when it could start a needle, and the
    // words after it only while their concatenation is a prefix of one.
    let index = 0;
    while (index < text.length) {
      while (index < text.length && !isWordAt(text, index)) index++;
      if (index >= text.length) break;
      const start = index;
      while (index < text.length && isWordAt(text, index)) index++;
      if (!this.couldStart(text, start, index)) continue;
      let joined = normaliseWordAt(text, start, index);
      let best = -1;
      let payload: T | undefined;
      let wordEnd = index;
      for (;;) {
        const hit = this.targets.get(joined);
        if (hit !== undefined) {
          best = wordEnd;
          payload = hit;
        }
        if (!this.couldGrow(joined)) break;
        let next = wordEnd;
        while (next < text.length && !isWordAt(text, next)) next++;
        if (next >= text.length || !isSoftGap(text, wordEnd, next)) break;
        let nextEnd = next;
        while (nextEnd < text.length && isWordAt(text, nextEnd)) nextEnd++;
        joined += normaliseWordAt(text, next, nextEnd);
        wordEnd = nextEnd;
      }
      if (best >= 0) {
        found.push({ start, end: best, payload: payload as T });
        index = best;
      }
    }
    return found;
  }
}

/**
 * Where any of `needles` occurs in `text` (see the module comment for the rule). Needles too short or too common are
 * ignored; the result is empty when none is left.
 */
export function findNeedles(text: string, needles: readonly string[]): NeedleSpan[] {
  const set = new NeedleSet<true>();
  for (const needle of needles) set.add(needle, true);
  return set.scan(text).map(({ start, end }) => ({ start, end }));
}

/** Applies the letter case of `occurrence` (all upper, all lower, or as given) to `replacement`. */
function caseLike(occurrence: string, replacement: string): string {
  if (occurrence.length > 1 && occurrence === occurrence.toUpperCase() && occurrence !== occurrence.toLowerCase()) return replacement.toUpperCase();
  if (occurrence === occurrence.toLowerCase() && occurrence !== occurrence.toUpperCase()) return replacement.toLowerCase();
  // Capitalised words (`Roe`, `Jane Roe`): the replacement's words capitalised the same way.
  if (/^\p{Lu}\p{Ll}*(?:[^\p{L}]+\p{Lu}\p{Ll}*)*$/u.test(occurrence)) return replacement.toLowerCase().replace(/(^|[^\p{L}])(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
  return replacement;
}

/**
 * The replacement written over one occurrence: when the occurrence and the replacement have as many letters and
 * digits, the replacement's are laid into the occurrence's places (its punctuation kept: `06/15/1961` stays a date
 * written with slashes, `(555) 555-2004` a phone with its brackets); otherwise the replacement in the occurrence's case.
 */
export function fitReplacement(occurrence: string, replacement: string): string {
  const chars = replacement.replace(/[^\p{L}\p{N}]/gu, '');
  let count = 0;
  for (let index = 0; index < occurrence.length; index++) if (isWordChar(occurrence.charCodeAt(index), occurrence[index]!)) count++;
  if (count !== chars.length || count === 0) return caseLike(occurrence, replacement);
  let out = '';
  let next = 0;
  for (let index = 0; index < occurrence.length; index++) {
    const char = occurrence[index]!;
    if (!isWordChar(char.charCodeAt(0), char)) {
      out += char;
      continue;
    }
    const made = chars[next++]!;
    out += char === char.toUpperCase() && char !== char.toLowerCase() ? made.toUpperCase() : char === char.toLowerCase() && char !== char.toUpperCase() ? made.toLowerCase() : made;
  }
  return out;
}

/**
 * `text` with every occurrence of a needle of `set` replaced by its payload (fitted to the occurrence), each
 * replacement passed through `escape` (the format's escaping: XML entities, HL7 escapes) before it is written.
 * `onReplace` is told of each replacement (for the report).
 */
export function replaceNeedles(text: string, set: NeedleSet<string>, escape: (value: string) => string = (value) => value, onReplace?: () => void): string {
  const spans = set.scan(text);
  if (spans.length === 0) return text;
  let out = '';
  let last = 0;
  for (const span of spans) {
    out += text.slice(last, span.start) + escape(fitReplacement(text.slice(span.start, span.end), span.payload));
    last = span.end;
    onReplace?.();
  }
  return out + text.slice(last);
}
