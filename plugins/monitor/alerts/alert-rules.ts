/**
 * The alert rules of interfaces: error rate (one episode, a warning that escalates to critical when the rate passes
 * that level), silence, p99 latency, folder missing or unreadable, unparsable file. Each rule is an episode
 * (AlertEpisodes): raised when its condition becomes true, cleared when it stops, raised anew only after that. Rules
 * read the roll-ups, which are written in the ingest's transaction, so they judge committed data only. Disabling an
 * interface pauses its rules (its episodes stay as they are, acknowledgements included); deleting it closes them.
 * Time comes from the kernel clock, so tests move it.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../../../kernel/clock.ts';
import type { MonitoredInterface } from '../api.ts';
import type { AlertEpisodes } from './alert-episodes.ts';
import type { AlertRuleRegistry } from './alert-rule-registry.ts';
import type { ReadFile } from '../ingest/read-file.ts';
import type { AlertRules } from '../monitor-config.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';
import { minuteOf } from '../messages/message-store.ts';
import { humanDuration } from '../../../kernel/lib/time/duration-text.ts';
import { lastMessageAt, windowTotals } from '../rollups/window-stats.ts';

/** Rule keys of the monitor's own alerts. */
export const RULES = {
  errorRate: 'error-rate',
  silence: 'silence',
  latency: 'latency-p99',
  folder: 'folder-unreachable',
  unparsable: 'unparsable-file',
} as const;

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10} %`;
}

/** What orders files by when they were written. */
type WrittenFile = Pick<ReadFile, 'path' | 'mtimeMs'>;

/** Whether `a` was written after `b`: a later mtime, or the same mtime and a later path (names often count up). */
function writtenAfter(a: WrittenFile, b: WrittenFile): boolean {
  return a.mtimeMs > b.mtimeMs || (a.mtimeMs === b.mtimeMs && a.path > b.path);
}

/** The later written of two files, either of which may be missing. */
function newer<T extends WrittenFile>(a: T | undefined, b: T | undefined): T | undefined {
  if (!a) return b;
  if (!b) return a;
  return writtenAfter(b, a) ? b : a;
}

/**
 * The newest file written (by mtime, then path) of an interface in the ledger with a state (`ingested`: it parsed;
 * `unparsable`), or undefined. One look-up of the `monitor_files_written` index.
 */
async function newestInLedger(db: Kysely<MonitorDatabase>, interfaceId: string, state: 'ingested' | 'unparsable'): Promise<WrittenFile | undefined> {
  const row = await db
    .selectFrom('monitor_files')
    .select(['path', 'mtime_ms'])
    .where('interface_id', '=', interfaceId)
    .where('state', '=', state)
    .orderBy('mtime_ms', 'desc')
    .orderBy('path', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { path: row.path, mtimeMs: Number(row.mtime_ms) } : undefined;
}

/** Evaluates the rules of interfaces and keeps their episodes. */
export class AlertRuleEngine {
  constructor(
    private readonly db: Kysely<MonitorDatabase>,
    private readonly episodes: AlertEpisodes,
    private readonly defaults: AlertRules,
    private readonly clock: Clock,
    /** Rules other plugins registered; they judge with the monitor's own. */
    private readonly registered?: AlertRuleRegistry,
  ) {}

  /** The rules of an interface: config defaults with its overrides on top. */
  rulesFor(monitored: MonitoredInterface): AlertRules {
    return { ...this.defaults, ...monitored.alertRules };
  }

  private async episode(monitored: MonitoredInterface, rule: string, active: boolean, raise: () => { severity: 'critical' | 'warning' | 'info'; title: string; message: string }): Promise<void> {
    if (active) await this.episodes.raise({ interfaceId: monitored.id, interfaceName: monitored.name, rule, ...raise() });
    else await this.episodes.clear(monitored.id, rule);
  }

  /**
   * Error rate, latency and silence of a watched interface. `watchingSinceMs` is when watching began (silence of a
   * new interface counts from then).
   */
  async evaluateTraffic(monitored: MonitoredInterface, watchingSinceMs: number): Promise<void> {
    const rules = this.rulesFor(monitored);
    const now = this.clock.nowMs();
    // whole minutes: the window covers the current minute and the windowMinutes - 1 before it
    const since = minuteOf(now - (rules.windowMinutes - 1) * 60_000);
    const totals = await windowTotals(this.db, monitored.id, since);
    const rate = totals.messages > 0 ? totals.failed / totals.messages : 0;
    const judged = totals.messages >= rules.minimumMessages;
    const rateText = () =>
      `${totals.failed} of ${totals.messages} messages failed validation in the last ${rules.windowMinutes} minutes (${percent(rate)}).`;
    const level = !judged ? undefined : rate >= rules.errorRateCritical ? 'critical' : rate >= rules.errorRateWarning ? 'warning' : undefined;
    await this.episode(monitored, RULES.errorRate, level !== undefined, () => ({
      severity: level ?? 'warning',
      title: `Error rate ${percent(rate)} on ${monitored.name}`,
      message: `${rateText()} ${level === 'critical' ? 'Critical' : 'Warning'} threshold: ${percent(level === 'critical' ? rules.errorRateCritical : rules.errorRateWarning)}.`,
    }));
    const p99 = totals.p99LatencyMs;
    await this.episode(monitored, RULES.latency, rules.latencyP99Ms > 0 && p99 !== null && p99 > rules.latencyP99Ms, () => ({
      severity: 'warning',
      title: `p99 latency ${humanDuration(p99)} on ${monitored.name}`,
      message:
        `The 99th percentile of latency (received minus the sender's time) over the last ${rules.windowMinutes} minutes is ` +
        `${humanDuration(p99)}, above the limit of ${humanDuration(rules.latencyP99Ms)}.`,
    }));
    const last = await lastMessageAt(this.db, monitored.id);
    const quietSince = Math.max(last ? Date.parse(last) : Number.NEGATIVE_INFINITY, watchingSinceMs);
    const silentMs = now - quietSince;
    await this.episode(monitored, RULES.silence, rules.silenceMinutes > 0 && silentMs >= rules.silenceMinutes * 60_000, () => ({
      severity: 'warning',
      title: `No messages on ${monitored.name} for ${humanDuration(Math.floor(silentMs / 60_000) * 60_000)}`,
      message: last
        ? `The last message arrived at ${last}; the silence limit is ${humanDuration(rules.silenceMinutes * 60_000)}.`
        : `No message arrived since watching began; the silence limit is ${humanDuration(rules.silenceMinutes * 60_000)}.`,
    }));
    await this.registered?.evaluate(monitored);
  }

  /** The folder is missing or unreadable (critical), or reachable again. */
  async folderState(monitored: MonitoredInterface, problem: string | undefined): Promise<void> {
    await this.episode(monitored, RULES.folder, problem !== undefined, () => ({
      severity: 'critical',
      title: `Folder of ${monitored.name} is unreachable`,
      message: `${monitored.directoryPath}: ${problem}. Watching resumes by itself when it returns.`,
    }));
  }

  /**
   * After-commit listener: per interface, the files' write times (mtime, then path) decide the unparsable-file
   * episode, whatever order the files commit in: a bad file opens it, and it ends only once the newest file written
   * that parsed was written after the newest bad one. Both come from the ledger (committed data, shared by every
   * node, kept across restarts), so a file that commits late (a held file whose open tail was judged after its grace
   * period, a file that settled slowly) never ends the episode of a bad file written after it, and a bad file followed
   * by good ones opens and closes the episode (it stays visible) however they were batched. A file only touched
   * decides nothing.
   */
  async filesCommitted(files: ReadonlyArray<{ file: ReadFile; monitored: MonitoredInterface }>): Promise<void> {
    const batch = new Map<string, { monitored: MonitoredInterface; bad?: ReadFile }>();
    for (const { file, monitored } of files) {
      if (file.verdict.kind === 'touched') continue;
      const entry = batch.get(file.interfaceId) ?? { monitored };
      batch.set(file.interfaceId, entry);
      if (file.state === 'unparsable') entry.bad = newer(entry.bad, file);
    }
    for (const [id, { monitored, bad }] of batch) {
      if (bad) await this.fileParsed(monitored, bad.path, bad.error ?? 'unreadable');
      const newestBad = await newestInLedger(this.db, id, 'unparsable');
      const newestGood = await newestInLedger(this.db, id, 'ingested');
      const ends = newestGood !== undefined && (newestBad === undefined || writtenAfter(newestGood, newestBad));
      if (ends) await this.fileParsed(monitored, newestGood.path, undefined);
    }
  }

  /** A file could not be parsed (warning), or a later file parsed again. */
  async fileParsed(monitored: MonitoredInterface, path: string, problem: string | undefined): Promise<void> {
    await this.episode(monitored, RULES.unparsable, problem !== undefined, () => ({
      severity: 'warning',
      title: `Unparsable file on ${monitored.name}`,
      message: `${path} holds no readable HL7 v2 message: ${problem}`,
    }));
  }
}
