/**
 * Monitor roll-up reads: 1,000,000 stored messages across 20 interfaces over 30 days (written through the ingest's
 * own commit, test/kit/monitor-history.ts), then, each as the median of 15 runs, a `series` over the 30 days by hour
 * (every interface, error rate) and a `topN` over the last 24 h (message types by messages), each beside the same
 * question answered from the raw messages in the same run (one SQL aggregate over monitor_messages on its received
 * time index). The two answers are checked equal before they are timed. Then one interface is deleted through
 * `DELETE /api/monitor/interfaces/{id}` (its messages, ledger and every roll-up in one transaction), timed beside the
 * time its messages took to store, and the series is checked equal to the raw messages again (nothing of the deleted
 * interface left in any roll-up). `WORKBENCH_BENCH_MONITOR_ROLLUP_MESSAGES` scales the store down for a quick run.
 */
import { sql } from 'kysely';
import { TOKENS } from '../kernel/tokens.ts';
import { resolveService } from '../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../plugins/monitor/api.ts';
import { recordMessages, type RecordedMessage } from '../test/kit/monitor-history.ts';
import { send } from '../test/helpers/http-client.ts';
import { createIdleInterfaces, startBenchWorkbench } from './bench-workbench.ts';
import { medianMs, round } from './timing.ts';

const INTERFACES = 20;
const DAYS = 30;
const DAY_MS = 86_400_000;
const RUNS = 15;
const TYPES: Array<[string, string]> = [
  ['ADT', 'A01'], ['ADT', 'A03'], ['ADT', 'A04'], ['ADT', 'A08'], ['ORU', 'R01'], ['ORM', 'O01'], ['SIU', 'S12'], ['DFT', 'P03'],
];
const CODES = ['REQUIRED_FIELD_MISSING', 'TABLE_VALUE_UNKNOWN', 'DATA_TYPE_INVALID', 'SEGMENT_MISSING', 'LENGTH_EXCEEDED', 'PARSE_ERROR'];

/** A deterministic spread of messages of one interface over [untilMs - 30 days, untilMs): 10 per received time. */
function history(interfaceIndex: number, count: number, untilMs: number): RecordedMessage[] {
  const messages: RecordedMessage[] = [];
  const startMs = untilMs - DAYS * DAY_MS;
  const files = Math.ceil(count / 10);
  const gap = Math.floor((DAYS * DAY_MS) / files);
  let seed = 7919 * (interfaceIndex + 1);
  const next = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < count; i++) {
    const receivedAt = new Date(startMs + Math.floor(i / 10) * gap + (interfaceIndex % 10) * 1000);
    const [messageType, triggerEvent] = TYPES[Math.floor(next() * TYPES.length)];
    const failed = next() < 0.05;
    messages.push({
      receivedAt,
      messageType,
      triggerEvent,
      sendingFacility: `FAC${Math.floor(next() * 10)}`,
      controlId: `C${interfaceIndex}-${i}`,
      errorCodes: failed ? [CODES[Math.floor(next() * CODES.length)]] : [],
      latencyMs: Math.floor(100 + next() * 60_000),
    });
  }
  return messages;
}

