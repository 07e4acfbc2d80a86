/**
 * Shared answers bench: with messages stored across 20 interfaces over two days, 50 concurrent identical report
 * requests (one computation, its answer handed to the others) beside 50 concurrent report requests of 50 different
 * windows (50 computations: what identical requests cost without sharing), and one request alone as the floor.
 * `sharedAnswerMs` is its default (1 s) and each round waits it out first (untimed), so every round computes afresh.
 * Medians of 5 rounds.
 *
 * `WORKBENCH_BENCH_SHARED_MESSAGES` scales the stored messages (default 100,000).
 */
import { resolveService } from '../kernel/service-ref.ts';
import { TOKENS } from '../kernel/tokens.ts';
import { recordMessages, type RecordedMessage } from '../test/kit/monitor-history.ts';
import { send } from '../test/helpers/http-client.ts';
import { createIdleInterfaces, startBenchWorkbench } from './bench-workbench.ts';
import { median, round, timed } from './timing.ts';

const INTERFACES = 20;
const CONCURRENT = 50;
const HOUR_MS = 3_600_000;
/** Longer than the default sharedAnswerMs: a round after this pause finds no kept answer. */
const PAUSE_MS = 1_100;

/** Median milliseconds of 5 rounds of `work`, each after the pause (one untimed round first). */
async function roundsMs(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    const [ms] = await timed(work);
    if (i > 0) times.push(ms);
  }
  return median(times);
}

/** One interface's messages: files of 20 at even steps over the last 48 hours, about 3 % failing. */
function history(index: number, count: number, untilMs: number): RecordedMessage[] {
  const files = Math.ceil(count / 20);
  const step = (48 * HOUR_MS) / files;
  const messages: RecordedMessage[] = [];
  for (let f = 0; f < files; f++) {
    const receivedAt = new Date(Math.floor(untilMs - 48 * HOUR_MS + f * step + index * 7));
    for (let m = 0; m < 20 && messages.length < count; m++) {
      const n = f * 20 + m;
      messages.push({
        receivedAt,
        controlId: `I${index}M${n}`,
        ...((n * 7919 + index) % 100 < 3 ? { errorCodes: ['REQUIRED_FIELD_MISSING'] } : {}),
        latencyMs: 200 + ((n * 37) % 5000),
      });
    }
  }
  return messages;
}

/** Runs the bench; answers its figures. */
export async function runMonitorSharedBench(): Promise<Record<string, number>> {
  const total = Number(process.env.WORKBENCH_BENCH_SHARED_MESSAGES ?? 100_000);
  const bench = await startBenchWorkbench('workbench-shared-bench-', { monitor: { checkIntervalMs: 60_000 } });
  const base = bench.urls.monitor.replace(/\/$/, '');
  try {
    const storage = resolveService(bench.workbench.container, TOKENS.Storage);
    const ids = await createIdleInterfaces(bench, INTERFACES);
    const untilMs = Date.now() - 60_000;
    for (let i = 0; i < ids.length; i++) await recordMessages(storage, ids[i], history(i, Math.ceil(total / INTERFACES), untilMs), { filesPerCommit: 500 });
    console.log(`stored ${total.toLocaleString('en-US')} messages over 48 hours across ${INTERFACES} interfaces`);

    const report = async (hours: number) => {
      const response = await send(base, { path: `/api/monitor/report?format=json&sinceHours=${hours}` });
      if (response.status !== 200) throw new Error(`report: HTTP ${response.status} ${response.text}`);
      return response.json as { data: { totals: { messages: number } } };
    };
    // the answers must be whole before their times mean anything (49 clock hours, the current one included, hold the 48)
    const counted = (await report(49)).data.totals.messages;
    if (counted !== total) throw new Error(`the 49-hour report counts ${counted} messages, ${total} were stored`);

    const one = round(await roundsMs(() => report(24)));
    const identical = round(await roundsMs(() => Promise.all(Array.from({ length: CONCURRENT }, () => report(24)))));
    // 24..73 hours: windows of about the same cost, each its own computation
    const distinct = round(await roundsMs(() => Promise.all(Array.from({ length: CONCURRENT }, (_, i) => report(24 + i)))));
    console.log(
      `${CONCURRENT} concurrent identical reports (24 h, ${INTERFACES} interfaces): ${identical} ms median; ${CONCURRENT} concurrent reports of different windows: ${distinct} ms; ratio ${round(distinct / identical, 1)}x; one report alone: ${one} ms`,
    );
    return { oneReportMs: one, identicalConcurrentMs: identical, distinctConcurrentMs: distinct, sharingSpeedup: round(distinct / identical, 1) };
  } finally {
    await bench.stop();
  }
}
