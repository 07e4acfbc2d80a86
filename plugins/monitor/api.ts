/**
 * Public surface of the monitor plugin: the container token of its {@link MonitorService}, the records it returns
 * and the events it emits. Analytics, tracing, AI triage and admin read interfaces, stored messages and minute
 * roll-ups through this service; none of them opens the monitor's tables.
 *
 * ```ts
 * const monitor = resolveService(context.container, MONITOR_SERVICE);
 * const page = await monitor.queryMessages({ interfaceIds: [id], isValid: false }, { limit: 500 });
 * for await (const message of monitor.streamMessages({ since }, { after: storedCursor })) handle(message);
 * ```
 */
import { z } from 'zod';
import { createServiceRef } from '../../kernel/service-ref.ts';
import type { TimeStep } from '../../kernel/lib/time/time-steps.ts';
import type { Page } from '../../kernel/http/paging.ts';
import type { WorkbenchError } from '../../kernel/errors.ts';
import { monitorErrors } from './errors.ts';
import type { ProjectionHandle, ProjectionOf } from './projections/projection-contract.ts';

/** Container token of {@link MonitorService}. */
export const MONITOR_SERVICE = createServiceRef<MonitorService>('workbench.monitor');

/** Alert severities, highest first. */
export const ALERT_SEVERITIES = ['critical', 'warning', 'info'] as const;

/** Severity of an alert. */
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/**
 * An {@link Alert} as routes answer it (SPEC "Alert" plus rule, episode end and escalation), for every plugin whose
 * answers carry alerts, so their OpenAPI documents and response checks agree with the monitor's.
 */
export const alertSchema = z.object({
  id: z.string(),
  /** The interface the alert is about; null for a system alert (a report delivery, say), which is about none. */
  interfaceId: z.string().nullable(),
  interfaceName: z.string().nullable(),
  severity: z.enum(ALERT_SEVERITIES),
  title: z.string(),
  message: z.string(),
  triggeredAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  /** Who acknowledged it: `api-key NAME`, `jwt SUBJECT`, `session USER`, or `local caller ADDRESS` without credentials. */
  acknowledgedBy: z.string().nullable(),
  rule: z.string(),
  clearedAt: z.string().nullable(),
  /** When the episode's severity last rose; null while it kept its first one. */
  escalatedAt: z.string().nullable(),
});

/** Validation mode used for an interface's messages. */
export type InterfaceValidationMode = 'strict' | 'compatibility';

/** Per-interface overrides of the alert rules (every field optional; config defaults apply to the rest). */
export interface AlertRuleOverrides {
  /** Error rate (0..1) over the window at which a warning is raised. */
  errorRateWarning?: number;
  /** Error rate (0..1) over the window at which a critical alert is raised. */
  errorRateCritical?: number;
  /** Window of the error-rate and latency rules, in minutes. */
  windowMinutes?: number;
  /** Fewest messages in the window before the error-rate rule judges (so 1 failure of 1 is not 100 %). */
  minimumMessages?: number;
  /** Minutes without any message that raise a silence warning; 0 switches the rule off. */
  silenceMinutes?: number;
  /** p99 latency in milliseconds above which a warning is raised; 0 switches the rule off. */
  latencyP99Ms?: number;
}

/** The standard an interface declares: one of them, or `auto` (detected per file). */
export type InterfaceStandard = MonitoredStandard | 'auto';

/** A monitored interface: a watched folder, a file pattern, a standard and a validation profile. */
export interface MonitoredInterface {
  id: string;
  name: string;
  /** The standard of its files; `auto` (the default) detects it per file from the file's start. */
  standard: InterfaceStandard;
  /** Absolute path of the watched folder. */
  directoryPath: string;
  /** Glob of message files (picomatch syntax), matched against the path relative to the folder. */
  filePattern: string;
  /** Profile applied on top of the standard, or null for the plain standard. */
  profileName: string | null;
  /** Strict or compatibility validation (default compatibility). */
  validationMode: InterfaceValidationMode;
  /** True while the folder is watched (true after creation). */
  enabled: boolean;
  /** Watch subfolders too. */
  recursive: boolean;
  /** Poll the folder instead of using file-system events (network shares). */
  usePolling: boolean;
  /** Per-interface alert rule overrides. */
  alertRules: AlertRuleOverrides;
  createdAt: string;
  updatedAt: string;
}

