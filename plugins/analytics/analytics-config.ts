/**
 * The analytics plugin's config section (`plugins.analytics`): the SMTP server scheduled reports are sent through
 * and how a failed delivery is retried. The SMTP password is read here and handed to the mail transport only; it is
 * never logged, returned by a route or written to the audit trail.
 */
import { z } from 'zod';

/** SMTP settings of scheduled report e-mails. */
export const smtpConfigSchema = z
  .object({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65_535).default(587),
    /** TLS from the start (port 465); false uses STARTTLS when the server offers it. */
    secure: z.boolean().default(false),
    user: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
    /** Sender address of the reports. */
    from: z.email(),
  })
  .strict();

/** SMTP settings, parsed. */
export type SmtpConfig = z.infer<typeof smtpConfigSchema>;

/** Schema of `plugins.analytics`. */
export const analyticsConfigSchema = z
  .object({
    /** Absent: reports can be generated and downloaded but not scheduled for e-mail. */
    smtp: smtpConfigSchema.optional(),
    delivery: z
      .object({
        /** Attempts of one delivery before it is recorded as failed and an alert is raised (first one included). */
        attempts: z.number().int().min(1).max(10).default(4),
        /** Wait before the first retry; each further retry waits twice as long. */
        retryDelayMs: z.number().int().min(1).max(3_600_000).default(60_000),
        /** Time one SMTP conversation may take. */
        timeoutMs: z.number().int().min(100).max(300_000).default(30_000),
      })
      .strict()
      .default({ attempts: 4, retryDelayMs: 60_000, timeoutMs: 30_000 }),
  })
  .strict();

/** The analytics config section, parsed. */
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;
