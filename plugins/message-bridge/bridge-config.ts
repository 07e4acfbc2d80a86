/** The bridge's config section (`plugins.message-bridge`): how much of a result it lists. */
import { z } from 'zod';
import { DEFAULT_MAX_ISSUES } from '../../kernel/standards/issue-list.ts';

/** Schema of `plugins.message-bridge`. */
export const bridgeConfigSchema = z
  .object({
    /** Most issues a validation result lists (errors and warnings together); every one is counted in `totals`. */
    maxIssues: z.number().int().min(1).max(100_000).default(DEFAULT_MAX_ISSUES),
    /** Most differences a diff result lists; every one is counted in `totalDifferences` and `totals`. */
    maxDifferences: z.number().int().min(1).max(100_000).default(DEFAULT_MAX_ISSUES),
  })
  .strict();

/** The bridge's validated config. */
export type BridgeConfig = z.infer<typeof bridgeConfigSchema>;
