/** The monitor's config section (`plugins.monitor`), validated at boot with the rest of the config. */
import { z } from 'zod';

/** Defaults of the alert rules; each interface may override any of them. */
export const alertRulesSchema = z
  .object({
    errorRateWarning: z.number().min(0).max(1).default(0.1),
    errorRateCritical: z.number().min(0).max(1).default(0.25),
    windowMinutes: z.number().int().min(1).max(1440).default(15),
    minimumMessages: z.number().int().min(1).default(10),
    silenceMinutes: z.number().int().min(0).max(525_600).default(60),
    latencyP99Ms: z.number().int().min(0).default(300_000),
  })
  .strict();

/** Days each roll-up step is kept. */
export const rollupRetentionSchema = z
  .object({
    minuteDays: z.number().int().min(1).max(3660).default(7),
    hourDays: z.number().int().min(1).max(3660).default(400),
    dayDays: z.number().int().min(1).max(3660).default(400),
  })
  .strict();

/** Schema of `plugins.monitor`. */
export const monitorConfigSchema = z
  .object({
    /** Milliseconds a file's size and mtime must stay unchanged before it is read. */
    settleMs: z.number().int().min(0).max(600_000).default(500),
    /**
     * Milliseconds a file whose last message is still open (no segment terminator after it, a document not closed)
     * and fails is held back after it settled, for its writer to finish it; then it is judged as it is. Default: ten
     * times settleMs. 0 judges such a file at once.
     */
    openTailGraceMs: z.number().int().min(0).max(86_400_000).optional(),
    /** Poll interval (ms) of interfaces that use polling. */
    pollingIntervalMs: z.number().int().min(50).max(600_000).default(1000),
    /** How often (ms) each folder is checked for reachability and alert rules are evaluated. */
    checkIntervalMs: z.number().int().min(50).max(600_000).default(5000),
    /** How often (ms) each watched folder is listed to find files whose file-system events were lost (0: only at start). */
    rescanIntervalMs: z.number().int().min(0).max(86_400_000).default(60_000),
    /** Keep the raw text of each message (for drill-down and triage). */
    keepRawContent: z.boolean().default(true),
    /**
     * Who may read a stored message's raw text (the message view, the `q` search of the message list): `open` any
     * caller the monitor base admits, `admin` a caller with the MonitorAdmin role, `off` nobody (the view says
     * `withheld`). Every view of raw text is written to the audit trail.
     */
    rawAccess: z.enum(['open', 'admin', 'off']).default('open'),
    /** Days raw text is kept; a daily job removes older raw text (metadata stays). */
    rawRetentionDays: z.number().int().min(1).max(3650).default(7),
    /** Largest file read (at most 1 GiB, read whole into memory); a larger file is recorded as unparsable. */
    maxFileBytes: z.number().int().min(1024).max(1024 * 1024 * 1024).default(64 * 1024 * 1024),
    /** Files committed together at most (each file's ledger row and messages still commit together). */
    commitBatchFiles: z.number().int().min(1).max(10_000).default(200),
    alertRules: alertRulesSchema.default(alertRulesSchema.parse({})),
    /**
     * Latency (received minus the sender's time) older than this many ms is counted apart as stale (a replayed
     * corpus, a wrong MSH-7), never averaged into latency or its percentiles.
     */
    latencyHorizonMs: z.number().int().min(1000).max(365 * 86_400_000).default(86_400_000),
    /** A sender's time more than this many ms in the future is counted apart as clock skew; less is read as 0 ms. */
    clockSkewMs: z.number().int().min(0).max(86_400_000).default(300_000),
    /**
     * Milliseconds an answer of the status, metrics or report routes is handed to identical requests after it was
     * computed (0: only requests arriving while it computes share it). Any commit, alert change or interface change
     * ends it sooner.
     */
    sharedAnswerMs: z.number().int().min(0).max(60_000).default(1000),
    /** How long roll-ups are kept, in days: per minute, per hour, per day (a daily job removes older ones). */
    rollupRetention: rollupRetentionSchema.default(rollupRetentionSchema.parse({})),
  })
  .strict();

/** The validated config section. */
export type MonitorConfig = z.infer<typeof monitorConfigSchema>;

/** Alert rules with every value filled. */
export type AlertRules = z.infer<typeof alertRulesSchema>;
