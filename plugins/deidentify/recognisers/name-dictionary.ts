/**
 * Dictionaries of given and family names for the free-text name recogniser, read once from @faker-js/faker's locale
 * data (English, Spanish, French, German, Italian, Dutch, Polish and Indian English lists: some 9,000 given and 5,000
 * family names, MIT-licensed and already a dependency), lower-cased. Words that are names and also everyday English
 * ({@link EVERYDAY_WORDS}: `May`, `Will`, `Grace`, `White`...) count as names only where the context says so.
 */
import { de, en, en_IN, es, fr, it, nl, pl } from '@faker-js/faker';

/** Names that are common words as well: a name only beside another name or a title. */
export const EVERYDAY_WORDS: ReadonlySet<string> = new Set(
  (
    'will may mark grant bill hope joy faith grace rose june april august summer dean art pat sue ray rich drew chase chance guy ' +
    'white brown green black gray grey king young hall wood hill stone rice price case cook bell lane long little love west north south ' +
    'east day ward small short strong bond march page park wells walker baker miller hunter fisher carter mason parker turner cooper ' +
    'major noble sharp swift frank early gay bush moore more field fields ford gold lee ash ivy iris lily penny sunny dawn eve ' +
    'child children blood heart head liver lung care nurse doctor patient pain rest well good fine normal stable high low free ' +
    'the and for with was his her him she they this that from have has had not but are were been being will would can could ' +
    'should may might must shall page note notes text date time left right side lower upper'
  ).split(' '),
);

type Locale = { person?: { first_name?: unknown; last_name?: unknown } };

function words(list: unknown): string[] {
  if (Array.isArray(list)) return list.filter((item): item is string => typeof item === 'string');
  if (list && typeof list === 'object') return Object.values(list).flatMap((value) => words(value));
  return [];
}

function dictionary(locales: Locale[], key: 'first_name' | 'last_name'): Set<string> {
  const set = new Set<string>();
  for (const locale of locales) {
    for (const word of words(locale.person?.[key])) {
      // Compound names count by their parts (`Mary-Ann`, `van der Berg` gives `berg`).
      for (const part of word.split(/[\s-]+/)) if (part.length >= 2 && /^\p{L}[\p{L}']*$/u.test(part)) set.add(part.toLowerCase());
    }
  }
  return set;
}

let cached: { given: ReadonlySet<string>; family: ReadonlySet<string> } | undefined;

/** The given and family name dictionaries (built on first use). */
export function nameDictionaries(): { given: ReadonlySet<string>; family: ReadonlySet<string> } {
  cached ??= {
    given: dictionary([en, es, fr, de, it, nl, pl, en_IN] as Locale[], 'first_name'),
    family: dictionary([en, es, fr, de, it, nl, pl, en_IN] as Locale[], 'last_name'),
  };
  return cached;
}
