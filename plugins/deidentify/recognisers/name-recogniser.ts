/**
 * Person names in free text, by dictionary and context (name-dictionary.ts):
 * - a given name followed by a name (optionally with a middle initial between): `Jane Roe`, `JANE Q ROE`;
 * - a family name, a comma and a given name: `Roe, Jane`;
 * - one to three capitalised words after a title (`Mr.`, `Mrs`, `Dr`, `Nurse`...): `Dr. Aaron Attend`;
 * - any capitalised word that is not everyday English after a relation or title (`mother Thistlewood`, `wife Ann
 *   Roe`, `patient`, `named`), and the word right after it;
 * - a capitalised dictionary name after a word that introduces a person (`spoke with`, `per`, `by`...), and the name
 *   right after it.
 * Everyday words that are also names (`May`, `Will`, `White`) count only inside such a context, never in a pair alone.
 */
import { EVERYDAY_WORDS, nameDictionaries } from './name-dictionary.ts';
import type { Recognised } from './recognised.ts';

const WORD = /\p{L}[\p{L}'’-]*\.?/gu;
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'doctor', 'prof', 'professor', 'nurse', 'rn', 'np', 'pa', 'sister', 'brother', 'father', 'rev']);
/** Words after which a capitalised word is a name even when no dictionary lists it (`mother Thistlewood`). */
const RELATIONS = new Set([
  'patient', 'pt', 'son', 'daughter', 'wife', 'husband', 'mother', 'father', 'mom', 'dad', 'sister', 'brother', 'spouse', 'partner', 'guardian',
  'caregiver', 'aunt', 'uncle', 'grandmother', 'grandfather', 'niece', 'nephew', 'cousin', 'named', 'mr', 'mrs', 'ms', 'miss', 'dr', 'maiden',
]);
const INTRODUCERS = new Set([
  'patient', 'pt', 'son', 'daughter', 'wife', 'husband', 'mother', 'father', 'mom', 'dad', 'sister', 'brother', 'spouse', 'partner', 'friend',
  'caregiver', 'guardian', 'neighbor', 'neighbour', 'called', 'with', 'per', 'by', 'contact', 'named', 'name', 'signed', 'attending', 'resident',
  'physician', 'provider', 'dear', 'cc', 'from', 'to', 'informant', 'aunt', 'uncle', 'grandmother', 'grandfather', 'niece', 'nephew', 'cousin',
]);

interface Token {
  start: number;
  end: number;
  norm: string;
  capital: boolean;
  initial: boolean;
  /** What separates this token from the previous one. */
  gap: string;
}

/** Characters cut from the end of a word: full stop, apostrophes, hyphen. */
const TRAILING: ReadonlySet<number> = new Set([46, 39, 0x2019, 45]);
/** Apostrophes of a possessive `'s`. */
const APOSTROPHES: ReadonlySet<number> = new Set([39, 0x2019]);

/** Whether `gap` is one or two blanks or tabs (the words are joined). */
function isJoinGap(gap: string): boolean {
  if (gap.length < 1 || gap.length > 2) return false;
  for (let index = 0; index < gap.length; index++) {
    const code = gap.charCodeAt(index);
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}

/** Whether `gap` is an optional full stop and one or two spaces (after an initial or a title). */
function isInitialGap(gap: string): boolean {
  const from = gap.charCodeAt(0) === 46 ? 1 : 0;
  const spaces = gap.length - from;
  if (spaces < 1 || spaces > 2) return false;
  for (let index = from; index < gap.length; index++) if (gap.charCodeAt(index) !== 32) return false;
  return true;
}

function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  WORD.lastIndex = 0;
  let match: RegExpExecArray | null;
  let last = 0;
  while ((match = WORD.exec(text)) !== null) {
    const raw = match[0];
    let length = raw.length;
    while (length > 0 && TRAILING.has(raw.charCodeAt(length - 1))) length--;
    const word = length === raw.length ? raw : raw.slice(0, length);
    const first = word[0] ?? '';
    const lower = word.toLowerCase();
    const possessive = lower.length >= 2 && lower.charCodeAt(lower.length - 1) === 115 && APOSTROPHES.has(lower.charCodeAt(lower.length - 2));
    tokens.push({
      start: match.index,
      end: match.index + word.length,
      norm: possessive ? lower.slice(0, -2) : lower,
      capital: first !== first.toLowerCase(),
      initial: word.length === 1,
      gap: text.slice(last, match.index),
    });
    // A full stop after a word belongs to the gap before the next one: a sentence end breaks a name.
    last = match.index + word.length;
  }
  return tokens;
}

