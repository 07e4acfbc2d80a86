/** The implementation of {@link MonitorService} other plugins resolve by {@link MONITOR_SERVICE}. */
import type { Page } from '../../kernel/http/paging.ts';
import type {
  AlertRule,
  MonitorReport,
  ReportWindow,
  DailyMessageCount,
  MinuteWithin,
  Alert,
  AlertFilter,
  MessageFilter,
  MessageInclude,
  MessageField,
  MessagePage,
  MessageStreamOptions,
  ProjectedRecord,
  MessagePageOptions,
  MessageRecord,
  MinuteRollup,
  MonitoredInterface,
  MonitorService,
  RaiseAlertInput,
  SeriesPoint,
  SeriesQuery,
  StoredMessageCounts,
  TimeWindow,
  TopNQuery,
  TopNRow,
  WindowTotals,
  RenderedReport,
  ReportFormat,
  Projection,
  ProjectionHandle,
} from './api.ts';
import { interfaceNotFound } from './api.ts';
import type { ProjectionRunner } from './projections/projection-runner.ts';
import { renderReport } from './reports/report-rendering.ts';
import type { AlertEpisodes } from './alerts/alert-episodes.ts';
import type { AlertRuleRegistry } from './alerts/alert-rule-registry.ts';
import type { ReportBuilder } from './reports/report-builder.ts';
import type { InterfaceStore } from './interfaces/interface-store.ts';
import type { MessageQueries } from './messages/message-query.ts';
import type { MessageStore } from './messages/message-store.ts';
import type { RollupReader } from './rollups/rollup-reader.ts';

/** Reads through the stores; raises alerts through the episodes. */
export class MonitorServiceImpl implements MonitorService {
  constructor(
    private readonly interfaces: InterfaceStore,
    private readonly messages: MessageStore,
    private readonly queries: MessageQueries,
    private readonly rollups: RollupReader,
    private readonly alerts: AlertEpisodes,
    private readonly waitingFiles: () => number,
    private readonly reports: ReportBuilder,
    private readonly rules: AlertRuleRegistry,
    private readonly projections: ProjectionRunner,
  ) {}

  buildReport(window: ReportWindow): Promise<MonitorReport> {
    return this.reports.build(window);
  }

  renderReport(report: MonitorReport, format: ReportFormat): RenderedReport {
    return renderReport(report, format);
  }

  registerAlertRule(rule: AlertRule): void {
    this.rules.register(rule);
  }

  registerProjection<F extends MessageField>(projection: Projection<F>): ProjectionHandle {
    return this.projections.register(projection);
  }

  queryMessages<F extends MessageField = MessageField>(filter: MessageFilter, options?: MessagePageOptions<F>): Promise<MessagePage<ProjectedRecord<F>>> {
    return this.queries.query(filter, options);
  }

  streamMessages<F extends MessageField = MessageField>(filter: MessageFilter, options?: MessageStreamOptions<F>): AsyncIterable<ProjectedRecord<F>> {
    return this.queries.stream(filter, options);
  }

  getMessage(id: string, options?: { include?: MessageInclude[] }): Promise<MessageRecord | undefined> {
    return this.queries.get(id, options);
  }

  countMessages(filter: MessageFilter): Promise<number> {
    return this.queries.count(filter);
  }

  series(query: SeriesQuery): Promise<SeriesPoint[]> {
    return this.rollups.series(query);
  }

  topN(query: TopNQuery): Promise<TopNRow[]> {
    return this.rollups.topN(query);
  }

  totals(window: TimeWindow, interfaceIds?: string[]): Promise<WindowTotals> {
    return this.rollups.totals(window, interfaceIds);
  }

  queueDepth(): number {
    return this.waitingFiles();
  }

  listInterfaces(): Promise<MonitoredInterface[]> {
    return this.interfaces.list();
  }

  getInterface(id: string): Promise<MonitoredInterface | undefined> {
    return this.interfaces.get(id);
  }

  async interfaceExists(id: string): Promise<boolean> {
    return (await this.interfaces.get(id)) !== undefined;
  }

  latencyWithin(interfaceId: string, maxLatencyMs: number, window: TimeWindow): Promise<MinuteWithin[]> {
    return this.rollups.latencyWithin(interfaceId, maxLatencyMs, window);
  }

  minuteRollups(interfaceId: string, window: TimeWindow): Promise<MinuteRollup[]> {
    return this.messages.minutes(interfaceId, window);
  }

  dailyMessageCounts(window: TimeWindow, interfaceId?: string): Promise<DailyMessageCount[]> {
    return this.messages.daily(window, interfaceId);
  }

  storedMessageCounts(interfaceId?: string): Promise<StoredMessageCounts> {
    return this.messages.counts(interfaceId);
  }

  listAlerts(filter: AlertFilter): Promise<Alert[]> {
    return this.alerts.list(filter);
  }

  pageAlerts(filter: AlertFilter, request: { limit: number; cursor?: string }): Promise<Page<Alert>> {
    return this.alerts.page(filter, request);
  }

  async raiseAlert(input: RaiseAlertInput): Promise<Alert> {
    let interfaceName: string | null = null;
    if (input.interfaceId !== null) {
      const monitored = await this.interfaces.get(input.interfaceId);
      if (!monitored) throw interfaceNotFound(input.interfaceId);
      interfaceName = monitored.name;
    }
    if (input.rule === undefined) {
      // no episode key: a one-off notice, raised every time and closed at once
      const { alert } = await this.alerts.raise({ ...input, rule: 'external', interfaceName }, { oneOff: true });
      return alert;
    }
    const { alert } = await this.alerts.raise({ ...input, rule: input.rule, interfaceName });
    return alert;
  }

  clearAlert(interfaceId: string | null, rule: string): Promise<boolean> {
    return this.alerts.clear(interfaceId, rule);
  }
}
