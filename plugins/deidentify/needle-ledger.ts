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
  private readonly originals = new Map<string, string>();
  /** Every original value recorded, as given (before normalisation). */
  private readonly seen = new Set<string>();

  /** Records that `original` was replaced by `replacement` (the first replacement of a value is the one that travels). */
  record(original: string, replacement: string): void {
    if (original === replacement || this.originals.size >= MAX_NEEDLES) return;
    // A value met again (a name in PID, GT1 and IN1) is not normalised again.
    if (this.seen.has(original)) return;
    this.seen.add(original);
    const norm = normaliseNeedle(original);
    if (norm === undefined || this.originals.has(norm)) return;
    this.originals.set(norm, original.trim());
    this.set.addNormalised(norm, replacement);
  }

  /** The needles with their replacements, for scanning. */
  get needleSet(): NeedleSet<string> {
    return this.set;
  }

  /** Number of needles recorded. */
  get size(): number {
    return this.originals.size;
  }

  /** Every original value recorded (one per normalised needle). */
  needles(): string[] {
    return [...this.originals.values()];
  }
}
