/**
 * Test kit: a whole report as the monitor's `buildReport` answers it, for tests of what renders or sends a report.
 * One interface, with the figures and texts a test names; everything else a plausible default.
 */
import type { MonitorReport } from '../../plugins/monitor/api.ts';

/** What a test chooses of the sample report. */
export interface SampleReportFacts {
  interfaceName?: string;
  messages?: number;
  failed?: number;
  p99LatencyMs?: number | null;
  alertTitle?: string;
}

/** A report of the day before 2026-06-10T12:00Z with one interface, one top error and one alert. */
export function sampleReport(facts: SampleReportFacts = {}): MonitorReport {
  const { interfaceName = 'ADT inbound', messages = 1234, failed = 56, p99LatencyMs = 5120, alertTitle = 'Error rate high' } = facts;
  const windowStart = '2026-06-09T12:00:00.000Z';
  const windowEnd = '2026-06-10T12:00:00.000Z';
  const lastMessageAt = '2026-06-10T11:59:00.000Z';
  const errorRate = messages > 0 ? failed / messages : null;
  const alert = {
    id: 'a1',
    interfaceId: 'i1',
    interfaceName,
    severity: 'warning' as const,
    title: alertTitle,
    message: `${failed} of ${messages} messages failed`,
    triggeredAt: '2026-06-10T09:00:00.000Z',
    acknowledgedAt: null,
    acknowledgedBy: null,
    rule: 'error-rate',
    clearedAt: null,
    escalatedAt: null,
  };
  return {
    generatedAt: windowEnd,
    sinceHours: 24,
    windowStart,
    windowEnd,
    overallState: 'degraded',
    totals: { messages, failed, interfaces: 1 },
    interfaces: [
      {
        status: { interfaceId: 'i1', name: interfaceName, enabled: true, state: 'degraded', reason: 'error rate above the warning threshold', lastMessageAt, openAlerts: [alert] },
        metrics: {
          interfaceId: 'i1',
          sinceHours: 24,
          windowStart,
          windowEnd,
          messagesTotal: messages,
          messagesSuccessful: messages - failed,
          messagesFailed: failed,
          successRate: errorRate === null ? null : 1 - errorRate,
          averageLatencyMs: 900,
          p99LatencyMs,
          staleLatency: 0,
          clockSkew: 0,
          totalMessagesProcessed: messages,
          totalErrors: failed,
          totalSuccesses: messages - failed,
          errorRate,
          lastMessageAt,
          startedAt: '2026-06-01T00:00:00.000Z',
          uptimeSeconds: 820_800,
          hourlyBreakdown: [{ hour: '2026-06-10T11:00:00.000Z', messagesProcessed: messages, errors: failed, successes: messages - failed }],
        },
        topErrors: [{ code: 'REQUIRED_FIELD_MISSING', field: 'PID.3', count: failed, example: 'PID.3 is required but empty.', exampleControlIds: ['MSG1'] }],
      },
    ],
    alerts: [alert],
  };
}
