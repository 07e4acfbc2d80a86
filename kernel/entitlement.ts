/**
 * The local licence tier (free < professional < enterprise). A route declares the tier it needs and the kernel
 * answers 402 TIER_REQUIRED below it; handlers may also ask {@link Entitlement.require} for a finer action.
 */
import { kernelErrors } from './errors.ts';

/** Licence tiers, lowest first. */
export const TIERS = ['free', 'professional', 'enterprise'] as const;
/** One licence tier. */
export type Tier = (typeof TIERS)[number];

/** Answers whether the configured tier allows a feature. */
export class Entitlement {
  constructor(readonly tier: Tier) {}

  /** True when the configured tier is at least `needed`. */
  allows(needed: Tier): boolean {
    return TIERS.indexOf(this.tier) >= TIERS.indexOf(needed);
  }

  /** Throws 402 TIER_REQUIRED naming the tier when the configured tier is below `needed`. */
  require(needed: Tier, feature?: string): void {
    if (!this.allows(needed)) {
      throw kernelErrors.create('TIER_REQUIRED', { tier: needed, current: this.tier }, { requiredTier: needed, feature });
    }
  }
}
