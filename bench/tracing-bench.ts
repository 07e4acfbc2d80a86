/**
 * Tracing bench: with 1,000,000 stored messages across 20 interfaces, the time of a trace by patient, of the gaps
 * of one interface over 24 h and of the latency between two interfaces over 24 h, each through the HTTP route, and
 * beside each a scan of the same messages in the same run:
 *
 * - trace by patient (median of 50 patients) beside one scan of the whole store for that patient (every message
 *   read through streamMessages and filtered in memory: what the trace would cost without the patient index);
 * - gaps of one interface (median of 5, after a first answer shown apart: it also waits for tracing's feed to catch
 *   up the last commits) beside reading that interface's messages of the window alone through the query contract
 *   (what gaps read before tracing kept its feed);
 * - latency between two interfaces (median of 5) beside reading both interfaces' messages of the window alone.
 *
 * The queries are timed once the derived tables have caught up with the ingest (health answers at once 20 times in
 * a row); how long that took is printed apart. During a catch-up each request waits a slice of the event loop.
 *
 * The store is filled the real way: batch files of 1,000 messages written into 20 watched folders and ingested by
 * the monitor. 10 routes of two interfaces (in, out): each message arrives on `in` and again, with the same control
 * id, on `out`; each patient's journey is ADT^A01, ORM^O01, ORU^R01, ADT^A03 with MSH-13 per feed, one patient in
 * a hundred losing its order and one feed number in a thousand skipped, so gaps have something to find. No
 * sequence is defined, so the gaps read is the per-interface one (MSH-13, control ids) a sender's feed gets.
 * `WORKBENCH_BENCH_TRACING_MESSAGES` scales the store down for a quick run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveService } from '../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../plugins/monitor/api.ts';
import { send } from '../test/helpers/http-client.ts';
import { startBenchWorkbench } from './bench-workbench.ts';
import { median, timed } from './timing.ts';

const ROUTES = 10;
const PER_FILE = 1_000;
const STEPS = [
  { type: 'ADT^A01^ADT_A01', afterMs: 0 },
  { type: 'ORM^O01^ORM_O01', afterMs: 30 * 60_000 },
  { type: 'ORU^R01^ORU_R01', afterMs: 2 * 3_600_000 },
  { type: 'ADT^A03^ADT_A03', afterMs: 6 * 3_600_000 },
] as const;

function hl7Time(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace(/[-:T]/g, '')}+0000`;
}

/** One journey message (about 400 bytes), built from a template: the bench measures reads, not generation. */
function message(step: number, patient: number, atMs: number, sequence: number): string {
  const [type, trigger] = STEPS[step]!.type.split('^');
  const ts = hl7Time(atMs);
  const lines = [
    `MSH|^~\\&|EHR|GENERAL|ENGINE|GENERAL|${ts}||${STEPS[step]!.type}|C${patient}S${step}|P|2.5|${sequence}`,
    ...(type === 'ADT' ? [`EVN|${trigger}|${ts}`] : []),
    `PID|1||MRN${patient}^^^GENERAL^MR~${900_000_000 + patient}^^^SSA^SS||DOE^JANE^Q||19800101|F|||1 MAIN ST^^BOSTON^MA^02110||||||ACC${patient}`,
    `PV1|1|I|WARD^${101 + (patient % 40)}^1|||||||||||||||||V${patient}`,
  ];
  if (type === 'ORM') lines.push(`ORC|NW|P${patient}`, `OBR|1|P${patient}||CBC^Blood count^L`);
  if (type === 'ORU') lines.push(`ORC|RE|P${patient}`, `OBR|1|P${patient}||CBC^Blood count^L|||${ts}`, `OBX|1|NM|718-7^Hemoglobin^LN||13.${patient % 10}|g/dL|12-17.5|N|||F`);
  return lines.join('\r');
}

