/**
 * City names in free text, by dictionary (city-dictionary.ts) and context, so that a city named only in a note
 * (`lives in Greensboro`, `moved from St. Louis`, `Tulsa, OK`, `Tulsa, Oklahoma`) is found while the same words used
 * otherwise are not. A name from the dictionary, every word of it capitalised, counts as a city when:
 * - a word that introduces a place comes right before it (`in`, `from`, `near`, `to`, `at`, `outside`, `visiting`),
 *   unless it is a single everyday word ({@link EVERYDAY_PLACES}: `Normal`, `Mobile`, `Orange`...), which needs the
 *   next context;
 * - or a state follows it: a comma or blank and a US state or Canadian province abbreviation in capitals (`, NC`),
 *   its full name after a comma (`, North Carolina`), or a ZIP code (`27401`). State names and abbreviations are
 *   faker's `location.state` and `location.state_abbr` lists.
 * The look-up is one map read per capitalised word (no pattern of thousands of names).
 */
import { en, en_CA } from '@faker-js/faker';
import { type CityDictionary, cityDictionary, cityWords } from './city-dictionary.ts';
import { EVERYDAY_WORDS } from './name-dictionary.ts';
import type { Recognised } from './recognised.ts';

/** Words after which a known city name is a place. */
const CUES: ReadonlySet<string> = new Set(['in', 'from', 'near', 'to', 'at', 'outside', 'visiting']);

/**
 * Single-word city names that are everyday words as well (a note says `in Normal range`, `to Mobile unit`): a city
 * only before a state or a ZIP code.
 */
export const EVERYDAY_PLACES: ReadonlySet<string> = new Set([
  ...EVERYDAY_WORDS,
  ...'normal mobile orange reading spring temple mission enterprise university independence paradise surprise sunrise delta trail hope mentor asbestos highland providence vista plantation sparks liberty commerce union center central'.split(
    ' ',
  ),
]);

const WORD = /\p{L}[\p{L}'’.-]*/gu;
/** Characters cut from the end of a word: full stop, apostrophes, hyphen. */
const TRAILING: ReadonlySet<number> = new Set([46, 39, 0x2019, 45]);

interface Token {
  start: number;
  end: number;
  norm: string;
  capital: boolean;
}

interface States {
  abbreviations: ReadonlySet<string>;
  /** Full names by their first word (lower case), each as its words. */
  names: CityDictionary;
}

let states: States | undefined;

/** US state and Canadian province names and abbreviations, from faker's locale data (read once). */
function stateData(): States {
  if (states) return states;
  const abbreviations = new Set<string>();
  const names = new Map<string, string[][]>();
  for (const locale of [en, en_CA] as Array<{ location?: { state?: unknown; state_abbr?: unknown } }>) {
    const abbr = locale.location?.state_abbr;
    if (Array.isArray(abbr)) for (const item of abbr) if (typeof item === 'string' && /^[A-Z]{2}$/.test(item)) abbreviations.add(item);
    const full = locale.location?.state;
    if (Array.isArray(full)) {
      for (const item of full) {
        if (typeof item !== 'string') continue;
        const words = cityWords(item);
        if (words.length === 0) continue;
        let entries = names.get(words[0]!);
        if (!entries) names.set(words[0]!, (entries = []));
        entries.push(words);
      }
    }
  }
  for (const entries of names.values()) entries.sort((a, b) => b.length - a.length);
  states = { abbreviations, names };
  return states;
}

function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  WORD.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = WORD.exec(text)) !== null) {
    const raw = match[0];
    let length = raw.length;
    while (length > 0 && TRAILING.has(raw.charCodeAt(length - 1))) length--;
    const word = raw.slice(0, length);
    const first = word[0] ?? '';
    tokens.push({ start: match.index, end: match.index + length, norm: word.toLowerCase(), capital: first !== first.toLowerCase() });
  }
  return tokens;
}

/** Whether the text between two words of one name is a blank or two, after an optional full stop (`St. Louis`). */
function isNameGap(text: string, from: number, to: number): boolean {
  let index = from;
  if (text.charCodeAt(index) === 46) index++;
  if (to - index < 1 || to - index > 2) return false;
  for (; index < to; index++) if (text.charCodeAt(index) !== 32) return false;
  return true;
}

/** Whether `text[from, to)` is one or two blanks (no punctuation between a cue and a name). */
function isBlankGap(text: string, from: number, to: number): boolean {
  if (to - from < 1 || to - from > 2) return false;
  for (let index = from; index < to; index++) if (text.charCodeAt(index) !== 32) return false;
  return true;
}

/**
 * How many tokens from `at` spell one of `entries` (capitalised, joined by blanks), the longest first; 0 when none.
 */
function matchAt(text: string, tokens: readonly Token[], at: number, entries: ReadonlyArray<readonly string[]>, capitalised: boolean): number {
  for (const words of entries) {
    if (at + words.length > tokens.length) continue;
    let ok = true;
    for (let offset = 0; ok && offset < words.length; offset++) {
      const token = tokens[at + offset]!;
      if (token.norm !== words[offset] || (capitalised && !token.capital)) ok = false;
      else if (offset > 0 && !isNameGap(text, tokens[at + offset - 1]!.end, token.start)) ok = false;
    }
    if (ok) return words.length;
  }
  return 0;
}

const ZIP_AFTER = /^,?[ ]{1,2}\d{5}(?:-\d{4})?(?!\d)/;

/** Whether a state (abbreviation, full name after a comma) or a ZIP code follows the name ending at token `last`. */
function stateFollows(text: string, tokens: readonly Token[], last: number): boolean {
  const end = tokens[last]!.end;
  if (ZIP_AFTER.test(text.slice(end, end + 14))) return true;
  const next = tokens[last + 1];
  if (!next) return false;
  const gap = text.slice(end, next.start);
  if (gap !== ', ' && gap !== ' ' && gap !== ',' && gap !== ',  ') return false;
  const { abbreviations, names } = stateData();
  const word = text.slice(next.start, next.end);
  // Tokens end before a letter never: a digit right after the abbreviation (`NC1`) makes it something else.
  if (word.length === 2 && abbreviations.has(word)) return next.end >= text.length || !/\d/.test(text[next.end]!);
  const entries = names.get(next.norm);
  return gap.startsWith(',') && entries !== undefined && matchAt(text, tokens, last + 1, entries, true) > 0;
}

/** Known city names in `text`, where the context says they are places (see the module comment). */
export function recogniseCities(text: string): Recognised[] {
  const found: Recognised[] = [];
  const dictionary = cityDictionary();
  const tokens = tokensOf(text);
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (!token.capital) continue;
    const entries = dictionary.get(token.norm);
    if (!entries) continue;
    const length = matchAt(text, tokens, index, entries, true);
    if (length === 0) continue;
    const last = index + length - 1;
    const previous = tokens[index - 1];
    const cued = previous !== undefined && CUES.has(previous.norm) && isBlankGap(text, previous.end, token.start);
    const everyday = length === 1 && EVERYDAY_PLACES.has(token.norm);
    if ((cued && !everyday) || stateFollows(text, tokens, last)) {
      found.push({ start: token.start, end: tokens[last]!.end, kind: 'city' });
      index = last;
    }
  }
  return found;
}
