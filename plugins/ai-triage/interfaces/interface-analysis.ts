/**
 * Patterns, summary and upgrade check of one monitored interface. Failure clusters and upgrade signatures come from
 * the triage aggregate (aggregate-store.ts), a projection the monitor keeps from its committed messages
 * (triage-projection.ts) and brings up to date before each read; totals, series and alerts come from the monitor's
 * service. No monitor table is opened and no raw text leaves the fold. The engines (failure-patterns.ts, upgrade-detector.ts)
 * are plain modules; this file only reads and assembles.
 */
import type { MonitorService, MonitoredInterface, ProjectionHandle } from '../../monitor/api.ts';
import { CLUSTER_KEY_VERSION, type FailurePattern } from './failure-patterns.ts';
import { detectUpgradeIn, type UpgradeVerdict } from './upgrade-detector.ts';
import type { KnowledgeBase } from '../triage/knowledge-base.ts';
import type { AggregateStore } from '../aggregate/aggregate-store.ts';
import { STEP_MS, windowSpans } from '../../../kernel/lib/time/time-steps.ts';
import { windowOfHours, type TimeWindow } from '../../../kernel/lib/time/time-window.ts';
import { interfaceNotFound } from '../../monitor/api.ts';

/** Most clusters an answer lists. */
const MAX_PATTERNS = 50;

/** A time window as ISO strings. */
export interface IsoWindow {
  since: string;
  until: string;
}

/** A pattern with the knowledge base's explanation of its cluster. */
export interface ExplainedPattern extends FailurePattern {
  explanation: { rootCause: string; category: string; suggestedFix: string | null; knowledgeEntry: string | null };
}

/** Answer of POST /api/monitor/patterns. */
export interface PatternsResult {
  interfaceId: string;
  interfaceName: string;
  window: IsoWindow;
  previousWindow: IsoWindow;
  clusterKeyVersion: number;
  failedMessages: number;
  previousFailedMessages: number;
  clusterCount: number;
  patterns: ExplainedPattern[];
  truncated: boolean;
}

/** Answer of POST /api/monitor/upgrade-check (the SPEC's UpgradeDetectionResult). */
export interface UpgradeCheckResult extends UpgradeVerdict {
  interfaceId: string;
  interfaceName: string;
  window: IsoWindow;
  /** Where the baseline was read from (before the window, and inside it up to the change point). */
  baselineWindow: IsoWindow;
  messagesRead: number;
  /** How `confidence` is computed, in words (upgrade-detector.ts documents the same). */
  confidenceMethod: string;
}

/** Answer of POST /api/monitor/summary. */
export interface SummaryResult {
  interfaceId: string;
  interfaceName: string;
  window: IsoWindow;
  summary: string;
  facts: {
    messages: number;
    previousMessages: number;
    volumeChange: number | null;
    failed: number;
    errorRate: number | null;
    previousErrorRate: number | null;
    averageLatencyMs: number | null;
    p99LatencyMs: number | null;
    lastMessageAt: string | null;
    silentMinutes: number | null;
    openAlerts: Array<{ id: string; severity: string; title: string; triggeredAt: string }>;
    topPatterns: Array<Pick<FailurePattern, 'key' | 'code' | 'field' | 'messageType' | 'count' | 'trend'>>;
  };
}

/** How confidence is computed, for the answer. */
export const CONFIDENCE_METHOD =
  'confidence = 1 - product(1 - weight) over the kinds of change starting at one change point; weights: MSH-12 version 0.45, ' +
  'SFT software version 0.4, SFT install date 0.3, delimiters (MSH-1/MSH-2) 0.3, encoding (MSH-18, segment terminator) 0.3, ' +
  'SFT product or vendor 0.25, sending application (MSH-3) 0.25, Z-segment appearing or vanishing 0.25, code set of a field ' +
  '0.2, other segment 0.15, field becoming populated or empty 0.15, new issue code 0.05. An upgrade is reported from 0.5, so ' +
  'one new error alone never is, while a new version with new software is.';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function isoWindow(window: TimeWindow): IsoWindow {
  return { since: window.since.toISOString(), until: window.until.toISOString() };
}

