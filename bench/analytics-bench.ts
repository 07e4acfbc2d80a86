/**
 * Analytics bench: with 1,000,000 stored messages over 30 days across 20 interfaces (stored through the ingest's
 * commit, so roll-ups and messages are written as files would write them), each analytics answer through HTTP beside
 * the same question answered from the raw stored messages (one SQL GROUP BY over `monitor_messages`) in the same run:
 *
 * - timeseries of every interface over 30 days by hour, median of 20 calls;
 * - topn of interfaces over 24 hours, median of 20;
 * - the overview dashboard over 24 hours (totals, two series, top failing interfaces, open alerts), median of 20;
 * - the CSV export of one interface over 30 days by minute, rows per second and the heap's growth while it streams,
 *   beside a 360-day export (12x the rows) whose heap growth should be the same (flat memory);
 *
 * `WORKBENCH_BENCH_ANALYTICS_MESSAGES` scales the stored messages down for a quick run.
 */
import http from 'node:http';
import { sql } from 'kysely';
import { resolveService } from '../kernel/service-ref.ts';
import { TOKENS } from '../kernel/tokens.ts';
import { recordMessages, type RecordedMessage } from '../test/kit/monitor-history.ts';
import { send } from '../test/helpers/http-client.ts';
import { createIdleInterfaces, startBenchWorkbench } from './bench-workbench.ts';
import { medianMs, round } from './timing.ts';
import { collectGarbage } from './collect-garbage.ts';

const INTERFACES = 20;
const DAYS = 30;
const DAY_MS = 86_400_000;

/** Median milliseconds of `runs` calls after two warm-up calls, rounded for the figures. */
const timed = async (runs: number, call: () => Promise<unknown>) => round(await medianMs(runs, call, 2));

/** GET on a fresh connection (a pooled one may have been closed by the server while the store was filled). */
async function getJson(url: string): Promise<unknown> {
  const response = await send(url, { path: url });
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status} ${response.text}`);
  return response.json;
}

const TYPES = [['ADT', 'A01'], ['ADT', 'A08'], ['ORU', 'R01'], ['ORM', 'O01'], ['SIU', 'S12']] as const;
const FACILITIES = ['MAIN', 'NORTH', 'SOUTH', 'LAB', 'CLINIC'];
const CODES = ['REQUIRED_FIELD_MISSING', 'INVALID_DATE', 'TABLE_VALUE_UNKNOWN'];

/** One interface's messages: files of 20 messages at even steps over the window, about 3 % failing. */
function history(index: number, count: number, untilMs: number): RecordedMessage[] {
  const perFile = 20;
  const files = Math.ceil(count / perFile);
  const step = (DAYS * DAY_MS) / files;
  const messages: RecordedMessage[] = [];
  for (let f = 0; f < files; f++) {
    const receivedAt = new Date(Math.floor(untilMs - DAYS * DAY_MS + f * step + index * 7));
    for (let m = 0; m < perFile && messages.length < count; m++) {
      const n = f * perFile + m;
      const [messageType, triggerEvent] = TYPES[n % TYPES.length];
      const fails = (n * 7919 + index) % 100 < 3;
      messages.push({
        receivedAt,
        messageType,
        triggerEvent,
        controlId: `I${index}M${n}`,
        sendingFacility: FACILITIES[(n + index) % FACILITIES.length],
        ...(fails ? { errorCodes: [CODES[n % CODES.length]] } : {}),
        latencyMs: 200 + ((n * 37) % 5000),
      });
    }
  }
  return messages;
}

/** A full garbage collection, so heap figures are what is live. */
const collect = collectGarbage;

/**
 * Reads a streamed answer to its end; answers the seconds and rows, and with `memory` the growth of the live heap
 * (after a full collection every 64 chunks) over the heap before the request: flat memory keeps it the same for a
 * longer export. The memory pass is a separate request, so its collections do not slow the timed one.
 */
async function streamed(url: string, memory = false): Promise<{ seconds: number; rows: number; heapGrowthMb: number }> {
  if (memory) collect();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const start = performance.now();
  const rows = await new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${url}: HTTP ${response.statusCode}`));
        let lines = 0;
        let chunks = 0;
        response.on('data', (bytes: Buffer) => {
          for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
          if (memory && ++chunks % 64 === 0) {
            collect();
            peak = Math.max(peak, process.memoryUsage().heapUsed);
          }
        });
        response.on('end', () => resolve(lines - 1));
        response.on('error', reject);
      })
      .on('error', reject);
  });
  const seconds = (performance.now() - start) / 1000;
  return { seconds, rows, heapGrowthMb: round((peak - baseline) / 1024 / 1024, 1) };
}

