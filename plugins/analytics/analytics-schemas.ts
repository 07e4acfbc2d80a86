/** Response schemas of the analytics routes (they feed the monitor base's OpenAPI document). */
import { z } from 'zod';
import { REPORT_FORMATS, ROLLUP_DIMENSIONS, ROLLUP_METRICS, alertSchema } from '../monitor/api.ts';
import { GRANULARITIES } from './time-window.ts';
import { REPORT_FREQUENCIES } from './report-schedules.ts';

const parts = {
  messages: z.number(),
  failed: z.number(),
  latencySumMs: z.number(),
  latencyCount: z.number(),
  staleLatency: z.number(),
  clockSkew: z.number(),
};

/** One bucket of a series: its start, the metric's value, and the messages and failures it holds. */
export const seriesPointSchema = z.object({ start: z.string(), value: z.number().nullable(), messages: z.number(), failed: z.number() });

/** The timeseries answer. */
export const timeseriesSchema = z.object({
  interfaceId: z.string().nullable(),
  metric: z.enum(ROLLUP_METRICS),
  granularity: z.enum(GRANULARITIES),
  since: z.string(),
  until: z.string(),
  points: z.array(seriesPointSchema),
});

/** One row of a top-N. */
export const topNRowSchema = z.object({ key: z.string(), label: z.string(), value: z.number().nullable(), share: z.number().nullable(), ...parts });

/** The topn answer. */
export const topNSchema = z.object({
  by: z.enum(ROLLUP_DIMENSIONS),
  metric: z.enum(ROLLUP_METRICS),
  n: z.number(),
  since: z.string(),
  until: z.string(),
  rows: z.array(topNRowSchema),
});


/** A stored finding; `expected` and `actual` when the finding says what the standard wanted and what was there. */
const issueSchema = z.object({
  field: z.string(),
  code: z.string(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  expected: z.string().optional(),
  actual: z.string().optional(),
});

/** A stored message's facts (the contract's default projection: no raw text). */
export const messageFactsSchema = z.object({
  id: z.string(),
  interfaceId: z.string(),
  fileId: z.string(),
  indexInFile: z.number(),
  standard: z.enum(['hl7', 'fhir', 'ncpdp']),
  receivedAt: z.string(),
  messageTime: z.string().nullable(),
  messageType: z.string().nullable(),
  triggerEvent: z.string().nullable(),
  version: z.string().nullable(),
  controlId: z.string().nullable(),
  sendingApplication: z.string().nullable(),
  sendingFacility: z.string().nullable(),
  receivingApplication: z.string().nullable(),
  receivingFacility: z.string().nullable(),
  sequenceNumber: z.number().nullable(),
  acknowledgedControlId: z.string().nullable(),
  software: z
    .object({ vendor: z.string().nullable(), version: z.string().nullable(), product: z.string().nullable(), installDate: z.string().nullable() })
    .nullable(),
  segmentIds: z.array(z.string()),
  patientIds: z.array(z.object({ id: z.string(), assigningAuthority: z.string().nullable() })),
  accountNumber: z.string().nullable(),
  visitNumber: z.string().nullable(),
  isValid: z.boolean(),
  errors: z.array(issueSchema),
  warnings: z.array(issueSchema),
  latencyMs: z.number().nullable(),
  latencyClass: z.enum(['ok', 'none', 'stale', 'skew']),
  /** SHA-256 (hex) of the message's text as stored: equal digests are the same content (an exact resend). */
  contentDigest: z.string().nullable(),
});

/** The query answer. */
export const queryResultSchema = z.object({
  since: z.string(),
  until: z.string(),
  messages: z.array(messageFactsSchema),
  next: z.string().nullable(),
  totals: z.object({ messages: z.number(), alerts: z.number(), alertsBySeverity: z.record(z.string(), z.number()), openAlerts: z.number() }),
  alerts: z.array(alertSchema),
});

/** Totals of a window with the figures derived from them (a totals panel's data). */
export const windowTotalsSchema = z.object({
  ...parts,
  successful: z.number(),
  errorRate: z.number().nullable(),
  averageLatencyMs: z.number().nullable(),
  p99LatencyMs: z.number().nullable(),
});

/** One error code of an errorExamples panel: its count, the fields it was found in and example control ids. */
export const errorExampleSchema = z.object({
  code: z.string(),
  failedMessages: z.number(),
  share: z.number().nullable(),
  /** Fields the code was reported at, among the example messages. */
  fields: z.array(z.string()),
  /** Control ids (MSH-10) of recent failed messages with the code. */
  controlIds: z.array(z.string()),
});

/** One error code of an errorExamples panel. */
export type ErrorExample = z.infer<typeof errorExampleSchema>;

const panelHead = { id: z.string(), title: z.string() };

/**
 * A filled panel: its data's shape follows its kind, one member per kind a template may name
 * (dashboard-templates.ts). A series panel's points keep the roll-up parts they were computed from.
 */
export const panelResultSchema = z.discriminatedUnion('kind', [
  z.object({ ...panelHead, kind: z.literal('totals'), data: windowTotalsSchema }),
  z.object({
    ...panelHead,
    kind: z.literal('series'),
    data: z.object({ metric: z.enum(ROLLUP_METRICS), granularity: z.enum(GRANULARITIES), points: z.array(seriesPointSchema.extend(parts)) }),
  }),
  z.object({
    ...panelHead,
    kind: z.literal('topN'),
    data: z.object({ by: z.enum(ROLLUP_DIMENSIONS), metric: z.enum(ROLLUP_METRICS), rows: z.array(topNRowSchema) }),
  }),
  z.object({ ...panelHead, kind: z.literal('alerts'), data: z.object({ total: z.number(), alerts: z.array(alertSchema) }) }),
  z.object({ ...panelHead, kind: z.literal('errorExamples'), data: z.object({ errors: z.array(errorExampleSchema) }) }),
]);

/** A filled panel. */
export type PanelResult = z.infer<typeof panelResultSchema>;

/** The dashboard answer: the template's panels, each with its data. */
export const dashboardSchema = z.object({
  template: z.string(),
  title: z.string(),
  description: z.string(),
  interfaceId: z.string().nullable(),
  since: z.string(),
  until: z.string(),
  granularity: z.enum(GRANULARITIES),
  panels: z.array(panelResultSchema),
});

/** A filled dashboard. */
export type DashboardResult = z.infer<typeof dashboardSchema>;

/** A stored report schedule. */
export const scheduleSchema = z.object({
  id: z.string(),
  frequency: z.enum(REPORT_FREQUENCIES),
  format: z.enum(REPORT_FORMATS),
  recipients: z.array(z.string()),
  hour: z.number(),
  timeZone: z.string(),
  interfaceIds: z.array(z.string()),
  createdAt: z.string(),
  lastRunAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastFailureReason: z.string().nullable(),
  consecutiveFailures: z.number(),
  /** The cron expression it runs on, read in `timeZone`. */
  cron: z.string(),
});
