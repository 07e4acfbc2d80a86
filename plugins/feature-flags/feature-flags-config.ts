/** The feature-flags plugin's config section (`plugins.feature-flags`): the global flag defaults. */
import { z } from 'zod';

/** Schema of the section. */
export const featureFlagsConfigSchema = z
  .object({
    /** Global defaults: flag name -> on/off. */
    flags: z.record(z.string().regex(/^[a-zA-Z][\w.-]*$/, 'flag names are letters, digits, . _ -'), z.boolean()).default({}),
  })
  .strict();

/** The feature-flags plugin's validated config. */
export type FeatureFlagConfig = z.infer<typeof featureFlagsConfigSchema>;
