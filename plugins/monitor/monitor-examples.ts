/**
 * Example requests and answers of the monitor routes (interfaces, alerts, metrics, status, report), shown in the
 * monitor base's OpenAPI document: the docs page pre-fills "Try it out" with them. One story runs through them: an
 * Epic ADT feed dropped as files into a spool folder, a few of whose messages fail validation.
 */

/** Id of the example interface. */
const INTERFACE_ID = '5f0c2a7e-3b1d-4c8e-9a61-2d4f7b9e1c30';
const INTERFACE_NAME = 'ADT inbound (Epic)';

/** The example interface as the routes answer it. */
const EPIC_ADT = {
  id: INTERFACE_ID,
  name: INTERFACE_NAME,
  standard: 'hl7',
  directoryPath: '/var/spool/hl7/epic-adt',
  filePattern: '*.hl7',
  profileName: 'acme-adt',
  validationMode: 'strict',
  enabled: true,
  recursive: false,
  usePolling: false,
  alertRules: { errorRateWarning: 0.05, errorRateCritical: 0.2, windowMinutes: 15 },
  createdAt: '2026-01-12T08:15:42.118Z',
  updatedAt: '2026-01-12T08:15:42.118Z',
  placement: 'pinned',
  pinnedNode: 'integration-01-3f9a1c2e',
  owner: { node: 'integration-01-3f9a1c2e', since: '2026-01-12T08:15:42.120Z' },
  ownerProblem: null,
};

/** An open error-rate alert of the example interface. */
const ERROR_RATE_ALERT = {
  id: '9eaf3941-fc4f-4ca0-9d01-ca14f64ecfa4',
  interfaceId: INTERFACE_ID,
  interfaceName: INTERFACE_NAME,
  severity: 'warning',
  title: `Error rate 7.1 % on ${INTERFACE_NAME}`,
  message: '3 of 42 messages failed validation in the last 15 minutes (7.1 %). Warning threshold: 5 %.',
  triggeredAt: '2026-01-15T09:12:03.417Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
  rule: 'error-rate',
  clearedAt: null,
  escalatedAt: null,
};

const hours = ['2026-01-15T07:00:00.000Z', '2026-01-15T08:00:00.000Z', '2026-01-15T09:00:00.000Z'];

/** Metrics of the example interface over the last 3 hours. */
const METRICS = {
  interfaceId: INTERFACE_ID,
  sinceHours: 3,
  windowStart: hours[0],
  windowEnd: '2026-01-15T09:30:00.000Z',
  messagesTotal: 412,
  messagesSuccessful: 405,
  messagesFailed: 7,
  successRate: 0.983,
  averageLatencyMs: 1840,
  p99LatencyMs: 5120,
  staleLatency: 0,
  clockSkew: 0,
  totalMessagesProcessed: 412,
  totalErrors: 7,
  totalSuccesses: 405,
  errorRate: 0.017,
  lastMessageAt: '2026-01-15T09:29:51.204Z',
  startedAt: '2026-01-15T06:58:10.531Z',
  uptimeSeconds: 9109,
  hourlyBreakdown: [
    { hour: hours[0], messagesProcessed: 131, errors: 1, successes: 130 },
    { hour: hours[1], messagesProcessed: 168, errors: 2, successes: 166 },
    { hour: hours[2], messagesProcessed: 113, errors: 4, successes: 109 },
  ],
};

/** The example interface's status while its alert is open. */
const STATUS = {
  interfaceId: INTERFACE_ID,
  name: INTERFACE_NAME,
  enabled: true,
  state: 'degraded',
  reason: ERROR_RATE_ALERT.title,
  lastMessageAt: METRICS.lastMessageAt,
  openAlerts: [ERROR_RATE_ALERT],
};

