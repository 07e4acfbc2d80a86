/** Public surface of the feature-flags plugin: the token and type of its flag store. */
import { createServiceRef } from '../../kernel/service-ref.ts';

/** Container token of {@link FeatureFlags}. */
export const FEATURE_FLAGS = createServiceRef<FeatureFlags>('workbench.feature-flags');

/** Flags: config defaults overridden by stored global flags, overridden in turn by an organisation's flags. */
export interface FeatureFlags {
  /** Global flags. */
  global(): Promise<Record<string, boolean>>;
  /** The global flags with the organisation's own on top. */
  forOrganization(organizationId: string): Promise<Record<string, boolean>>;
  /** Stores a flag; an empty organisation id makes it global. */
  set(name: string, enabled: boolean, organizationId: string, at: string): Promise<void>;
  /** Removes a stored flag (the config default, or the global value, applies again); false when none was stored. */
  remove(name: string, organizationId: string): Promise<boolean>;
  /** Stored flags (not config defaults): of one organisation (`''` for global ones), or all when omitted. */
  stored(organizationId?: string): Promise<StoredFeatureFlag[]>;
  /** The config defaults. */
  defaults(): Record<string, boolean>;
}

/** A flag stored by an admin. */
export interface StoredFeatureFlag {
  name: string;
  /** Empty for a global flag. */
  organizationId: string;
  enabled: boolean;
  updatedAt: string;
}
