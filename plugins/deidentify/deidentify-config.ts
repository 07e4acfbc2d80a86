/** The de-identification plugin's config section (`plugins.deidentify`). */
import { z } from 'zod';

/** Schema of `plugins.deidentify`. */
export const deidentifyConfigSchema = z
  .object({
    /**
     * The key file of the keyed hash, relative to the data folder (or absolute). Created with 32 random bytes and
     * mode 0600 on first use; the same file gives the same pseudonyms across runs.
     */
    keyFile: z.string().min(1).default('deidentify.key'),
  })
  .strict();

/** The validated config. */
export type DeidentifyConfig = z.infer<typeof deidentifyConfigSchema>;
