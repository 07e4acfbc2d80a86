/** Response schemas of SLA reports (shared by the SLA and observability routes). */
import { z } from 'zod';

/** An SLA definition. */
export const slaDefinitionSchema = z.object({
  interfaceId: z.string(),
  uptimeTarget: z.number(),
  maxResponseMs: z.number(),
  alertThresholdPercent: z.number(),
});

/** A breach range. */
export const breachSchema = z.object({
  from: z.string(),
  to: z.string(),
  minutes: z.number(),
  downMinutes: z.number(),
  slowMinutes: z.number(),
  reasons: z.array(z.enum(['not-observed', 'unreachable', 'disabled', 'slow'])),
});

/** A full SLA report. */
export const slaReportSchema = z.object({
  interfaceId: z.string(),
  from: z.string(),
  to: z.string(),
  clampedToNow: z.boolean(),
  /** The start asked for; `from` is later when the interface or its SLA did not exist yet. */
  requestedFrom: z.string(),
  sla: slaDefinitionSchema,
  minutes: z.object({
    total: z.number(),
    up: z.number(),
    down: z.number(),
    notObserved: z.number(),
    unreachable: z.number(),
    disabled: z.number(),
    slow: z.number(),
  }),
  uptimePercent: z.number().nullable(),
  messages: z.object({ total: z.number(), failed: z.number(), withLatency: z.number(), withinMaxResponse: z.number() }),
  withinMaxResponsePercent: z.number().nullable(),
  errorRatePercent: z.number().nullable(),
  errorBudget: z.object({
    allowedDownMinutes: z.number(),
    usedDownMinutes: z.number(),
    usedPercent: z.number().nullable(),
    exhausted: z.boolean(),
  }),
  breaches: z.array(breachSchema),
  breachCount: z.number(),
  uptimeMet: z.boolean().nullable(),
  responseMet: z.boolean().nullable(),
  met: z.boolean().nullable(),
  alertThresholdReached: z.boolean(),
});
