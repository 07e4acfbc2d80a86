/**
 * Builds the report of a window ({@link MonitorReport}) from the roll-ups: totals, hourly breakdown and top error
 * codes per interface never sum stored messages. Two bounded, indexed reads touch messages: the newest message time
 * of an interface, and up to three example messages per top error code (their control ids, one field and text).
 */
import type { Clock } from '../../../kernel/clock.ts';
import type { Kysely } from 'kysely';
import type { ErrorCount, InterfaceReport, MonitoredInterface, MonitorReport, MonitorStore, ReportWindow } from '../api.ts';
import type { AlertEpisodes } from '../alerts/alert-episodes.ts';
import { checkWindow, windowInvalid } from '../../../kernel/lib/time/time-window.ts';
import { interfaceMetrics } from '../interfaces/interface-metrics.ts';
import type { InterfaceStore } from '../interfaces/interface-store.ts';
import { interfaceStatus, overallState } from './monitor-status.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';
import type { RollupReader } from '../rollups/rollup-reader.ts';
import { lastMessageAt } from '../rollups/window-stats.ts';

/** Top error codes listed per interface. */
const TOP_ERRORS = 10;

/** Example messages read per top error code. */
const EXAMPLES_PER_CODE = 3;

/** What the running service knows of an interface beyond its stored settings. */
export interface WatchFacts {
  /** Why its folder cannot be watched, while it cannot. */
  problem(interfaceId: string): string | undefined;
  /** When watching (re)started; null while not watched. */
  watchingSinceMs(interfaceId: string): number | null;
}

/** What the builder reads. */
export interface ReportBuilderDeps {
  db: Kysely<MonitorDatabase>;
  clock: Clock;
  interfaces: InterfaceStore;
  alerts: AlertEpisodes;
  rollups: RollupReader;
  /** The message reads of the contract (examples of an error code). */
  messages: Pick<MonitorStore, 'queryMessages'>;
  watch: WatchFacts;
}

/** Builds reports. */
export class ReportBuilder {
  constructor(private readonly deps: ReportBuilderDeps) {}

  /** Status of one interface now. */
  async status(monitored: MonitoredInterface) {
    return interfaceStatus(monitored, {
      problem: monitored.enabled ? this.deps.watch.problem(monitored.id) : undefined,
      lastMessageAt: await lastMessageAt(this.deps.db, monitored.id),
      openAlerts: await this.deps.alerts.openAlerts(monitored.id),
    });
  }

  /** The report of a window. */
  async build(window: ReportWindow): Promise<MonitorReport> {
    const nowMs = this.deps.clock.nowMs();
    const checked = checkWindow(window, nowMs);
    const sinceMs = checked.since.getTime();
    const untilMs = checked.until.getTime();
    if (untilMs <= sinceMs) throw windowInvalid('until must lie after since', 'until');
    const wanted = window.interfaceIds && window.interfaceIds.length > 0 ? new Set(window.interfaceIds) : undefined;
    const since = new Date(sinceMs).toISOString();
    const until = new Date(untilMs).toISOString();
    const report: MonitorReport = {
      generatedAt: new Date(nowMs).toISOString(),
      sinceHours: Math.ceil((untilMs - sinceMs) / 3_600_000),
      windowStart: since,
      windowEnd: new Date(Math.min(untilMs, Math.max(nowMs, sinceMs))).toISOString(),
      overallState: 'idle',
      totals: { messages: 0, failed: 0, interfaces: 0 },
      interfaces: [],
      alerts: (await this.deps.alerts.list({ since: checked.since })).filter((a) => a.triggeredAt < until && (!wanted || (a.interfaceId !== null && wanted.has(a.interfaceId)))),
    };
    for (const monitored of await this.deps.interfaces.list()) {
      if (wanted && !wanted.has(monitored.id)) continue;
      const entry = await this.interfaceReport(monitored, sinceMs, untilMs, nowMs);
      report.interfaces.push(entry);
      report.totals.messages += entry.metrics.messagesTotal;
      report.totals.failed += entry.metrics.messagesFailed;
      report.totals.interfaces++;
    }
    report.overallState = overallState(report.interfaces.map((i) => i.status.state));
    return report;
  }

  private async interfaceReport(monitored: MonitoredInterface, sinceMs: number, untilMs: number, nowMs: number): Promise<InterfaceReport> {
    const metrics = await interfaceMetrics(this.deps.db, this.deps.rollups, monitored.id, {
      startMs: sinceMs,
      untilMs,
      nowMs,
      watchingSinceMs: this.deps.watch.watchingSinceMs(monitored.id),
    });
    return { status: await this.status(monitored), metrics, topErrors: await this.topErrors(monitored.id, sinceMs, untilMs) };
  }

  /** The most frequent error codes of the window (error-code roll-ups), each with a few example messages. */
  private async topErrors(interfaceId: string, sinceMs: number, untilMs: number): Promise<ErrorCount[]> {
    const since = new Date(sinceMs);
    const until = new Date(untilMs);
    const rows = await this.deps.rollups.topN({ by: 'errorCode', metric: 'messagesTotal', since, until, interfaceIds: [interfaceId], n: TOP_ERRORS });
    const errors: ErrorCount[] = [];
    for (const row of rows) {
      const { messages } = await this.deps.messages.queryMessages(
        { interfaceIds: [interfaceId], since, until, isValid: false, errorCodes: [row.key] },
        { limit: EXAMPLES_PER_CODE },
      );
      const issue = messages[0]?.errors.find((e) => e.code === row.key);
      errors.push({
        code: row.key,
        count: row.messages,
        field: issue?.field ?? '',
        example: issue?.message ?? '',
        exampleControlIds: messages.map((m) => m.controlId).filter((id): id is string => id !== null),
      });
    }
    return errors;
  }
}
