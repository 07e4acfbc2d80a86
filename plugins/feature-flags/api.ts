/** Public surface of the feature-flags plugin: the token and type of its flag store. */

/** Container token of {@link FeatureFlags}. */
export const FEATURE_FLAGS = Symbol.for('workbench.feature-flags');

/** Flags: config defaults overridden by stored global flags, overridden in turn by an organisation's flags. */
export interface FeatureFlags {
  /** Global flags. */
  global(): Promise<Record<string, boolean>>;
  /** The global flags with the organisation's own on top. */
  forOrganization(organizationId: string): Promise<Record<string, boolean>>;
  /** Stores a flag; an empty organisation id makes it global. */
  set(name: string, enabled: boolean, organizationId: string, at: string): Promise<void>;
}