/** The analysis service over the monitor's contract. */
export class InterfaceAnalysis {
  constructor(
    private readonly monitor: () => MonitorService,
    private readonly knowledge: KnowledgeBase,
    private readonly nowMs: () => number,
    private readonly aggregate: AggregateStore,
    /** The aggregate's projection: caught up before each read. */
    private readonly follower: ProjectionHandle,
  ) {}

  private async interfaceOf(interfaceId: string): Promise<MonitoredInterface> {
    const found = await this.monitor().getInterface(interfaceId);
    if (!found) throw interfaceNotFound(interfaceId, 'interfaceId', 'body');
    return found;
  }

  /** Failure clusters of the window against the previous window. */
  async patterns(interfaceId: string, sinceHours: number): Promise<PatternsResult> {
    const monitored = await this.interfaceOf(interfaceId);
    const now = this.nowMs();
    const window = windowOfHours(sinceHours, now);
    const previousWindow = windowOfHours(sinceHours, window.since.getTime());
    const store = this.monitor();
    await this.follower.catchUp();
    const [current, previous, totals, previousTotals] = await Promise.all([
      this.aggregate.failureClusters(interfaceId, windowSpans(window.since.getTime(), now, 'hour')),
      this.aggregate.failureClusters(interfaceId, windowSpans(previousWindow.since.getTime(), window.since.getTime(), 'hour')),
      store.totals(window, [interfaceId]),
      store.totals(previousWindow, [interfaceId]),
    ]);
    current.failedMessages = totals.failed;
    previous.failedMessages = previousTotals.failed;
    const ranked = current.ranked(previous.counts(), MAX_PATTERNS);
    return {
      interfaceId,
      interfaceName: monitored.name,
      window: isoWindow(window),
      previousWindow: isoWindow(previousWindow),
      clusterKeyVersion: CLUSTER_KEY_VERSION,
      failedMessages: current.failedMessages,
      previousFailedMessages: previous.failedMessages,
      clusterCount: current.size,
      patterns: ranked.map((pattern) => ({ ...pattern, explanation: this.explain(pattern) })),
      truncated: current.size > ranked.length,
    };
  }

