/**
 * Free text, scrubbed: the known identifiers of the message (the needles of the current ledger) are replaced by their
 * pseudonyms first, then the recognisers of recognisers/ find the Safe Harbor kinds the fields did not name (person
 * names, SSNs, phones, e-mails, URLs, IPs, identifier-shaped tokens, street addresses, cities, ZIP codes, dates, ages
 * over 89), and each is replaced the way its kind is replaced in a field: so a name recognised in a note and the same
 * name in a later field get the same pseudonym, and a recognised value becomes a needle of the message in turn.
 */
import type { Pseudonymizer } from './pseudonyms.ts';
import { recogniseCities } from '../recognisers/city-recogniser.ts';
import { recogniseContacts } from '../recognisers/contact-recognisers.ts';
import { recogniseDates, shiftDateText } from '../recognisers/date-recogniser.ts';
import { recogniseIdentifiers } from '../recognisers/identifier-recognisers.ts';
import { recogniseNames } from '../recognisers/name-recogniser.ts';
import { recognisePlaces } from '../recognisers/place-recognisers.ts';
import type { Recognised, RecognisedKind } from '../recognisers/recognised.ts';
import { fitReplacement } from './needles.ts';

/** Longest text scanned by the recognisers (longer text is cut into pieces of this size at blanks). */
const MAX_PIECE = 64 * 1024;

interface Span {
  start: number;
  end: number;
  /** The replacement of a needle, or the kind of a recognised value. */
  needle?: string;
  kind?: RecognisedKind;
}

const HAS_DIGIT = /\d/;
const HAS_CAPITAL = /\p{Lu}/u;

/**
 * Texts up to this many characters have their recognised values remembered: code texts, units and reference ranges
 * (`Body height`, `150-195`) repeat in message after message, while longer free text rarely does and is always read.
 */
const MEMO_CHARS = 64;
/** Largest number of remembered short texts (the memo is cleared when full; results never depend on it). */
const MEMO_LIMIT = 20_000;
const NOTHING: readonly Recognised[] = Object.freeze([]);
const memo = new Map<string, readonly Recognised[]>();

/**
 * Every recognised value in `text` (a pure function of the text: the recognisers keep no state). The result is
 * shared and must not be changed.
 */
export function recogniseAll(text: string): readonly Recognised[] {
  if (text.length > MEMO_CHARS) return recogniseUncached(text);
  let found = memo.get(text);
  if (found === undefined) {
    const made = recogniseUncached(text);
    found = made.length === 0 ? NOTHING : made;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, found);
  }
  return found;
}

function recogniseUncached(text: string): Recognised[] {
  const digits = HAS_DIGIT.test(text);
  const found: Recognised[] = [];
  if (digits) found.push(...recogniseIdentifiers(text), ...recogniseDates(text), ...recognisePlaces(text));
  if (digits || text.includes('@') || text.includes('www.') || text.includes('://')) found.push(...recogniseContacts(text));
  else if (text.includes(':')) found.push(...recogniseContacts(text));
  // A name needs two words (or a word after a title or relation): one word alone is a code or an identifier.
  if ((text.includes(' ') || text.includes(',')) && HAS_CAPITAL.test(text)) {
    found.push(...recogniseNames(text));
    // A city needs a word before it or a state after it: never a text of one word.
    found.push(...recogniseCities(text));
  }
  return found;
}

/** Replaces identifiers in free text (see the module comment). */
export class FreeTextScrubber {
  constructor(private readonly pseudonyms: Pseudonymizer) {}

  /**
   * `text` with every needle and recognised value replaced; `offsetDays` moves dates, `escape` encodes what is
   * written (the format's escaping), `onReplace` counts each replacement by the kind it was.
   */
  scrub(text: string, offsetDays: number, escape: (value: string) => string = (value) => value, onReplace?: (kind: RecognisedKind | 'needle') => void): string {
    if (text.length === 0) return text;
    if (text.length > MAX_PIECE) {
      let out = '';
      for (let at = 0; at < text.length; ) {
        let end = Math.min(text.length, at + MAX_PIECE);
        const blank = end < text.length ? text.lastIndexOf(' ', end) : -1;
        if (blank > at) end = blank;
        out += this.scrub(text.slice(at, end), offsetDays, escape, onReplace);
        at = end;
      }
      return out;
    }
    const needles = this.pseudonyms.currentNeedles();
    const hits = needles ? needles.scan(text) : [];
    const recognised = recogniseAll(text);
    if (hits.length === 0 && recognised.length === 0) return text;
    const spans: Span[] = [];
    for (const hit of hits) spans.push({ start: hit.start, end: hit.end, needle: hit.payload });
    for (const hit of recognised) spans.push(hit);
    // Left to right; at one start a needle before a recognised value, the longer before the shorter.
    spans.sort((a, b) => a.start - b.start || (a.needle !== undefined ? 0 : 1) - (b.needle !== undefined ? 0 : 1) || b.end - a.end);
    let out = '';
    let last = 0;
    for (const span of spans) {
      if (span.start < last) continue;
      const original = text.slice(span.start, span.end);
      const made = span.needle !== undefined ? fitReplacement(original, span.needle) : this.replace(span.kind!, original, offsetDays);
      if (made === original) continue;
      out += text.slice(last, span.start) + escape(made);
      last = span.end;
      onReplace?.(span.kind ?? 'needle');
    }
    return out + text.slice(last);
  }

  private replace(kind: RecognisedKind, value: string, offsetDays: number): string {
    const p = this.pseudonyms;
    switch (kind) {
      case 'givenName':
        return p.givenName(value);
      case 'familyName':
        return p.familyName(value);
      case 'ssn':
        return p.ssn(value);
      case 'phone':
        return p.phone(value);
      case 'email':
        return p.email(value);
      case 'url':
        return p.url(value);
      case 'ipAddress':
        return p.ipAddress(value);
      case 'identifier':
        return p.identifier(value);
      case 'street':
        return p.streetLine(value);
      case 'city':
        return p.city(value);
      case 'postalCode':
        return p.postalCode(value);
      case 'age':
        return '90+';
      case 'date': {
        const shifted = shiftDateText(value, offsetDays);
        if (shifted === undefined) return p.identifier(value);
        p.noteDate(value, shifted);
        return shifted;
      }
    }
  }
}