/** Runs the tracing bench; answers its figures. */
export async function runTracingBench(): Promise<Record<string, number>> {
  const total = Number(process.env.WORKBENCH_BENCH_TRACING_MESSAGES ?? 1_000_000);
  const patients = Math.max(ROUTES, Math.floor(total / (2 * STEPS.length)));
  const bench = await startBenchWorkbench('workbench-tracing-bench-', {
    monitor: { settleMs: 100, checkIntervalMs: 1000 },
    tracing: { maxScanMessages: 5_000_000 },
  });
  try {
    const { urls, workbench, dir } = bench;
    const get = async (path: string) => {
      const answer = await send(urls.monitor, { method: 'GET', path });
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
      return answer.json.data;
    };
    const monitor = resolveService(workbench.container, MONITOR_SERVICE);

    // Files first, interfaces after: the monitor then reads folders that are already full, as fast as it can.
    const folders: Array<{ name: string; dir: string }> = [];
    for (let r = 0; r < ROUTES; r++) for (const side of ['in', 'out']) folders.push({ name: `route-${r}-${side}`, dir: join(dir, `route-${r}-${side}`) });
    for (const folder of folders) mkdirSync(folder.dir);
    const pending = folders.map(() => [] as string[]);
    const fileCount = folders.map(() => 0);
    const flush = (index: number) => {
      if (pending[index]!.length === 0) return;
      writeFileSync(join(folders[index]!.dir, `batch-${String(++fileCount[index]!).padStart(5, '0')}.hl7`), `${pending[index]!.join('\r')}\r`);
      pending[index] = [];
    };
    const feeds = new Map<string, number>();
    const startMs = Date.now() - 20 * 3_600_000;
    const genStart = performance.now();
    let stored = 0;
    for (let patient = 1; patient <= patients; patient++) {
      const route = patient % ROUTES;
      let at = startMs + Math.floor(((patient - 1) * 12 * 3_600_000) / patients);
      for (let step = 0; step < STEPS.length; step++) {
        at += STEPS[step]!.afterMs;
        const feed = `${route}:${step}`;
        let sequence = (feeds.get(feed) ?? 0) + 1;
        const nth = Math.floor(patient / ROUTES); // the patient's place on its route, so every route has faults
        if (nth % 1_000 === 7) sequence++; // a skipped feed number
        feeds.set(feed, sequence);
        if (step === 1 && nth % 100 === 3) continue; // a lost order
        const text = message(step, patient, at, sequence);
        for (const side of [0, 1]) {
          const index = route * 2 + side;
          pending[index]!.push(text);
          stored++;
          if (pending[index]!.length === PER_FILE) flush(index);
        }
      }
    }
    folders.forEach((_, index) => flush(index));
    const genMs = performance.now() - genStart;

    const ingestStart = performance.now();
    const ids: string[] = [];
    for (const folder of folders) {
      const created = await send(urls.monitor, { method: 'POST', path: '/api/monitor/interfaces', body: { name: folder.name, directoryPath: folder.dir, filePattern: '**/*.hl7' } });
      ids.push(created.json.data.id);
    }
    for (;;) {
      const count = await monitor.countMessages({});
      if (count >= stored) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const ingestMs = performance.now() - ingestStart;
    console.log(`tracing store: ${stored.toLocaleString('en-US')} messages in ${folders.length} interfaces (files written in ${(genMs / 1000).toFixed(1)} s, ingested in ${(ingestMs / 1000).toFixed(1)} s)`);

    // After a bulk ingest the derived tables (tracing's feed, triage's summaries) catch up in slices of the event
    // loop, sharing it with requests: each request then waits a slice. The queries are timed once that is done
    // (health answering at once, 20 times in a row), and the catch-up's length is shown apart.
    const settleStart = performance.now();
    for (let quick = 0; quick < 20 && performance.now() - settleStart < 300_000; ) {
      const [ms] = await timed(() => send(urls.monitor, { path: '/api/health' }));
      quick = ms < 5 ? quick + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const settleMs = performance.now() - settleStart;
    console.log(`derived tables caught up (health answering at once again) ${(settleMs / 1000).toFixed(1)} s after the ingest`);

    // Trace by patient: 50 patients spread over the store.
    const traceTimes: number[] = [];
    for (let i = 0; i < 50; i++) {
      const patient = 1 + Math.floor((i * patients) / 50);
      const [ms, data] = await timed(() => get(`/api/monitor/traces?patient_id=MRN${patient}`));
      if (data.events.length < 6) throw new Error(`trace of MRN${patient}: ${data.events.length} events`);
      traceTimes.push(ms);
    }
    const traceMs = median(traceTimes);
    const scanPatient = `MRN${1 + Math.floor(patients / 2)}`;
    const [traceScanMs, scanned] = await timed(async () => {
      let found = 0;
      for await (const record of monitor.streamMessages({})) if (record.patientIds.some((p) => p.id === scanPatient)) found++;
      return found;
    });
    console.log(`trace by patient: ours ${traceMs.toFixed(1)} ms median (50 patients) | scan of the store for one patient ${traceScanMs.toFixed(0)} ms (${scanned} found) | ratio ${(traceScanMs / traceMs).toFixed(0)}x faster`);

    const since = new Date(Date.now() - 24 * 3_600_000).toISOString();
    // Tracing's feed follows the commits within about a second; the first read after the ingest also waits for the
    // catch-up of the last commits, so it is shown apart from the median.
    const [firstGapsMs] = await timed(() => get(`/api/monitor/gaps?interface_id=${ids[0]}&since=${since}`));
    console.log(`first gaps answer after the ingest (with the feed's catch-up of the last commits): ${firstGapsMs.toFixed(0)} ms`);
    const gapTimes: number[] = [];
    let gapData: { counts: Record<string, number>; messagesRead: number } | undefined;
    for (let i = 0; i < 5; i++) {
      const [ms, data] = await timed(() => get(`/api/monitor/gaps?interface_id=${ids[0]}&since=${since}`));
      gapTimes.push(ms);
      gapData = data;
    }
    const gapsMs = median(gapTimes);
    const [gapScanMs, gapScanned] = await timed(async () => {
      let n = 0;
      for await (const _record of monitor.streamMessages({ interfaceIds: [ids[0]!], since })) n++;
      return n;
    });
    console.log(
      `gaps of one interface over 24 h: ours ${gapsMs.toFixed(0)} ms median (${gapData!.messagesRead.toLocaleString('en-US')} messages, ${gapData!.counts['sequence-number']} MSH-13 gaps) | reading the same messages alone ${gapScanMs.toFixed(0)} ms (${gapScanned}) | ratio ${(gapsMs / gapScanMs).toFixed(2)}x`,
    );

    const latencyTimes: number[] = [];
    let latencyData: { count: number; p50Ms: number } | undefined;
    for (let i = 0; i < 5; i++) {
      const [ms, data] = await timed(() => get(`/api/monitor/latency?from_interface=${ids[0]}&to_interface=${ids[1]}&since=${since}`));
      latencyTimes.push(ms);
      latencyData = data;
    }
    const latencyMs = median(latencyTimes);
    const [latencyScanMs] = await timed(async () => {
      for (const id of [ids[0]!, ids[1]!]) for await (const _record of monitor.streamMessages({ interfaceIds: [id], since })) void _record;
    });
    console.log(
      `latency between two interfaces over 24 h: ours ${latencyMs.toFixed(0)} ms median (${latencyData!.count.toLocaleString('en-US')} pairs) | reading both interfaces' messages alone ${latencyScanMs.toFixed(0)} ms | ratio ${(latencyMs / latencyScanMs).toFixed(2)}x`,
    );
    return {
      tracing_messages: stored,
      tracing_catch_up_ms: Math.round(settleMs),
      tracing_trace_median_ms: Number(traceMs.toFixed(2)),
      tracing_trace_scan_ms: Number(traceScanMs.toFixed(0)),
      tracing_gaps_first_ms: Number(firstGapsMs.toFixed(0)),
      tracing_gaps_median_ms: Number(gapsMs.toFixed(1)),
      tracing_gaps_scan_ms: Number(gapScanMs.toFixed(1)),
      tracing_latency_median_ms: Number(latencyMs.toFixed(1)),
      tracing_latency_scan_ms: Number(latencyScanMs.toFixed(1)),
    };
  } finally {
    await bench.stop();
  }
}