/** One validation finding kept with a stored message. */
export interface StoredIssue {
  field: string;
  code: string;
  severity: 'error' | 'warning';
  message: string;
  /** What the standard wanted there, when the finding says (kernel/standards/issue-detail.ts). */
  expected?: string;
  /** What was found there, excerpted, when the finding says. */
  actual?: string;
}

/** One minute of one interface: what arrived and whether the folder was reachable and the interface enabled. */
export interface MinuteRollup {
  interfaceId: string;
  /** Start of the minute (ISO 8601 UTC, seconds zero). */
  minute: string;
  messages: number;
  failed: number;
  /** Sum and count of the latencies known in the minute (messages without MSH-7 have none). */
  latencySumMs: number;
  latencyCount: number;
  /**
   * Whether the folder was reachable during the minute (false when any check in the minute failed). Minutes the
   * service was not running have no row at all.
   */
  reachable: boolean;
  /** Whether the interface was enabled during the minute (false when it was disabled at any check in it). */
  enabled: boolean;
}

/** Messages of one minute whose latency was within a bound ({@link MonitorService.latencyWithin}). */
export interface MinuteWithin {
  /** Start of the minute (ISO 8601 UTC). */
  minute: string;
  /** Messages whose latency's histogram bucket lies wholly at or below the bound. */
  within: number;
}

/** Messages received on one UTC day. */
export interface DailyMessageCount {
  /** `YYYY-MM-DD`. */
  day: string;
  messages: number;
  failed: number;
}

/**
 * A time window as the contract takes it: `since` inclusive, `until` exclusive (default now), both Dates parsed at
 * the caller's edge (kernel/time-window.ts). A window whose `until` lies before its `since` is 400 WINDOW_INVALID.
 */
export interface TimeWindow {
  since: Date;
  until?: Date;
}

/**
 * The one "unknown interface" refusal of every plugin: 404 INTERFACE_NOT_FOUND naming the id, with details naming
 * the parameter that carried it (`field`, default `interfaceId`). Routes list the code in their `errors`.
 */
export function interfaceNotFound(interfaceId: string, field = 'interfaceId', location: 'query' | 'body' | 'params' = 'query'): WorkbenchError {
  return monitorErrors.create('INTERFACE_NOT_FOUND', { interfaceId }, [
    { location, path: field, message: `no monitored interface has the id "${interfaceId}"` },
  ]);
}

/** Which alerts a listing reads: triggered at or after `since`, optionally of one severity or interface. */
export interface AlertFilter {
  since: Date;
  severity?: AlertSeverity;
  interfaceId?: string;
}

/** An alert (SPEC "Alert") with the rule that raised it. */
export interface Alert {
  id: string;
  /**
   * The interface the alert is about, or null for a system alert (about the service itself, a report schedule for
   * instance): a system alert never changes an interface's state.
   */
  interfaceId: string | null;
  interfaceName: string | null;
  severity: AlertSeverity;
  title: string;
  message: string;
  triggeredAt: string;
  acknowledgedAt: string | null;
  /** Who acknowledged it (see alertSchema); null while nobody did. */
  acknowledgedBy: string | null;
  /** Rule key (`error-rate`, `silence`, `latency-p99`, `folder-unreachable`, `unparsable-file`, or a registered rule's key). */
  rule: string;
  /** When the condition stopped; null while the episode is open. */
  clearedAt: string | null;
  /** When the episode's severity last rose (warning to critical); null while it kept its first severity. */
  escalatedAt: string | null;
}

/** What a person reads as an alert's subject: its interface's name, or `system` for a system alert. */
export function alertSubject(alert: Pick<Alert, 'interfaceName'>): string {
  return alert.interfaceName ?? 'system';
}

