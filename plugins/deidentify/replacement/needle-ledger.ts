/**
 * The needles of one de-identification: every original identifying value replaced (or recognised) in one message
 * text, with the pseudonym that replaced it. The engines' field pass fills it; the travel pass then replaces every
 * other occurrence of those values anywhere in the same text by the same pseudonym; the caller gets the originals as
 * `needles` (never serialised: they are the very values that must not leave).
 */
import { NeedleSet, normaliseNeedle } from './needles.ts';

/** Largest number of needles remembered for one text (a message holds far fewer; the bound keeps work linear). */
const MAX_NEEDLES = 50_000;

/** Original values and their replacements, for one message text. */
export class NeedleLedger {
  private readonly set = new NeedleSet<string>();
  /** The original value (trimmed) of each needle, in the order the needles were first recorded. */
  private readonly originals: string[] = [];

  /** Records that `original` was replaced by `replacement` (the first replacement of a value is the one that travels). */
  record(original: string, replacement: string): void {
    if (original === replacement || this.originals.length >= MAX_NEEDLES) return;
    this.recordNormalised(original, normaliseNeedle(original), replacement);
  }

  /**
   * {@link record} with the needle of `original` already made by {@link normaliseNeedle} (undefined when it is
   * ignored): a value met in message after message (a cached pseudonym) is not normalised again.
   */
  recordNormalised(original: string, norm: string | undefined, replacement: string): void {
    if (norm === undefined || original === replacement || this.originals.length >= MAX_NEEDLES) return;
    if (this.set.addNormalised(norm, replacement)) this.originals.push(original.trim());
  }

  /** The needles with their replacements, for scanning. */
  get needleSet(): NeedleSet<string> {
    return this.set;
  }

  /** Number of needles recorded. */
  get size(): number {
    return this.originals.length;
  }

  /** Every original value recorded (one per normalised needle). */
  needles(): string[] {
    return this.originals.slice();
  }
}
