/**
 * Route groups switched off by feature flag. Every plugin's routes form one group whose flag is named after the
 * plugin (`monitor`, `analytics`, `tracing`, `ai-triage`, ...; a manifest may name another flag, or `null` for a
 * group that is always on, such as the admin routes that turn flags back on). When the flag is false, the group's
 * routes answer 404 FEATURE_DISABLED. The kernel knows no flag store: the feature-flags plugin supplies one with
 * {@link FeatureSwitches.use}; without it every group is on.
 */
import { kernelErrors } from './errors.ts';

/** Where switches read flags: true when `flag` is explicitly off for the caller's organisation (or globally). */
export interface FeatureSwitchSource {
  isOff(flag: string, organizationId: string | undefined): Promise<boolean> | boolean;
}

/** The kernel's switchboard of route groups. */
export class FeatureSwitches {
  private source: FeatureSwitchSource | undefined;

  /** Supplies the flags; a second source is a boot error (two stores would disagree). */
  use(source: FeatureSwitchSource): void {
    if (this.source) throw new Error('A feature switch source is already registered; only one plugin may supply flags.');
    this.source = source;
  }

  /** Throws 404 FEATURE_DISABLED when the group's flag is off for this caller. */
  async require(flag: string, organizationId: string | undefined): Promise<void> {
    if (!this.source) return;
    if (await this.source.isOff(flag, organizationId)) {
      throw kernelErrors.create('FEATURE_DISABLED', { flag }, { flag });
    }
  }
}