/** What another plugin passes to {@link MonitorService.raiseAlert}. */
export interface RaiseAlertInput {
  /**
   * The interface the alert is about, or null for a system alert: about no interface (a report schedule's delivery,
   * say), listed with every alert, never part of an interface's state; its raiser clears it when its cause is gone.
   */
  interfaceId: string | null;
  severity: AlertSeverity;
  title: string;
  message: string;
  /**
   * Episode key (`sla-breach` for instance). While an alert with this key is open for the interface no new one is
   * raised; {@link MonitorService.clearAlert} ends the episode. Without a key every call raises a new alert
   * (rule `external`) that is cleared at once.
   */
  rule?: string;
}

/** Counts of stored messages (for observability). */
export interface StoredMessageCounts {
  messages: number;
  failed: number;
  files: number;
  interfaces: number;
}

/**
 * The monitor's service, registered under {@link MONITOR_SERVICE}: the query contract of the store
 * ({@link MonitorStore}) plus interfaces, alerts and gauges.
 */
export interface MonitorService extends MonitorStore {
  /** Every interface, by name. */
  listInterfaces(): Promise<MonitoredInterface[]>;
  /** One interface, or undefined. */
  getInterface(id: string): Promise<MonitoredInterface | undefined>;
  /** Whether an interface with that id exists. */
  interfaceExists(id: string): Promise<boolean>;
  /** Minute roll-ups of an interface in a window, oldest first (minutes without a row are absent). */
  minuteRollups(interfaceId: string, window: TimeWindow): Promise<MinuteRollup[]>;
  /**
   * Per minute of a window (minutes with latencies only), the messages of an interface whose latency was at most
   * `maxLatencyMs`, read from the roll-ups' latency histograms: a message counts when its bucket's upper edge is at
   * most the bound, so none above the bound is ever counted, and one up to 5 % below it may be left out.
   */
  latencyWithin(interfaceId: string, maxLatencyMs: number, window: TimeWindow): Promise<MinuteWithin[]>;
  /** Messages per UTC day in a window (of one interface, or all), oldest first; days without messages are absent. */
  dailyMessageCounts(window: TimeWindow, interfaceId?: string): Promise<DailyMessageCount[]>;
  /** Counts of stored messages, files and interfaces (optionally of one interface). */
  storedMessageCounts(interfaceId?: string): Promise<StoredMessageCounts>;
  /** Every alert triggered since an instant, newest first, read page by page. */
  listAlerts(filter: AlertFilter): Promise<Alert[]>;
  /**
   * One keyset page of the alerts triggered since an instant, newest first: at most `limit`, `next` resumes after
   * the last (kernel/paging.ts).
   */
  pageAlerts(filter: AlertFilter, request: { limit: number; cursor?: string }): Promise<Page<Alert>>;
  /**
   * Raises an alert for another plugin (an SLA breach, say), once per episode: returns the new alert, or the open
   * one with the same `rule` for that interface. Emits `alert.raised` for a new one. Unknown interface: throws.
   */
  raiseAlert(input: RaiseAlertInput): Promise<Alert>;
  /** Ends the open episode of `rule` for the interface (null: the system alert of `rule`), if any; returns whether one was open. */
  clearAlert(interfaceId: string | null, rule: string): Promise<boolean>;
  /** Settled files waiting to be read (a gauge for observability). */
  queueDepth(): number;
  /**
   * The report of a window: overall state, per interface its status, totals, hourly breakdown and top error codes
   * (counted from the roll-ups, never by summing stored messages; two bounded reads of stored messages take each
   * interface's newest message time and up to three examples per top error code), and the alerts triggered in the
   * window. The report routes, scheduled e-mails and the dashboard render it.
   */
  buildReport(window: ReportWindow): Promise<MonitorReport>;
  /**
   * The report in one format: a self-contained HTML page, plain text, CSV (one row per interface, formula-safe) or
   * JSON. The monitor's report route, analytics' generated reports and its e-mails all render here, so one window
   * reads the same wherever it is opened.
   */
  renderReport(report: MonitorReport, format: ReportFormat): RenderedReport;
  /**
   * Adds an alert rule: it judges every watched interface after each commit that touched it and on every periodic
   * check, and its episodes carry its key. A second rule with the same key is refused (throws).
   */
  registerAlertRule(rule: AlertRule): void;
  /**
   * Adds a projection: a derived table the monitor keeps up to date from every committed message (see
   * {@link Projection}); the handle catches it up before a read and runs work between catch-ups. A second
   * projection of the same name is refused (throws).
   */
  registerProjection<F extends MessageField>(projection: Projection<F>): ProjectionHandle;
}