type Dictionaries = ReturnType<typeof nameDictionaries>;

/** A capitalised word (not an initial) that a dictionary lists. */
function isName(token: Token | undefined, { given, family }: Dictionaries): boolean {
  return !!token && token.capital && !token.initial && (given.has(token.norm) || family.has(token.norm));
}

/** A name that is not everyday English as well. */
function strong(token: Token | undefined, dictionaries: Dictionaries): boolean {
  return isName(token, dictionaries) && !EVERYDAY_WORDS.has(token!.norm);
}

function joined(token: Token | undefined): boolean {
  return !!token && isJoinGap(token.gap);
}

function afterInitial(token: Token | undefined): boolean {
  return !!token && isInitialGap(token.gap);
}

/** Person names in `text` (each word of a name a span of its own: given or family). */
export function recogniseNames(text: string): Recognised[] {
  const dictionaries = nameDictionaries();
  const { given, family } = dictionaries;
  const tokens = tokensOf(text);
  const kinds = new Map<number, 'givenName' | 'familyName'>();
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    // Given Family, Given I. Family
    if (token.capital && given.has(token.norm) && !token.initial) {
      let family = next;
      let at = index + 1;
      if (next?.initial && next.capital && joined(next) && afterInitial(tokens[index + 2])) {
        family = tokens[index + 2];
        at = index + 2;
      }
      if (family && joined(family) && isName(family, dictionaries) && (strong(token, dictionaries) || strong(family, dictionaries))) {
        kinds.set(index, 'givenName');
        kinds.set(at, 'familyName');
      }
    }
    // Family, Given
    if (isName(token, dictionaries) && family.has(token.norm) && next && /^, ?$/.test(next.gap) && next.capital && given.has(next.norm) && (strong(token, dictionaries) || strong(next, dictionaries))) {
      kinds.set(index, 'familyName');
      kinds.set(index + 1, 'givenName');
    }
    // Title Name [Name [Name]]
    if (TITLES.has(token.norm) && token.capital && next && next.capital && afterInitial(next)) {
      for (let at = index + 1; at <= index + 3 && at < tokens.length; at++) {
        const word = tokens[at]!;
        if (!word.capital || (at > index + 1 && !(joined(word) || (tokens[at - 1]!.initial && afterInitial(word))))) break;
        if (word.initial) continue;
        kinds.set(at, at === index + 1 && given.has(word.norm) ? 'givenName' : 'familyName');
      }
    }
    // mother Thistlewood, wife Mary Roe: after a relation any capitalised word that is not everyday English
    if (RELATIONS.has(token.norm) && next && next.capital && !next.initial && joined(next) && !EVERYDAY_WORDS.has(next.norm) && !kinds.has(index + 1)) {
      kinds.set(index + 1, given.has(next.norm) ? 'givenName' : 'familyName');
      const after = tokens[index + 2];
      if (after && after.capital && !after.initial && joined(after) && !EVERYDAY_WORDS.has(after.norm)) kinds.set(index + 2, 'familyName');
    }
    // patient Jane, wife Mary Roe, spoke with Roe
    if (INTRODUCERS.has(token.norm) && isName(next, dictionaries) && joined(next)) {
      kinds.set(index + 1, given.has(next!.norm) ? 'givenName' : 'familyName');
      const after = tokens[index + 2];
      if (isName(after, dictionaries) && joined(after)) kinds.set(index + 2, 'familyName');
    }
  }
  return [...kinds].map(([index, kind]) => ({ start: tokens[index]!.start, end: tokens[index]!.end, kind }));
}
