/**
 * Test kit: an in-memory monitor keeping the contract of plugins/monitor/api.ts for the parts another plugin reads
 * and writes most (interfaces, alerts as episodes, minute series), so the engines of a plugin built on the monitor
 * are tested without a service or a store. It keeps the contract's rules, not a copy of the monitor's code: an alert
 * with a rule is one episode per interface and rule until cleared, a higher severity escalates the open one, one
 * without a rule is a one-off closed at once; an unknown interface is NOT_FOUND; a series has every bucket of the
 * range, UTC-aligned, zeros included, its ratios computed from summed parts. What it does not hold it refuses with a
 * clear error rather than answering something made up.
 */
import { randomUUID } from 'node:crypto';
import { rollupMetricValue } from '../../plugins/monitor/api.ts';
import type { Alert, AlertSeverity, MetricParts, MinuteRollup, MonitoredInterface, MonitorService, RaiseAlertInput, SeriesPoint, SeriesQuery } from '../../plugins/monitor/api.ts';

/** The part of the monitor's service the in-memory monitor keeps. */
export type InMemoryMonitorContract = Pick<
  MonitorService,
  'listInterfaces' | 'getInterface' | 'interfaceExists' | 'listAlerts' | 'raiseAlert' | 'clearAlert' | 'series'
>;

const STEP_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
const SEVERITY_RANK: Record<AlertSeverity, number> = { info: 0, warning: 1, critical: 2 };

/** A contract error as the monitor throws it: the code a caller tells apart. */
export class InMemoryMonitorError extends Error {
  constructor(
    readonly code: 'INTERFACE_NOT_FOUND',
    message: string,
  ) {
    super(message);
  }
}

/** The monitor's contract in memory; `now` is the clock alerts are stamped with. */
export class InMemoryMonitor implements InMemoryMonitorContract {
  private readonly interfaces = new Map<string, MonitoredInterface>();
  private readonly alerts: Alert[] = [];
  private readonly minutes: MinuteRollup[] = [];

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Adds an interface (defaults for what is not given) and answers it. */
  addInterface(fields: Partial<MonitoredInterface> & Pick<MonitoredInterface, 'id'>): MonitoredInterface {
    const at = this.now().toISOString();
    const monitored: MonitoredInterface = {
      name: fields.id,
      standard: 'auto',
      directoryPath: `/in-memory/${fields.id}`,
      filePattern: '*.hl7',
      profileName: null,
      validationMode: 'compatibility',
      enabled: true,
      recursive: false,
      usePolling: false,
      alertRules: {},
      createdAt: at,
      updatedAt: at,
      ...fields,
    };
    this.interfaces.set(monitored.id, monitored);
    return monitored;
  }

  /** Adds minute rows, as the ingest would have committed them. */
  addMinutes(rows: MinuteRollup[]): void {
    this.minutes.push(...rows);
  }

  async listInterfaces(): Promise<MonitoredInterface[]> {
    return [...this.interfaces.values()];
  }

  async getInterface(id: string): Promise<MonitoredInterface | undefined> {
    return this.interfaces.get(id);
  }

  async interfaceExists(id: string): Promise<boolean> {
    return this.interfaces.has(id);
  }

  async listAlerts(filter: { since: string | Date; severity?: AlertSeverity; interfaceId?: string }): Promise<Alert[]> {
    const since = new Date(filter.since).getTime();
    return this.alerts
      .filter((alert) => Date.parse(alert.triggeredAt) >= since)
      .filter((alert) => filter.severity === undefined || alert.severity === filter.severity)
      .filter((alert) => filter.interfaceId === undefined || alert.interfaceId === filter.interfaceId)
      .reverse()
      .map((alert) => ({ ...alert }));
  }

  async raiseAlert(input: RaiseAlertInput): Promise<Alert> {
    const monitored = input.interfaceId === null ? undefined : this.interfaces.get(input.interfaceId);
    if (input.interfaceId !== null && !monitored) throw new InMemoryMonitorError('INTERFACE_NOT_FOUND', `No monitored interface has the id "${input.interfaceId}".`);
    const at = this.now().toISOString();
    const open = input.rule === undefined ? undefined : this.openEpisode(input.interfaceId, input.rule);
    if (open) {
      if (SEVERITY_RANK[input.severity] > SEVERITY_RANK[open.severity]) {
        Object.assign(open, { severity: input.severity, title: input.title, message: input.message, escalatedAt: at });
      }
      return { ...open };
    }
    const alert: Alert = {
      id: randomUUID(),
      interfaceId: input.interfaceId,
      interfaceName: monitored?.name ?? null,
      severity: input.severity,
      title: input.title,
      message: input.message,
      triggeredAt: at,
      acknowledgedAt: null,
      acknowledgedBy: null,
      rule: input.rule ?? 'external',
      // without an episode key: a one-off notice, closed at once
      clearedAt: input.rule === undefined ? at : null,
      escalatedAt: null,
    };
    this.alerts.push(alert);
    return { ...alert };
  }

  async clearAlert(interfaceId: string | null, rule: string): Promise<boolean> {
    const open = this.openEpisode(interfaceId, rule);
    if (!open) return false;
    open.clearedAt = this.now().toISOString();
    return true;
  }

  async series(query: SeriesQuery): Promise<SeriesPoint[]> {
    const step = STEP_MS[query.step];
    const since = new Date(query.since).getTime();
    const until = new Date(query.until).getTime();
    const ids = query.interfaceIds?.length ? new Set(query.interfaceIds) : undefined;
    const points: SeriesPoint[] = [];
    for (let start = Math.floor(since / step) * step; start < until; start += step) {
      const parts = { messages: 0, failed: 0, latencySumMs: 0, latencyCount: 0, staleLatency: 0, clockSkew: 0 };
      for (const row of this.minutes) {
        const at = Date.parse(row.minute);
        if (at < start || at >= start + step || at < since || at >= until || (ids && !ids.has(row.interfaceId))) continue;
        parts.messages += row.messages;
        parts.failed += row.failed;
        parts.latencySumMs += row.latencySumMs;
        parts.latencyCount += row.latencyCount;
      }
      points.push({ start: new Date(start).toISOString(), value: metricOf(query.metric, parts), ...parts });
    }
    return points;
  }

  private openEpisode(interfaceId: string | null, rule: string): Alert | undefined {
    return this.alerts.find((alert) => alert.interfaceId === interfaceId && alert.rule === rule && alert.clearedAt === null);
  }
}

/** The contract's own formula; p99 needs latency histograms, which this fake does not keep. */
function metricOf(metric: SeriesQuery['metric'], parts: MetricParts): number | null {
  if (metric === 'p99LatencyMs') throw new Error('The in-memory monitor keeps no latency histograms: p99LatencyMs is answered by the real store only.');
  return rollupMetricValue(metric, parts, null);
}