/** States of an interface and of the monitor, worst first. */
export const MONITOR_STATES = ['down', 'degraded', 'idle', 'healthy'] as const;

/** One of {@link MONITOR_STATES}. */
export type MonitorState = (typeof MONITOR_STATES)[number];

/** Status of one interface: its state and why. */
export interface InterfaceStatus {
  interfaceId: string;
  name: string;
  enabled: boolean;
  state: MonitorState;
  reason: string;
  lastMessageAt: string | null;
  openAlerts: Alert[];
}

/** One hour of a metrics breakdown. */
export interface HourBucket {
  /** Start of the hour, ISO 8601 UTC. */
  hour: string;
  messagesProcessed: number;
  errors: number;
  successes: number;
}

/** Metrics of an interface over a window (both field sets of the spec), from the roll-ups. */
export interface InterfaceMetrics {
  interfaceId: string;
  sinceHours: number;
  windowStart: string;
  windowEnd: string;
  messagesTotal: number;
  messagesSuccessful: number;
  messagesFailed: number;
  /** Successful share of messages (0..1); null without messages. */
  successRate: number | null;
  averageLatencyMs: number | null;
  /** From the latency histogram: never below the exact p99, at most 5 % above it. */
  p99LatencyMs: number | null;
  /** Messages whose sender's time was older than the latency horizon, or ahead beyond the clock skew: not in the latency figures. */
  staleLatency: number;
  clockSkew: number;
  totalMessagesProcessed: number;
  totalErrors: number;
  totalSuccesses: number;
  /** Failed share of messages (0..1); null without messages. */
  errorRate: number | null;
  lastMessageAt: string | null;
  /** When watching of the interface last (re)started; null while not watched. */
  startedAt: string | null;
  uptimeSeconds: number;
  hourlyBreakdown: HourBucket[];
}

/** One error code of a report's top errors, from the error-code roll-ups. */
export interface ErrorCount {
  code: string;
  /** Failed messages carrying the code in the window. */
  count: number;
  /** Field and message text of the newest message with the code (an example), when one is still stored. */
  field: string;
  example: string;
  /** Control ids of up to three of the newest messages with the code. */
  exampleControlIds: string[];
}

/** One interface in a report. */
export interface InterfaceReport {
  status: InterfaceStatus;
  metrics: InterfaceMetrics;
  topErrors: ErrorCount[];
}

/** The window of a report: `until` defaults to now; `interfaceIds` narrows it (default every interface). */
export interface ReportWindow extends TimeWindow {
  interfaceIds?: string[];
}

/** The formats a report renders to (see {@link MonitorService.renderReport}). */
export const REPORT_FORMATS = ['html', 'json', 'csv', 'text'] as const;

/** One of {@link REPORT_FORMATS}. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A rendered report: its bytes, media type and a file name naming its window. */
export interface RenderedReport {
  contentType: string;
  fileName: string;
  body: string;
}

/** A whole report. */
export interface MonitorReport {
  generatedAt: string;
  /** Hours the window spans (rounded up). */
  sinceHours: number;
  windowStart: string;
  windowEnd: string;
  overallState: MonitorState;
  totals: { messages: number; failed: number; interfaces: number };
  interfaces: InterfaceReport[];
  alerts: Alert[];
}

const hourBucketSchema = z.object({ hour: z.string(), messagesProcessed: z.number(), errors: z.number(), successes: z.number() });

