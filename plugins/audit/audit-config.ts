/** The audit plugin's config section (`plugins.audit`): retention, pruning, the chain's key file, refusal collapsing. */
import { z } from 'zod';

/** Schema of the section. */
export const auditConfigSchema = z
  .object({
    /** Days an entry is kept; null keeps every entry forever. */
    retentionDays: z.number().int().min(1).nullable().default(365),
    /** When pruning runs (cron, local time). */
    pruneSchedule: z.string().min(9).default('17 3 * * *'),
    /**
     * The chain's key file (created 0600 when missing); default `audit-chain.key` in the data folder. Processes that
     * share one PostgreSQL store name the same file.
     */
    keyFile: z.string().min(1).optional(),
    /** Refused credentials of one source within this many seconds are recorded once plus a count. */
    refusalWindowSeconds: z.number().int().min(1).max(3600).default(60),
  })
  .strict();

/** The audit plugin's validated config. */
export type AuditConfig = z.infer<typeof auditConfigSchema>;
