/**
 * Example requests and answers of the admin routes (roles, workspaces, feature flags, SLAs, observability and the
 * Prometheus metrics), shown in the monitor base's OpenAPI document: the docs page pre-fills "Try it out" with them.
 * They follow one workspace, Radiology Integrations, holding an Epic ADT feed with a 99.5 % uptime SLA.
 */

/** A monitored interface (its id as the monitor gave it). */
const INTERFACE_ID = '5f0c2a7e-3b1d-4c8e-9a61-2d4f7b9e1c30';
const INTERFACE_NAME = 'ADT inbound (Epic)';
const WORKSPACE_ID = 'radiology-integrations';
const USER_ID = 'jane.doe@stmarys-health.org';

const SLA = { interfaceId: INTERFACE_ID, uptimeTarget: 99.5, maxResponseMs: 2000, alertThresholdPercent: 80 };
const STORED_SLA = { ...SLA, createdAt: '2026-01-12T08:20:05.311Z', updatedAt: '2026-01-12T08:20:05.311Z' };

/** One breach: the folder was unreachable for 47 minutes during a file-server restart. */
const BREACH = {
  from: '2026-01-09T02:13:00.000Z',
  to: '2026-01-09T03:00:00.000Z',
  minutes: 47,
  downMinutes: 47,
  slowMinutes: 0,
  reasons: ['unreachable'],
};

const WINDOW = { from: '2025-12-16T00:00:00.000Z', to: '2026-01-15T00:00:00.000Z' };

const WORKSPACE = {
  id: WORKSPACE_ID,
  name: 'Radiology Integrations',
  description: 'HL7 feeds between Epic and the radiology PACS and RIS',
  createdAt: '2026-01-12T08:18:40.052Z',
  members: [{ userId: USER_ID, role: 'MonitorOperator', addedAt: '2026-01-12T08:19:12.730Z' }],
  interfaceIds: [INTERFACE_ID],
};

/** A short scrape of `GET /metrics` (Prometheus text format 0.0.4). */
const PROMETHEUS_TEXT = [
  '# HELP workbench_process_cpu_seconds_total Total user and system CPU time spent in seconds.',
  '# TYPE workbench_process_cpu_seconds_total counter',
  'workbench_process_cpu_seconds_total 41.82',
  '',
  '# HELP workbench_messages_ingested_total Messages read from watched folders since start, by interface.',
  '# TYPE workbench_messages_ingested_total counter',
  `workbench_messages_ingested_total{interface_id="${INTERFACE_ID}"} 412`,
  '',
  '# HELP workbench_messages_failed_total Messages read from watched folders since start that failed validation, by interface.',
  '# TYPE workbench_messages_failed_total counter',
  `workbench_messages_failed_total{interface_id="${INTERFACE_ID}"} 7`,
  '',
  '# HELP workbench_monitor_queue_depth Settled files waiting to be read by the monitor.',
  '# TYPE workbench_monitor_queue_depth gauge',
  'workbench_monitor_queue_depth 0',
  '',
].join('\n');