/** Examples of every monitor route, by route. */
export const MONITOR_EXAMPLES = {
  listInterfaces: { response: [EPIC_ADT] },
  createInterface: {
    body: {
      name: INTERFACE_NAME,
      standard: 'hl7',
      directoryPath: '/var/spool/hl7/epic-adt',
      filePattern: '*.hl7',
      profileName: 'acme-adt',
      validationMode: 'strict',
      alertRules: { errorRateWarning: 0.05, errorRateCritical: 0.2, windowMinutes: 15 },
    },
    response: EPIC_ADT,
  },
  getInterface: { params: { id: INTERFACE_ID }, response: EPIC_ADT },
  updateInterface: {
    params: { id: INTERFACE_ID },
    body: { filePattern: '*.{hl7,txt}', alertRules: { errorRateWarning: 0.02, errorRateCritical: 0.1, windowMinutes: 30 } },
    response: {
      ...EPIC_ADT,
      filePattern: '*.{hl7,txt}',
      alertRules: { errorRateWarning: 0.02, errorRateCritical: 0.1, windowMinutes: 30 },
      updatedAt: '2026-01-15T10:02:17.860Z',
    },
  },
  deleteInterface: { params: { id: INTERFACE_ID }, response: { id: INTERFACE_ID, removed: true } },
  listNodes: {
    response: [
      {
        name: 'integration-01-3f9a1c2e',
        version: '1.0.0',
        host: 'integration-01',
        pid: 4211,
        startedAt: '2026-01-12T08:10:03.511Z',
        lastHeartbeatAt: '2026-01-15T10:02:11.007Z',
        live: true,
        self: true,
        interfaces: [INTERFACE_ID],
      },
    ],
  },
  activity: {
    response: { node: 'integration-01-3f9a1c2e', idle: true, settling: 0, queued: 0, held: 0, lastIngestEndedAt: '2026-01-15T09:29:58.120Z', checkedAt: '2026-01-15T09:30:00.412Z' },
  },
  rescan: {
    response: { node: 'integration-01-3f9a1c2e', idle: true, settling: 0, queued: 0, held: 0, lastIngestEndedAt: '2026-01-15T09:31:02.007Z', checkedAt: '2026-01-15T09:31:02.310Z' },
  },
  removeNode: { params: { name: 'integration-02-77c1d0aa' }, response: { name: 'integration-02-77c1d0aa', removed: true } },
  listAlerts: {
    query: { severity: 'warning', sinceHours: 24, interfaceId: INTERFACE_ID },
    response: [ERROR_RATE_ALERT],
  },
  acknowledgeAlert: {
    params: { id: ERROR_RATE_ALERT.id },
    response: { ...ERROR_RATE_ALERT, acknowledgedAt: '2026-01-15T09:20:45.002Z', acknowledgedBy: 'jwt jane.doe' },
  },
  metrics: { params: { id: INTERFACE_ID }, query: { sinceHours: 3 }, response: METRICS },
  status: { response: { state: 'degraded', checkedAt: '2026-01-15T09:30:00.412Z', interfaces: [STATUS] } },
  report: {
    query: { format: 'json', sinceHours: 3 },
    response: {
      generatedAt: '2026-01-15T09:30:00.000Z',
      sinceHours: 3,
      windowStart: hours[0],
      windowEnd: '2026-01-15T09:30:00.000Z',
      overallState: 'degraded',
      totals: { messages: 412, failed: 7, interfaces: 1 },
      interfaces: [
        {
          status: STATUS,
          metrics: METRICS,
          topErrors: [
            {
              code: 'REQUIRED_FIELD_MISSING',
              field: 'PID.3',
              count: 5,
              example: 'PID.3 (Patient Identifier List) is required in ADT^A01 v2.5.1 but is empty.',
              exampleControlIds: ['MSG000118', 'MSG000131', 'MSG000140'],
            },
            {
              code: 'SEGMENT_MISSING',
              field: 'PV1',
              count: 2,
              example: 'Segment PV1 (Patient visit) is required in ADT^A01 v2.5.1 but is missing.',
              exampleControlIds: ['MSG000122', 'MSG000307'],
            },
          ],
        },
      ],
      alerts: [ERROR_RATE_ALERT],
    },
  },
};