/** Runs the roll-up part of the monitor bench and returns its figures. */
export async function runMonitorRollupBench(): Promise<Record<string, number>> {
  const total = Number(process.env.WORKBENCH_BENCH_MONITOR_ROLLUP_MESSAGES ?? 1_000_000);
  const bench = await startBenchWorkbench('workbench-monitor-rollup-bench-', { monitor: { checkIntervalMs: 60_000 } });
  try {
    const storage = resolveService(bench.workbench.container, TOKENS.Storage);
    const monitor = resolveService(bench.workbench.container, MONITOR_SERVICE);
    const ids = await createIdleInterfaces(bench, INTERFACES);
    const untilMs = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const started = performance.now();
    let lastStoreMs = 0;
    for (let i = 0; i < ids.length; i++) {
      const one = performance.now();
      await recordMessages(storage, ids[i], history(i, Math.ceil(total / INTERFACES), untilMs), { filesPerCommit: 500 });
      lastStoreMs = performance.now() - one;
    }
    const storeSeconds = (performance.now() - started) / 1000;
    console.log(`stored ${total.toLocaleString('en-US')} messages over ${DAYS} days across ${INTERFACES} interfaces in ${round(storeSeconds, 1)} s`);

    const until = new Date(untilMs).toISOString();
    const since30 = new Date(untilMs - DAYS * DAY_MS).toISOString();
    const since24 = new Date(untilMs - DAY_MS).toISOString();
    const db = storage.db;

    const series = () => monitor.series({ since: new Date(since30), until: new Date(until), step: 'hour', metric: 'errorRate' });
    const rawSeries = () =>
      sql<{ hour: string; messages: number; failed: number }>`
        select substr(received_at, 1, 13) as hour, count(*) as messages, sum(1 - is_valid) as failed
        from monitor_messages where received_at >= ${since30} and received_at < ${until}
        group by substr(received_at, 1, 13) order by 1`.execute(db);
    const topN = () => monitor.topN({ by: 'messageType', metric: 'messagesTotal', since: new Date(since24), until: new Date(until), n: 10 });
    const rawTopN = () =>
      sql<{ key: string; messages: number }>`
        select message_type || '^' || trigger_event as key, count(*) as messages
        from monitor_messages where received_at >= ${since24} and received_at < ${until}
        group by message_type, trigger_event order by 2 desc, 1 limit 10`.execute(db);

    // the same answers, or the timing compares different questions
    const fromRollups = await series();
    const fromRaw = new Map((await rawSeries()).rows.map((r) => [r.hour, Number(r.messages)]));
    for (const point of fromRollups) {
      const raw = fromRaw.get(point.start.slice(0, 13)) ?? 0;
      if (raw !== point.messages) throw new Error(`series differs at ${point.start}: roll-ups ${point.messages}, raw ${raw}`);
    }
    const top = await topN();
    const rawTop = (await rawTopN()).rows;
    if (top.map((r) => `${r.key}=${r.value}`).join() !== rawTop.map((r) => `${r.key}=${Number(r.messages)}`).join()) {
      throw new Error(`topN differs: ${JSON.stringify(top.map((r) => [r.key, r.value]))} vs ${JSON.stringify(rawTop)}`);
    }

    const seriesMs = await medianMs(RUNS, series);
    const rawSeriesMs = await medianMs(RUNS, rawSeries);
    const topNMs = await medianMs(RUNS, topN);
    const rawTopNMs = await medianMs(RUNS, rawTopN);
    console.log(
      `series, 30 days by hour (${fromRollups.length} points, every interface): ${round(seriesMs)} ms median; the same from raw messages: ${round(rawSeriesMs)} ms; ratio ${round(rawSeriesMs / seriesMs, 1)}x faster`,
    );
    console.log(
      `topN message types over 24 h: ${round(topNMs)} ms median; the same from raw messages: ${round(rawTopNMs)} ms; ratio ${round(rawTopNMs / topNMs, 1)}x faster`,
    );

    // deleting an interface takes it out of every roll-up in its transaction: timed once, beside storing its messages
    const deleted = ids[ids.length - 1]!;
    const deleteStarted = performance.now();
    const removed = await send(bench.urls.monitor, { method: 'DELETE', path: `/api/monitor/interfaces/${deleted}` });
    const deleteMs = performance.now() - deleteStarted;
    if (removed.status !== 200) throw new Error(`interface not deleted: ${removed.status}`);
    const afterDelete = new Map((await rawSeries()).rows.map((r) => [r.hour, Number(r.messages)]));
    for (const point of await series()) {
      const raw = afterDelete.get(point.start.slice(0, 13)) ?? 0;
      if (raw !== point.messages) throw new Error(`series after the deletion differs at ${point.start}: roll-ups ${point.messages}, raw ${raw}`);
    }
    console.log(
      `delete one interface (${Math.ceil(total / INTERFACES).toLocaleString('en-US')} messages, every roll-up): ${round(deleteMs)} ms; ` +
        `storing its messages took ${round(lastStoreMs)} ms; ratio ${round(deleteMs / lastStoreMs, 2)} of the store time`,
    );
    return {
      interfaceDeleteMs: round(deleteMs),
      interfaceStoreMs: round(lastStoreMs),
      interfaceDeleteToStoreRatio: round(deleteMs / lastStoreMs, 2),
      rollupMessages: total,
      rollupStoreSeconds: round(storeSeconds, 1),
      series30DaysByHourMs: round(seriesMs),
      series30DaysByHourRawMs: round(rawSeriesMs),
      series30DaysByHourSpeedup: round(rawSeriesMs / seriesMs, 1),
      topN24HoursMs: round(topNMs),
      topN24HoursRawMs: round(rawTopNMs),
      topN24HoursSpeedup: round(rawTopNMs / topNMs, 1),
    };
  } finally {
    await bench.stop();
  }
}