/** Examples of every admin route, by route. */
export const ADMIN_EXAMPLES = {
  listRoles: {
    response: {
      assignments: [
        { userId: 'it-admin@stmarys-health.org', role: 'MonitorAdmin', assignedAt: '2026-01-05T14:02:11.904Z' },
        { userId: USER_ID, role: 'MonitorOperator', assignedAt: '2026-01-12T08:19:12.730Z' },
      ],
      validRoles: ['MonitorAdmin', 'MonitorOperator', 'MonitorViewer'],
    },
  },
  assignRole: {
    body: { userId: USER_ID, role: 'MonitorOperator' },
    response: { userId: USER_ID, role: 'MonitorOperator', assignedAt: '2026-01-15T09:41:27.118Z', previousRole: 'MonitorViewer' },
  },
  revokeRole: { params: { userId: USER_ID }, response: { userId: USER_ID, revokedRole: 'MonitorOperator' } },
  listWorkspaces: { response: [WORKSPACE] },
  createWorkspace: {
    body: { name: WORKSPACE.name, description: WORKSPACE.description },
    response: { ...WORKSPACE, members: [], interfaceIds: [] },
  },
  getWorkspace: { params: { id: WORKSPACE_ID }, response: WORKSPACE },
  deleteWorkspace: { params: { id: WORKSPACE_ID }, response: { id: WORKSPACE_ID, deleted: true } },
  addMember: {
    params: { id: WORKSPACE_ID },
    body: { userId: USER_ID, role: 'MonitorOperator' },
    response: WORKSPACE.members[0],
  },
  removeMember: {
    params: { id: WORKSPACE_ID, userId: USER_ID },
    response: { id: WORKSPACE_ID, userId: USER_ID, removed: true },
  },
  addInterface: {
    params: { id: WORKSPACE_ID },
    body: { interfaceId: INTERFACE_ID },
    response: { id: WORKSPACE_ID, interfaceId: INTERFACE_ID },
  },
  removeInterface: {
    params: { id: WORKSPACE_ID, interfaceId: INTERFACE_ID },
    response: { id: WORKSPACE_ID, interfaceId: INTERFACE_ID, removed: true },
  },
  listFlags: {
    response: {
      defaults: { betaDashboards: false, aiTriage: false },
      global: { betaDashboards: false, aiTriage: false },
      stored: [{ name: 'betaDashboards', workspaceId: WORKSPACE_ID, enabled: true, updatedAt: '2026-01-14T16:05:33.250Z' }],
    },
  },
  setFlag: {
    params: { name: 'betaDashboards' },
    body: { enabled: true, workspaceId: WORKSPACE_ID },
    response: { name: 'betaDashboards', workspaceId: WORKSPACE_ID, enabled: true, updatedAt: '2026-01-14T16:05:33.250Z' },
  },
  removeFlag: {
    params: { name: 'betaDashboards' },
    query: { workspaceId: WORKSPACE_ID },
    response: { name: 'betaDashboards', workspaceId: WORKSPACE_ID, removed: true },
  },
  defineSla: { body: SLA, response: { sla: STORED_SLA, created: true } },
  getSla: { params: { interfaceId: INTERFACE_ID }, response: STORED_SLA },
  removeSla: { params: { interfaceId: INTERFACE_ID }, response: { interfaceId: INTERFACE_ID, removed: true } },
  evaluateSlas: { response: { alerted: [INTERFACE_ID] } },
  slaReport: {
    params: { interfaceId: INTERFACE_ID },
    query: { from: '2025-12-16', to: '2026-01-15' },
    response: {
      interfaceId: INTERFACE_ID,
      ...WINDOW,
      clampedToNow: false,
      requestedFrom: '2025-12-16T00:00:00.000Z',
      sla: SLA,
      minutes: { total: 43200, up: 43153, down: 47, notObserved: 0, unreachable: 47, disabled: 0, slow: 0 },
      uptimePercent: 99.8912,
      messages: { total: 128406, failed: 1391, withLatency: 128406, withinMaxResponse: 127950 },
      withinMaxResponsePercent: 99.6449,
      errorRatePercent: 1.0833,
      errorBudget: { allowedDownMinutes: 216, usedDownMinutes: 47, usedPercent: 21.7593, exhausted: false },
      breaches: [BREACH],
      breachCount: 1,
      uptimeMet: true,
      responseMet: true,
      met: true,
      alertThresholdReached: false,
    },
  },
  workspaceSla: {
    params: { orgId: WORKSPACE_ID },
    query: { from: '2025-12-16', to: '2026-01-15' },
    response: {
      orgId: WORKSPACE_ID,
      name: WORKSPACE.name,
      ...WINDOW,
      summary: {
        interfaces: 1,
        withSla: 1,
        met: 1,
        notMet: 0,
        uptimePercent: 99.8912,
        withinMaxResponsePercent: 99.6449,
        errorRatePercent: 1.0833,
        messages: 128406,
        breaches: 1,
      },
      interfaces: [
        {
          interfaceId: INTERFACE_ID,
          name: INTERFACE_NAME,
          sla: SLA,
          uptimePercent: 99.8912,
          withinMaxResponsePercent: 99.6449,
          errorRatePercent: 1.0833,
          breachCount: 1,
          met: true,
        },
      ],
    },
  },
  workspaceViolations: {
    params: { orgId: WORKSPACE_ID },
    query: { from: '2025-12-16', to: '2026-01-15' },
    response: { orgId: WORKSPACE_ID, ...WINDOW, total: 1, violations: [{ ...BREACH, interfaceId: INTERFACE_ID, name: INTERFACE_NAME }] },
  },
  cost: {
    response: {
      measuredAt: '2026-01-15T09:30:00.000Z',
      process: { cpuSeconds: 5120.4, uptimeSeconds: 259200, cpuCoreShare: 0.019755, rssBytes: 241172480, heapUsedBytes: 98566144 },
      storage: { dialect: 'sqlite', dataDirBytes: 418381824, databaseBytes: 402653184, totalBytes: 418381824 },
      messages: {
        stored: 128406,
        perDay: [
          { day: '2026-01-13', messages: 4212 },
          { day: '2026-01-14', messages: 4388 },
          { day: '2026-01-15', messages: 1904 },
        ],
        growthPerDay: 4280,
        bytesPerMessage: 3258.3,
      },
      estimate: {
        currency: 'USD',
        rates: { currency: 'USD', cpuCoreHour: 0.04, memoryGiBHour: 0.005, storageGiBMonth: 0.1 },
        monthly: 1.4746,
        cpu: 0.5768,
        memory: 0.8199,
        storage: 0.0779,
        storageNextMonthBytes: 836747544,
        formula:
          'monthly = cpuCoreShare × 730 h × cpuCoreHour + rssGiB × 730 h × memoryGiBHour + (storageGiB + bytesPerMessage × messagesPerDay × 30 / 2^30) × storageGiBMonth',
      },
    },
  },
  prometheus: { response: PROMETHEUS_TEXT },
};
