// The free-text city recogniser: known city names (faker's city lists) found where the context makes them places,
// and left where the same words mean something else.
import { describe, expect, it } from 'vitest';
import { recogniseCities } from '../../plugins/deidentify/recognisers/city-recogniser.ts';
import { cityDictionary } from '../../plugins/deidentify/recognisers/city-dictionary.ts';
import { FreeTextScrubber } from '../../plugins/deidentify/replacement/free-text-scrubber.ts';
import { Pseudonymizer } from '../../plugins/deidentify/replacement/pseudonyms.ts';

const cities = (text: string) => recogniseCities(text).map(({ start, end, kind }) => `${kind}:${text.slice(start, end)}`);

describe('recogniseCities', () => {
  it('reads its dictionary from the package data, by first word', () => {
    const dictionary = cityDictionary();
    expect(dictionary.get('chattanooga')).toEqual([['chattanooga']]);
    expect(dictionary.get('salt')).toContainEqual(['salt', 'lake', 'city']);
    let names = 0;
    for (const entries of dictionary.values()) names += entries.length;
    expect(names).toBeGreaterThan(1_000);
  });

  it('finds a city after a word that introduces a place', () => {
    expect(cities('Pt lives in Greensboro with her son.')).toEqual(['city:Greensboro']);
    expect(cities('Moved from St. Louis last year')).toEqual(['city:St. Louis']);
    expect(cities('transfer to Salt Lake City today, then near Tulsa')).toEqual(['city:Salt Lake City', 'city:Tulsa']);
    expect(cities('PT FROM BOSTON')).toEqual(['city:BOSTON']);
  });

  it('finds a city before a state abbreviation, a state name after a comma, or a ZIP code', () => {
    expect(cities('Seen Chattanooga, TN')).toEqual(['city:Chattanooga']);
    expect(cities('Tulsa OK')).toEqual(['city:Tulsa']);
    expect(cities('Tulsa, Oklahoma')).toEqual(['city:Tulsa']);
    expect(cities('Denver 80202')).toEqual(['city:Denver']);
    expect(cities('Normal, IL')).toEqual(['city:Normal']);
  });

  it('leaves city words without such context, in lower case, or everyday words after a cue', () => {
    expect(cities('Boston')).toEqual([]);
    expect(cities('Visited Boston')).toEqual([]);
    expect(cities('moved to boston')).toEqual([]);
    expect(cities('values in Normal range, went to Mobile unit')).toEqual([]);
    expect(cities('New York Heart Association class II')).toEqual([]);
    expect(cities('Tulsa OK1')).toEqual([]);
    expect(cities('in Bostonian style')).toEqual([]);
  });

  it('is replaced in free text the way a city in a field is', () => {
    const pseudonyms = new Pseudonymizer(Buffer.alloc(32, 3));
    const scrubbed = new FreeTextScrubber(pseudonyms).scrub('Lives in Chattanooga since May.', 0);
    const city = pseudonyms.city('Chattanooga');
    expect(city).not.toBe('Chattanooga');
    expect(scrubbed).toBe(`Lives in ${city} since May.`);
  });
});
