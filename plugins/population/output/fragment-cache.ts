/**
 * Encoded JSON fragments that depend only on two text fields of a vocabulary entry (a code and its display, a unit
 * and its UCUM code): written into bytes the first time, copied after. A FHIR population repeats the same few hundred
 * concepts millions of times; copying one fragment costs a fraction of writing its half-dozen pieces.
 */
import { JsonBytes } from './json-bytes.ts';

/** Fragments kept at most per cache: past that, fragments are written piece by piece as if uncached. */
const MAX_FRAGMENTS = 4096;

/** The fragments one writing function makes of (key, other) pairs. */
export class FragmentCache {
  private readonly fragments = new Map<string, { other: string; bytes: Uint8Array }>();
  private readonly scratch = new JsonBytes(4096);

  /** `write` must append the same bytes for the same two texts. */
  constructor(private readonly write: (o: JsonBytes, key: string, other: string) => void) {}

  /** Appends the fragment of `key` and `other` to `o`: exactly what the writing function appends. */
  append(o: JsonBytes, key: string, other: string): void {
    const known = this.fragments.get(key);
    if (known !== undefined && known.other === other) {
      o.bytes(known.bytes);
      return;
    }
    // A key seen with another text (not a vocabulary entry after all), or a full cache: written as is.
    if (known !== undefined || this.fragments.size >= MAX_FRAGMENTS) {
      this.write(o, key, other);
      return;
    }
    this.write(this.scratch, key, other);
    const taken = this.scratch.take();
    const bytes = Buffer.from(taken);
    this.scratch.recycle(taken);
    this.fragments.set(key, { other, bytes });
    o.bytes(bytes);
  }
}