/** {@link InterfaceMetrics} as routes answer it. */
export const interfaceMetricsSchema = z.object({
  interfaceId: z.string(),
  sinceHours: z.number(),
  windowStart: z.string(),
  windowEnd: z.string(),
  messagesTotal: z.number(),
  messagesSuccessful: z.number(),
  messagesFailed: z.number(),
  successRate: z.number().nullable(),
  averageLatencyMs: z.number().nullable(),
  p99LatencyMs: z.number().nullable(),
  staleLatency: z.number(),
  clockSkew: z.number(),
  totalMessagesProcessed: z.number(),
  totalErrors: z.number(),
  totalSuccesses: z.number(),
  errorRate: z.number().nullable(),
  lastMessageAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  uptimeSeconds: z.number(),
  hourlyBreakdown: z.array(hourBucketSchema),
}) satisfies z.ZodType<InterfaceMetrics>;

/** {@link InterfaceStatus} as routes answer it. */
export const interfaceStatusSchema = z.object({
  interfaceId: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  state: z.enum(MONITOR_STATES),
  reason: z.string(),
  lastMessageAt: z.string().nullable(),
  openAlerts: z.array(alertSchema),
}) satisfies z.ZodType<InterfaceStatus>;

const errorCountSchema = z.object({
  code: z.string(),
  count: z.number(),
  field: z.string(),
  example: z.string(),
  exampleControlIds: z.array(z.string()),
}) satisfies z.ZodType<ErrorCount>;

/**
 * A {@link MonitorReport} as JSON, for every route that answers the report as JSON (the monitor's report route, the
 * analytics report download), so their OpenAPI documents and response checks agree.
 */
export const monitorReportSchema = z.object({
  generatedAt: z.string(),
  sinceHours: z.number(),
  windowStart: z.string(),
  windowEnd: z.string(),
  overallState: z.enum(MONITOR_STATES),
  totals: z.object({ messages: z.number(), failed: z.number(), interfaces: z.number() }),
  interfaces: z.array(z.object({ status: interfaceStatusSchema, metrics: interfaceMetricsSchema, topErrors: z.array(errorCountSchema) })),
  alerts: z.array(alertSchema),
}) satisfies z.ZodType<MonitorReport>;

// ---------------------------------------------------------------------------------------------------------------
// The query contract (what analytics, tracing, AI triage and admin build on). Stored messages are read through one
// filter object and a keyset cursor; roll-up reads never sum raw messages; alert rules plug in through a registry.
// ---------------------------------------------------------------------------------------------------------------

/** The standards the monitor reads. */
export type MonitoredStandard = 'hl7' | 'fhir' | 'ncpdp';

/** Software that sent a message (HL7 SFT-1, SFT-2, SFT-3, SFT-6; FHIR MessageHeader.source). */
export interface SendingSoftware {
  vendor: string | null;
  version: string | null;
  product: string | null;
  /** SFT-6 as an instant (ISO 8601 UTC), or the text as sent when it is not a valid timestamp. */
  installDate: string | null;
}

/**
 * The facts kept of every stored message, whatever its standard: the default projection of the query contract (no
 * raw text). Fields a standard does not carry are null (or empty).
 */
