/**
 * Example requests and answers of the analytics routes, shown in the monitor base's OpenAPI document (the docs page
 * pre-fills "Try it out" with them). The story: the Epic ADT feed of the monitor's examples on a January morning.
 */
import type { Alert, MonitorReport } from '../monitor/api.ts';

const INTERFACE_ID = '5f0c2a7e-3b1d-4c8e-9a61-2d4f7b9e1c30';
const parts = (messages: number, failed: number) => ({
  messages,
  failed,
  latencySumMs: messages * 1800,
  latencyCount: messages,
  staleLatency: 0,
  clockSkew: 0,
});

const ALERT: Alert = {
  id: '9eaf3941-fc4f-4ca0-9d01-ca14f64ecfa4',
  interfaceId: INTERFACE_ID,
  interfaceName: 'ADT inbound (Epic)',
  severity: 'warning',
  title: 'Error rate 7.1 % on ADT inbound (Epic)',
  message: '3 of 42 messages failed validation in the last 15 minutes (7.1 %). Warning threshold: 5 %.',
  triggeredAt: '2026-01-15T09:12:03.417Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
  rule: 'error-rate-warning',
  clearedAt: null,
  escalatedAt: null,
};

const SCHEDULE = {
  id: '3c5e1f0a-8d2b-4e7c-9f61-0a2b4c6d8e10',
  frequency: 'daily',
  format: 'html',
  recipients: ['integration-team@hospital.example'],
  hour: 7,
  timeZone: 'Europe/Berlin',
  interfaceIds: [],
  createdAt: '2026-01-12T08:20:00.000Z',
  lastRunAt: '2026-01-15T06:00:00.412Z',
  lastSuccessAt: '2026-01-15T06:00:00.412Z',
  lastFailureAt: null,
  lastFailureReason: null,
  consecutiveFailures: 0,
  cron: '0 7 * * *',
};

/** The report of the example window (a day to 10:00), as the JSON format answers it. */
const WINDOW_START = '2026-01-14T10:00:00.000Z';
const WINDOW_END = '2026-01-15T10:00:00.000Z';
const LAST_MESSAGE_AT = '2026-01-15T09:58:41.207Z';
const REPORT: MonitorReport = {
  generatedAt: '2026-01-15T10:00:00.318Z',
  sinceHours: 24,
  windowStart: WINDOW_START,
  windowEnd: WINDOW_END,
  overallState: 'degraded',
  totals: { messages: 3210, failed: 7, interfaces: 1 },
  interfaces: [
    {
      status: {
        interfaceId: INTERFACE_ID,
        name: 'ADT inbound (Epic)',
        enabled: true,
        state: 'degraded',
        reason: 'error rate 7.1 % over the last 15 minutes (warning at 5 %)',
        lastMessageAt: LAST_MESSAGE_AT,
        openAlerts: [ALERT],
      },
      metrics: {
        interfaceId: INTERFACE_ID,
        sinceHours: 24,
        windowStart: WINDOW_START,
        windowEnd: WINDOW_END,
        messagesTotal: 3210,
        messagesSuccessful: 3203,
        messagesFailed: 7,
        successRate: 3203 / 3210,
        averageLatencyMs: 1800,
        p99LatencyMs: 5120,
        staleLatency: 0,
        clockSkew: 0,
        totalMessagesProcessed: 3210,
        totalErrors: 7,
        totalSuccesses: 3203,
        errorRate: 7 / 3210,
        lastMessageAt: LAST_MESSAGE_AT,
        startedAt: '2026-01-12T08:15:42.118Z',
        uptimeSeconds: 265_458,
        hourlyBreakdown: [],
      },
      topErrors: [
        {
          code: 'REQUIRED_FIELD_MISSING',
          field: 'PID.5',
          count: 5,
          example: 'PID.5 (Patient Name) is required in ADT^A01 v2.5.1 but is empty.',
          exampleControlIds: ['MSG00412', 'MSG00418', 'MSG00431'],
        },
        {
          code: 'INVALID_DATE',
          field: 'PID.7',
          count: 2,
          example: 'PID.7 (Date/Time of Birth) "19801332" is not a valid date.',
          exampleControlIds: ['MSG00377', 'MSG00402'],
        },
      ],
    },
  ],
  alerts: [ALERT],
};