export async function runAnalyticsBench(): Promise<Record<string, number>> {
  const total = Number(process.env.WORKBENCH_BENCH_ANALYTICS_MESSAGES ?? 1_000_000);
  const bench = await startBenchWorkbench('workbench-analytics-bench-', { monitor: { checkIntervalMs: 60_000 } });
  const base = bench.urls.monitor.replace(/\/$/, '');
  try {
    const storage = resolveService(bench.workbench.container, TOKENS.Storage);
    const ids = await createIdleInterfaces(bench, INTERFACES);
    const nowMs = Date.now();
    // whole minutes, so the 30-day window holds exactly 30 x 1,440 minute buckets
    const untilMs = Math.floor(nowMs / 60_000) * 60_000;
    const started = performance.now();
    for (let i = 0; i < ids.length; i++) await recordMessages(storage, ids[i], history(i, Math.ceil(total / INTERFACES), untilMs - 60_000), { filesPerCommit: 500 });
    const storeSeconds = (performance.now() - started) / 1000;
    console.log(`stored ${total.toLocaleString('en-US')} messages over ${DAYS} days across ${INTERFACES} interfaces in ${round(storeSeconds, 1)} s`);

    const until = new Date(untilMs).toISOString();
    const since30 = new Date(untilMs - DAYS * DAY_MS).toISOString();
    const since24 = new Date(untilMs - DAY_MS).toISOString();
    // a bucket counts whole: the first hour starts before since
    const since30Hour = new Date(Math.floor((untilMs - DAYS * DAY_MS) / 3_600_000) * 3_600_000).toISOString();
    const db = storage.db;

    const series = await timed(20, () => getJson(`${base}/api/monitor/analytics/timeseries?since=${since30}&until=${until}&granularity=oneHour`));
    const seriesRaw = await timed(3, () =>
      sql`select substr(received_at, 1, 13) as hour, count(*) as messages, sum(1 - is_valid) as failed from monitor_messages where received_at >= ${since30Hour} and received_at < ${until} group by hour`.execute(db),
    );
    // the answers must agree before their times mean anything
    const answered = (await getJson(`${base}/api/monitor/analytics/timeseries?since=${since30}&until=${until}&granularity=oneHour`)) as { data: { points: Array<{ messages: number }> } };
    const counted = await sql<{ n: number }>`select count(*) as n from monitor_messages where received_at >= ${since30Hour} and received_at < ${until}`.execute(db);
    const seriesSum = answered.data.points.reduce((sum, point) => sum + point.messages, 0);
    if (seriesSum !== Number(counted.rows[0]?.n)) throw new Error(`timeseries sums ${seriesSum} messages, the raw messages count ${counted.rows[0]?.n}`);
    console.log(`timeseries 30 days by hour, every interface: ${series} ms median; the same from raw messages: ${seriesRaw} ms; ratio ${round(series / seriesRaw, 3)}x`);

    const topn = await timed(20, () => getJson(`${base}/api/monitor/analytics/topn?since=${since24}&until=${until}`));
    const topnRaw = await timed(5, () =>
      sql`select interface_id, count(*) as messages from monitor_messages where received_at >= ${since24} and received_at < ${until} group by interface_id order by messages desc limit 10`.execute(db),
    );
    console.log(`topn of interfaces over 24 h: ${topn} ms median; the same from raw messages: ${topnRaw} ms; ratio ${round(topn / topnRaw, 3)}x`);

    const overview = await timed(20, () => getJson(`${base}/api/monitor/analytics/dashboards/overview?since=${since24}&until=${until}`));
    const overviewRaw = await timed(5, async () => {
      await sql`select count(*), sum(1 - is_valid), sum(latency_ms) from monitor_messages where received_at >= ${since24} and received_at < ${until}`.execute(db);
      await sql`select substr(received_at, 1, 13) as hour, count(*), sum(1 - is_valid) from monitor_messages where received_at >= ${since24} and received_at < ${until} group by hour`.execute(db);
      await sql`select interface_id, sum(1 - is_valid) as failed from monitor_messages where received_at >= ${since24} and received_at < ${until} group by interface_id order by failed desc limit 5`.execute(db);
    });
    console.log(`overview dashboard over 24 h: ${overview} ms median; the same from raw messages: ${overviewRaw} ms; ratio ${round(overview / overviewRaw, 3)}x`);

    const csvUrl = (sinceIso: string) => `${base}/api/monitor/analytics/export/csv?interfaceId=${ids[0]}&since=${sinceIso}&until=${until}&granularity=oneMinute`;
    const since360 = new Date(untilMs - 360 * DAY_MS).toISOString();
    await streamed(csvUrl(since30));
    const month = await streamed(csvUrl(since30));
    const year = await streamed(csvUrl(since360));
    month.heapGrowthMb = (await streamed(csvUrl(since30), true)).heapGrowthMb;
    year.heapGrowthMb = (await streamed(csvUrl(since360), true)).heapGrowthMb;
    const csvRate = Math.round(month.rows / month.seconds);
    const yearRate = Math.round(year.rows / year.seconds);
    const rawStart = performance.now();
    const rawRows = await sql`select substr(received_at, 1, 16) as minute, count(*), sum(1 - is_valid) from monitor_messages where interface_id = ${ids[0]} and received_at >= ${since30} and received_at < ${until} group by minute`.execute(db);
    // the same answer (every minute, zeros filled in) from the raw messages: its rows over the query's time
    const rawRate = Math.round(month.rows / ((performance.now() - rawStart) / 1000));
    console.log(
      `CSV of one interface, 30 days by minute: ${month.rows.toLocaleString('en-US')} rows at ${csvRate.toLocaleString('en-US')} rows/s (live heap +${month.heapGrowthMb} MB); the same minutes from raw messages (GROUP BY over ${rawRows.rows.length.toLocaleString('en-US')} minutes that have any): ${rawRate.toLocaleString('en-US')} rows/s; ratio ${round(csvRate / rawRate, 3)}x`,
    );
    console.log(`CSV over 360 days by minute: ${year.rows.toLocaleString('en-US')} rows at ${yearRate.toLocaleString('en-US')} rows/s (live heap +${year.heapGrowthMb} MB beside +${month.heapGrowthMb} MB for 30 days)`);

    return {
      storedMessages: total,
      storeSeconds: round(storeSeconds, 1),
      timeseries30dHourMedianMs: series,
      timeseries30dHourRawMs: seriesRaw,
      timeseriesRatio: round(series / seriesRaw, 3),
      topn24hMedianMs: topn,
      topn24hRawMs: topnRaw,
      topnRatio: round(topn / topnRaw, 3),
      overview24hMedianMs: overview,
      overview24hRawMs: overviewRaw,
      overviewRatio: round(overview / overviewRaw, 3),
      csv30dMinuteRowsPerSecond: csvRate,
      csv30dHeapGrowthMb: month.heapGrowthMb,
      csv360dMinuteRowsPerSecond: yearRate,
      csv360dHeapGrowthMb: year.heapGrowthMb,
      csvRawRowsPerSecond: rawRate,
      csvRatio: round(csvRate / rawRate, 3),
    };
  } finally {
    await bench.stop();
  }
}