export interface MessageFacts {
  id: string;
  interfaceId: string;
  fileId: string;
  /** 0-based position of the message in its file. */
  indexInFile: number;
  standard: MonitoredStandard;
  /** When the settled file was seen (ISO 8601 UTC). */
  receivedAt: string;
  /** When the sender says it sent the message (HL7 MSH-7, FHIR MessageHeader/Bundle timestamp), ISO 8601 UTC. */
  messageTime: string | null;
  /** HL7 MSH-9.1 (`ADT`), FHIR event code or resource type, NCPDP transaction (`NewRx`, `B1`). */
  messageType: string | null;
  /** HL7 MSH-9.2 (`A01`); null elsewhere. */
  triggerEvent: string | null;
  /** HL7 MSH-12, FHIR version, NCPDP version. */
  version: string | null;
  /** HL7 MSH-10, FHIR MessageHeader/Bundle id, NCPDP message id. */
  controlId: string | null;
  sendingApplication: string | null;
  sendingFacility: string | null;
  receivingApplication: string | null;
  receivingFacility: string | null;
  /** HL7 MSH-13 sequence number; null when the sender does not use it. */
  sequenceNumber: number | null;
  /** HL7 MSA-2: the control id an acknowledgement answers. */
  acknowledgedControlId: string | null;
  /**
   * sha256 (hex) of the message's text as received, kept when raw retention drops the text: equal digests are exact
   * resends. Null for messages stored before the digest was kept.
   */
  contentDigest: string | null;
  software: SendingSoftware | null;
  /** Segment ids present, in first-seen order (Z-segments included); FHIR resource types; NCPDP segment ids. */
  segmentIds: string[];
  /** Every patient identifier with its assigning authority (HL7 PID-3 repetitions, FHIR Patient.identifier). */
  patientIds: Array<{ id: string; assigningAuthority: string | null }>;
  /** PID-18, else PV1-19 (FHIR: Encounter identifier). */
  accountNumber: string | null;
  /** PV1-19 (FHIR: Encounter identifier). */
  visitNumber: string | null;
  isValid: boolean;
  errors: StoredIssue[];
  warnings: StoredIssue[];
  /** receivedAt minus messageTime in ms, when within the latency horizon; else null (see `latencyClass`). */
  latencyMs: number | null;
  /** Whether the latency was usable (`ok`), unknown (`none`), older than the horizon (`stale`) or in the future (`skew`). */
  latencyClass: 'ok' | 'none' | 'stale' | 'skew';
}

/** Extra parts a reader may ask {@link MonitorStore.getMessage} or a query for. */
export type MessageInclude = 'raw';

/**
 * A stored message with the parts asked for: `raw` is present only when included (null once retention removed it).
 * `cursor` is the message's own position in the stable order: a consumer of {@link MonitorStore.streamMessages}
 * stores the cursor of the last message it handled and resumes after it (`after`) with nothing missed or repeated.
 */
export type MessageRecord = MessageFacts & { cursor: string; raw?: string | null };

/** A fact a reader may name in a projection (`fields`). */
export type MessageField = keyof MessageFacts;

/**
 * A stored message as a projection gives it: `id` and `cursor` always, and only the facts named in `fields`. With no
 * `fields`, `F` is every fact and this is {@link MessageRecord}. A reader names the few facts it uses, so the store
 * reads and maps only those columns:
 * ```ts
 * for await (const m of monitor.streamMessages({ since }, { fields: ['controlId', 'receivedAt'] })) m.controlId;
 * ```
 */
export type ProjectedRecord<F extends MessageField = MessageField> = Pick<MessageFacts, F | 'id'> & { cursor: string; raw?: string | null };

/**
 * Which stored messages a query means. Every given field narrows (AND); list fields match any of their values.
 * Times: `since` inclusive, `until` exclusive, on the received time.
 */
export interface MessageFilter {
  interfaceIds?: string[];
  since?: string | Date;
  until?: string | Date;
  /** A patient identifier; with `assigningAuthority` only that authority's identifier matches. */
  patientId?: string;
  assigningAuthority?: string;
  /** Account or visit number (PID-18 or PV1-19). */
  accountNumber?: string;
  controlId?: string;
  /** `ADT` matches every ADT event; `ADT^A01` only that event. */
  messageTypes?: string[];
  isValid?: boolean;
  /** Messages with at least one error of these codes. */
  errorCodes?: string[];
  sendingApplication?: string;
  sendingFacility?: string;
  standards?: MonitoredStandard[];
  /**
   * Words of the retained raw text (letters and digits; anything else separates words): messages whose text holds
   * every one, in any letter case, found through the database's full-text index (messages past raw retention have
   * no text and never match).
   */
  text?: string;
  /** The name of the file a message came from, or its path under the watched folder; `*` matches any characters. */
  fileName?: string;
}