/** Examples by route. */
export const ANALYTICS_EXAMPLES = {
  timeseries: {
    query: { interfaceId: INTERFACE_ID, since: '2026-01-15T07:00:00Z', until: '2026-01-15T10:00:00Z', granularity: 'oneHour', metric: 'messagesFailed' },
    response: {
      interfaceId: INTERFACE_ID,
      metric: 'messagesFailed',
      granularity: 'oneHour',
      since: '2026-01-15T07:00:00.000Z',
      until: '2026-01-15T10:00:00.000Z',
      points: [
        { start: '2026-01-15T07:00:00.000Z', value: 1, messages: 131, failed: 1 },
        { start: '2026-01-15T08:00:00.000Z', value: 0, messages: 140, failed: 0 },
        { start: '2026-01-15T09:00:00.000Z', value: 6, messages: 141, failed: 6 },
      ],
    },
  },
  topn: {
    query: { by: 'errorCode', metric: 'messagesFailed', n: 3, since: '2026-01-14T10:00:00Z' },
    response: {
      by: 'errorCode',
      metric: 'messagesFailed',
      n: 3,
      since: '2026-01-14T10:00:00.000Z',
      until: '2026-01-15T10:00:00.000Z',
      rows: [
        { key: 'REQUIRED_FIELD_MISSING', label: 'REQUIRED_FIELD_MISSING', value: 5, share: 0.714, ...parts(5, 5) },
        { key: 'INVALID_DATE', label: 'INVALID_DATE', value: 2, share: 0.286, ...parts(2, 2) },
      ],
    },
  },
  query: {
    body: { filters: { interfaceId: INTERFACE_ID, status: 'invalid', severity: 'warning' }, since: '2026-01-15T00:00:00Z', limit: 1 },
    response: {
      since: '2026-01-15T00:00:00.000Z',
      until: '2026-01-15T10:00:00.000Z',
      messages: [
        {
          id: '0b7e4c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b',
          interfaceId: INTERFACE_ID,
          fileId: '8812',
          indexInFile: 0,
          standard: 'hl7',
          receivedAt: '2026-01-15T09:11:58.120Z',
          messageTime: '2026-01-15T09:11:55.000Z',
          messageType: 'ADT',
          triggerEvent: 'A01',
          version: '2.5.1',
          controlId: 'MSG00412',
          sendingApplication: 'EPIC',
          sendingFacility: 'MAIN',
          receivingApplication: 'WORKBENCH',
          receivingFacility: 'MAIN',
          sequenceNumber: null,
          acknowledgedControlId: null,
          software: null,
          segmentIds: ['MSH', 'EVN', 'PID', 'PV1'],
          patientIds: [{ id: 'MRN004411', assigningAuthority: 'HOSP' }],
          accountNumber: 'ACC77120',
          visitNumber: 'V55102',
          isValid: false,
          errors: [{ field: 'PID.5', code: 'REQUIRED_FIELD_MISSING', severity: 'error', message: 'PID.5 (Patient Name) is required.' }],
          warnings: [],
          latencyMs: 3120,
          latencyClass: 'ok',
          contentDigest: '9f2b6c1e0d4a7b3c5e8f1a2d4c6b8e0f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b',
        },
      ],
      next: 'MTc2ODQ2ODMxODEyMHxmMXwz',
      totals: { messages: 7, alerts: 1, alertsBySeverity: { critical: 0, warning: 1, info: 0 }, openAlerts: 1 },
      alerts: [ALERT],
    },
  },
  dashboard: {
    params: { template: 'overview' },
    query: { since: '2026-01-14T10:00:00Z' },
    response: {
      template: 'overview',
      title: 'Overview',
      description: 'Every interface together.',
      interfaceId: null,
      since: '2026-01-14T10:00:00.000Z',
      until: '2026-01-15T10:00:00.000Z',
      granularity: 'oneHour',
      panels: [
        {
          id: 'totals',
          kind: 'totals',
          title: 'Totals, error rate and p99 latency',
          data: { ...parts(3210, 7), successful: 3203, errorRate: 0.0022, averageLatencyMs: 1800, p99LatencyMs: 5120 },
        },
        { id: 'openAlerts', kind: 'alerts', title: 'Open alerts', data: { total: 1, alerts: [ALERT] } },
      ],
    },
  },
  csv: {
    query: { interfaceId: INTERFACE_ID, since: '2026-01-15T07:00:00Z', until: '2026-01-15T09:00:00Z', granularity: 'oneHour' },
    response:
      'bucketStart,interfaceId,granularity,metric,value,messages,failed,successful\r\n' +
      `2026-01-15T07:00:00.000Z,${INTERFACE_ID},oneHour,messagesTotal,131,131,1,130\r\n` +
      `2026-01-15T08:00:00.000Z,${INTERFACE_ID},oneHour,messagesTotal,140,140,0,140\r\n`,
  },
  generate: { body: { format: 'json', since: '2026-01-14T10:00:00Z' }, response: REPORT },
  schedule: {
    body: { frequency: 'daily', format: 'html', recipients: ['integration-team@hospital.example'], hour: 7, timeZone: 'Europe/Berlin' },
    response: SCHEDULE,
  },
  schedules: { response: [SCHEDULE] },
  scheduleId: { params: { id: SCHEDULE.id }, response: SCHEDULE },
  run: {
    params: { id: SCHEDULE.id },
    response: { delivered: true, attempts: 1, reason: null, schedule: SCHEDULE },
  },
};
