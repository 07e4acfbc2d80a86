/**
 * The city dictionary of the free-text city recogniser, read once from @faker-js/faker's locale data: the
 * `location.city_name` lists of US English, Canadian English and Mexican Spanish (some 1,300 real city names of the
 * places the workbench's standards serve; MIT-licensed and already a dependency). Each name is kept as its words,
 * lower-cased, under its first word, so a look-up costs one map read per capitalised word of the text.
 */
import { en, en_CA, es_MX } from '@faker-js/faker';

type Locale = { location?: { city_name?: unknown } };

/** City names by their first word: each entry the name's words (lower-case), longest names first. */
export type CityDictionary = ReadonlyMap<string, ReadonlyArray<readonly string[]>>;

/** The words of a city name as the recogniser reads words: lower-cased, without a trailing full stop. */
export function cityWords(name: string): string[] {
  return name
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.]+$/, '').toLowerCase())
    .filter((word) => word !== '');
}

function build(locales: Locale[]): CityDictionary {
  const byFirst = new Map<string, string[][]>();
  const seen = new Set<string>();
  for (const locale of locales) {
    const list = locale.location?.city_name;
    if (!Array.isArray(list)) continue;
    for (const name of list) {
      // Plain names only: letters, blanks, apostrophes, hyphens and full stops.
      if (typeof name !== 'string' || !/^\p{L}[\p{L}\s'’.-]*$/u.test(name)) continue;
      const words = cityWords(name);
      const key = words.join(' ');
      if (words.length === 0 || seen.has(key)) continue;
      seen.add(key);
      let entries = byFirst.get(words[0]!);
      if (!entries) byFirst.set(words[0]!, (entries = []));
      entries.push(words);
    }
  }
  for (const entries of byFirst.values()) entries.sort((a, b) => b.length - a.length);
  return byFirst;
}

let cached: CityDictionary | undefined;

/** The city dictionary (built on first use). */
export function cityDictionary(): CityDictionary {
  cached ??= build([en, en_CA, es_MX] as Locale[]);
  return cached;
}