/** Options of {@link MonitorStore.queryMessages}. */
export interface MessagePageOptions<F extends MessageField = MessageField> extends MessageStreamOptions<F> {
  /** Most messages in the page (1..1,000, default 100). */
  limit?: number;
}

/** Options of {@link MonitorStore.streamMessages}. */
export interface MessageStreamOptions<F extends MessageField = MessageField> {
  /** The `next` cursor of the previous page (or the `cursor` of the last message handled): reading starts just after it. */
  after?: string | null;
  include?: MessageInclude[];
  /**
   * The facts to read (a projection); every fact when absent. `id` and `cursor` are always present. The fewer, the
   * faster: only their columns are selected and mapped. An unknown name is refused (MESSAGE_FILTER_INVALID).
   */
  fields?: readonly F[];
}

/** A page of messages in the stable order (received time, file, index in file). */
export interface MessagePage<R = MessageRecord> {
  messages: R[];
  /**
   * Opaque cursor of the last message of the page, or null when no more match now. A consumer may store it and
   * resume after a restart: the order is stable, so nothing is missed or repeated.
   */
  next: string | null;
}

/** Bucket width of a series (the kernel's one step arithmetic, kernel/time-steps.ts). */
export type SeriesStep = TimeStep;

export { ROLLUP_METRICS, rollupMetricValue } from './rollups/rollup-metric.ts';
export type { MetricParts, RollupMetric } from './rollups/rollup-metric.ts';
import type { RollupMetric } from './rollups/rollup-metric.ts';
export type { ProjectionHandle } from './projections/projection-contract.ts';

/**
 * A derived table the monitor keeps from every committed message: a name, the facts it reads, and a fold of a batch
 * of messages into its own tables (see projections/projection-contract.ts and {@link MonitorService.registerProjection}).
 */
export type Projection<F extends MessageField = MessageField> = ProjectionOf<F, ProjectedRecord<F>, MessageInclude>;

/** Dimensions a top-N ranks by. */
export const ROLLUP_DIMENSIONS = ['interface', 'messageType', 'errorCode', 'facility'] as const;

/** One dimension of {@link ROLLUP_DIMENSIONS}. */
export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

/** The additive parts of a roll-up bucket (or of a whole window). */
export interface RollupParts {
  messages: number;
  failed: number;
  /** Sum and count of usable latencies (latencyClass `ok`). */
  latencySumMs: number;
  latencyCount: number;
  /** Messages whose latency was stale (older than the horizon) or in the future (clock skew). */
  staleLatency: number;
  clockSkew: number;
}

/** Query of {@link MonitorStore.series}. */
export interface SeriesQuery {
  /** Interfaces summed together; absent or empty means every interface. */
  interfaceIds?: string[];
  since: Date;
  until: Date;
  step: SeriesStep;
  metric: RollupMetric;
}

/** One bucket of a series: every bucket of the range is present, UTC-aligned, zeros included. */
export interface SeriesPoint extends RollupParts {
  /** Start of the bucket (ISO 8601 UTC). */
  start: string;
  /** The metric's value; null where it is undefined (a rate or latency of a bucket without messages). */
  value: number | null;
}

/** Query of {@link MonitorStore.topN}. */
export interface TopNQuery {
  by: RollupDimension;
  metric: RollupMetric;
  since: Date;
  until?: Date;
  /** 1..100 (default 10). */
  n?: number;
  interfaceIds?: string[];
}

/** One row of a top-N. */
export interface TopNRow extends RollupParts {
  /** The dimension value (interface id, `ADT^A01`, error code, sending facility). */
  key: string;
  /** What a person reads (interface name; the key elsewhere). */
  label: string;
  value: number | null;
  /** This row's share of the metric over all values of the dimension in the window (0..1); null for non-additive metrics. */
  share: number | null;
}

/** Totals of a window, with the derived metrics. */
export interface WindowTotals extends RollupParts {
  successful: number;
  errorRate: number | null;
  averageLatencyMs: number | null;
  p99LatencyMs: number | null;
}

