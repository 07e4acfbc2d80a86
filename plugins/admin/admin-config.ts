/** The admin plugin's config section (`plugins.admin`): SLA alerts, metrics access, cost rates. */
import { z } from 'zod';

/** Schema of the section. */
export const adminConfigSchema = z
  .object({
    slaAlerts: z
      .object({
        /** Rolling window the alert rule judges, in hours. */
        windowHours: z.number().int().min(1).max(24 * 31).default(24),
        /** Accepted for configs written before the rule joined the monitor's checks; no longer used. */
        schedule: z.string().min(9).default('*/5 * * * *'),
      })
      .strict()
      .prefault({}),
    metrics: z
      .object({
        /** Serve `GET /metrics` without credentials (for a scraper on this machine). */
        public: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    /** Rates of the monthly cost estimate. */
    costRates: z
      .object({
        currency: z.string().min(1).max(10).default('USD'),
        cpuCoreHour: z.number().min(0).default(0.04),
        memoryGiBHour: z.number().min(0).default(0.005),
        storageGiBMonth: z.number().min(0).default(0.1),
      })
      .strict()
      .prefault({}),
  })
  .strict();

/** The admin plugin's validated config. */
export type AdminConfig = z.infer<typeof adminConfigSchema>;
