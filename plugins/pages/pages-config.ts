/** The pages plugin's config section (`plugins.pages`). */
import { z } from 'zod';

/** Schema of `plugins.pages`. */
export const pagesConfigSchema = z
  .object({
    /** Seconds between the refreshes of the monitor's dashboard. */
    refreshSeconds: z.number().int().min(2).max(3600).default(15),
  })
  .strict();

/** The pages config section, parsed. */
export type PagesConfig = z.infer<typeof pagesConfigSchema>;