/** A registered alert rule (the extension point of the monitor's alerting). */
export interface AlertRule {
  /** Rule key; the episodes it raises carry it (`sla-breach`, `vendor-upgrade`). Unique. */
  key: string;
  /**
   * Judges one interface after a commit that touched it and on every periodic check: returns the condition now, or
   * undefined to leave the episode as it is. Reads committed data only.
   */
  evaluate(monitored: MonitoredInterface, context: AlertRuleContext): Promise<AlertCondition | undefined>;
}

/** What an alert rule may read while judging. */
export interface AlertRuleContext {
  /** The judging instant (the kernel clock). */
  nowMs: number;
  store: MonitorStore;
}

/** The outcome of an alert rule for an interface: an open episode (with its words) or none. */
export type AlertCondition =
  | { active: false }
  | { active: true; severity: AlertSeverity; title: string; message: string };

/**
 * The store's query contract: what other plugins read. Registered as part of {@link MonitorService}.
 */
export interface MonitorStore {
  /** A page of messages matching the filter, in the stable order (received time, file, index). */
  queryMessages<F extends MessageField = MessageField>(filter: MessageFilter, options?: MessagePageOptions<F>): Promise<MessagePage<ProjectedRecord<F>>>;
  /** Every message matching the filter, in the stable order, read page by page (memory stays flat). */
  streamMessages<F extends MessageField = MessageField>(filter: MessageFilter, options?: MessageStreamOptions<F>): AsyncIterable<ProjectedRecord<F>>;
  /** One message by id; raw text only when asked for. */
  getMessage(id: string, options?: { include?: MessageInclude[] }): Promise<MessageRecord | undefined>;
  /** Count of messages matching the filter (bounded by indexes on the filter's keys). */
  countMessages(filter: MessageFilter): Promise<number>;
  /** A metric bucketed by minute, hour or day, from the roll-ups. */
  series(query: SeriesQuery): Promise<SeriesPoint[]>;
  /** The top values of a dimension by a metric over a window, from the roll-ups. */
  topN(query: TopNQuery): Promise<TopNRow[]>;
  /** Totals of a window (of some interfaces, or all). */
  totals(window: TimeWindow, interfaceIds?: string[]): Promise<WindowTotals>;
}

/** Summary of one message of an ingested file (payload of `message.ingested`). */
export interface IngestedMessageSummary {
  id: string;
  indexInFile: number;
  messageType: string | null;
  triggerEvent: string | null;
  controlId: string | null;
  patientIds: string[];
  accountNumber: string | null;
  isValid: boolean;
  errorCodes: string[];
  latencyMs: number | null;
}

/** Payload of `message.ingested`: emitted once per committed file (or appended part), after the commit. */
export interface MessageIngestedEvent {
  interfaceId: string;
  interfaceName: string;
  fileId: string;
  /** Path of the file relative to the watched folder. */
  path: string;
  receivedAt: string;
  messages: IngestedMessageSummary[];
}

/** Payload of `alert.raised` and `alert.cleared`. */
export interface AlertEvent {
  alert: Alert;
}

/** Payload of `alert.acknowledged`. */
export interface AlertAcknowledgedEvent {
  alert: Alert;
}

/** Payload of `monitor.interface.changed` (created, updated) and `monitor.interface.deleted`. */
export interface InterfaceChangedEvent {
  interfaceId: string;
  /** The interface after the change; absent for a deletion. */
  monitored?: MonitoredInterface;
}

declare module '../../kernel/events.ts' {
  interface WorkbenchEvents {
    'monitor.interface.changed': InterfaceChangedEvent;
    'monitor.interface.deleted': InterfaceChangedEvent;
    'message.ingested': MessageIngestedEvent;
    'alert.raised': AlertEvent;
    'alert.cleared': AlertEvent;
    /** An open episode's severity rose: the same alert, with its new severity and words. */
    'alert.escalated': AlertEvent;
    'alert.acknowledged': AlertAcknowledgedEvent;
  }
}