  /** The knowledge base's words for a cluster (no describe here: the explanation names the path). */
  private explain(pattern: FailurePattern): ExplainedPattern['explanation'] {
    const entry = this.knowledge.match(pattern.standard, {
      code: pattern.code,
      field: pattern.field,
      messageType: pattern.messageType ?? '',
      context: '',
      signals: new Set(),
    });
    if (!entry) return { rootCause: `${pattern.code} at ${pattern.field || 'the message'}`, category: 'none', suggestedFix: null, knowledgeEntry: null };
    const values: Record<string, string> = {
      field: pattern.field || 'the message',
      fieldLabel: pattern.field || 'A field',
      dataType: 'its data type',
      table: 'its table',
      messageType: pattern.messageType ?? 'this message type',
      version: pattern.version ?? '(undeclared)',
      count: String(pattern.count),
    };
    const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? name);
    const fix = entry.fixes[0];
    return { rootCause: fill(entry.rootCause), category: entry.category, suggestedFix: fix ? `${fix.side}: ${fill(fix.action)}` : null, knowledgeEntry: entry.id };
  }

  /** The upgrade check of the window, against the interface's earlier traffic. */
  async upgradeCheck(interfaceId: string, sinceHours: number): Promise<UpgradeCheckResult> {
    const monitored = await this.interfaceOf(interfaceId);
    return this.upgradeOf(monitored, sinceHours);
  }

  /** The same check for one interface (the alert rule's entry). */
  async upgradeOf(monitored: MonitoredInterface, sinceHours: number): Promise<UpgradeCheckResult> {
    const now = this.nowMs();
    const windowStart = now - sinceHours * STEP_MS.hour;
    // The baseline reaches back as far as the window is long, and at least a week, so a weekly feed has one.
    const baselineStart = windowStart - Math.max(sinceHours, 24 * 7) * STEP_MS.hour;
    await this.follower.catchUp();
    const entries = await this.aggregate.upgradeEntries(monitored.id, iso(baselineStart), iso(now), iso(windowStart));
    const verdict = detectUpgradeIn(entries);
    return {
      interfaceId: monitored.id,
      interfaceName: monitored.name,
      window: { since: iso(windowStart), until: iso(now) },
      baselineWindow: { since: iso(baselineStart), until: verdict.changePoint ?? iso(windowStart) },
      messagesRead: entries.reduce((sum, entry) => sum + entry.count, 0),
      confidenceMethod: CONFIDENCE_METHOD,
      ...verdict,
    };
  }

  /** A plain-English paragraph and the facts behind it. */
  async summary(interfaceId: string, sinceHours: number): Promise<SummaryResult> {
    const monitored = await this.interfaceOf(interfaceId);
    const store = this.monitor();
    const now = this.nowMs();
    const window = windowOfHours(sinceHours, now);
    const previousWindow = windowOfHours(sinceHours, window.since.getTime());
    const [totals, previous, series, alerts, patterns] = await Promise.all([
      store.totals(window, [interfaceId]),
      store.totals(previousWindow, [interfaceId]),
      store.series({ interfaceIds: [interfaceId], since: window.since, until: window.until, step: sinceHours <= 6 ? 'minute' : 'hour', metric: 'messagesTotal' }),
      this.monitor().listAlerts({ since: window.since, interfaceId }),
      this.patterns(interfaceId, sinceHours),
    ]);
    const lastBucket = [...series].reverse().find((point) => point.messages > 0);
    // The last bucket with traffic bounds the last message from below; the bucket's end is the latest it can be.
    const lastMessageAt = lastBucket ? lastBucket.start : null;
    const silentMinutes = lastBucket ? Math.max(0, Math.floor((now - Date.parse(lastBucket.start)) / 60_000) - (sinceHours <= 6 ? 1 : 60)) : null;
    const openAlerts = alerts.filter((alert) => alert.clearedAt === null && alert.acknowledgedAt === null).map((alert) => ({ id: alert.id, severity: alert.severity, title: alert.title, triggeredAt: alert.triggeredAt }));
    const topPatterns = patterns.patterns.slice(0, 3).map(({ key, code, field, messageType, count, trend }) => ({ key, code, field, messageType, count, trend }));
    const volumeChange = previous.messages > 0 ? Math.round(((totals.messages - previous.messages) / previous.messages) * 1000) / 10 : null;
    const rate = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)} %`);
    const sentences: string[] = [];
    sentences.push(
      `${monitored.name} received ${totals.messages} message(s) in the last ${sinceHours} hour(s)` +
        (volumeChange === null ? (previous.messages === 0 ? ', with none in the window before.' : '.') : `, ${volumeChange >= 0 ? 'up' : 'down'} ${Math.abs(volumeChange)} % on the ${previous.messages} of the window before.`),
    );
    if (totals.messages > 0) sentences.push(`${totals.failed} failed (error rate ${rate(totals.errorRate)}, before ${rate(previous.errorRate)}).`);
    if (topPatterns.length > 0) {
      const top = topPatterns[0]!;
      sentences.push(`The main failure pattern is ${top.code} at ${top.field || 'message level'}${top.messageType ? ` in ${top.messageType}` : ''} (${top.count} message(s), ${top.trend}).`);
    }
    if (totals.messages === 0) sentences.push('The interface was silent for the whole window.');
    else if (silentMinutes !== null && silentMinutes >= 30) sentences.push(`Nothing has arrived for about ${silentMinutes} minute(s).`);
    if (totals.averageLatencyMs !== null) sentences.push(`Average latency ${Math.round(totals.averageLatencyMs)} ms${totals.p99LatencyMs !== null ? `, p99 ${Math.round(totals.p99LatencyMs)} ms` : ''}.`);
    sentences.push(openAlerts.length === 0 ? 'No alert is open.' : `${openAlerts.length} alert(s) open: ${openAlerts.slice(0, 3).map((alert) => alert.title).join('; ')}.`);
    return {
      interfaceId,
      interfaceName: monitored.name,
      window: isoWindow(window),
      summary: sentences.join(' '),
      facts: {
        messages: totals.messages,
        previousMessages: previous.messages,
        volumeChange,
        failed: totals.failed,
        errorRate: totals.errorRate,
        previousErrorRate: previous.errorRate,
        averageLatencyMs: totals.averageLatencyMs,
        p99LatencyMs: totals.p99LatencyMs,
        lastMessageAt,
        silentMinutes,
        openAlerts,
        topPatterns,
      },
    };
  }
}

