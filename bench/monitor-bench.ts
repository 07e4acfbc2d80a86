/**
 * Monitor bench: messages per second from files on disk to queryable metrics, beside a ceiling measured in the same
 * run (reading the same contents through the HL7 plugin's message reader, the one parse that splits and validates
 * them, with no files, no watcher and no database); drop-to-alert latency p99 beside the settle time it includes;
 * RSS after ingesting 1,000,000 messages beside the same service's RSS before it ingested anything.
 *
 * - Throughput: 1 KB ADT^A01 v2.5 messages (seeded generator, padded to 1,024 bytes), as 10,000 single-message
 *   files and as 10 batch files of 1,000. Single files are also set beside a second ceiling: the same files read from
 *   disk and by the reader on one thread (open, read, stat and close each, hash it, read its messages: what any tool
 *   reading each file spends, with no watcher, ledger or database). The clock runs from creating the interface over
 *   the already-written files to the metrics route answering the full count (asked every 10 ms). Settle time 100 ms
 *   here (it is a fixed delay, not work). As the ceiling is taken after a warm-up pass, the ingest is measured on a
 *   warmed-up service: 2,000 single-message files and a batch file of 1,000 (other control ids) are ingested first,
 *   and each measured run starts after a 2 s pause in which derived tables catch up with what came before.
 * - Drop to alert: a file that is not HL7 written into a watched folder, to the `alert.raised` event on the bus
 *   (settle time the default 500 ms); then a good file clears the episode; 40 rounds.
 * - Memory: 1,000 batch files of 1,000 messages (1,000,000 messages, raw text kept) into a service started as
 *   `workbench start` (default config: worker pool warm) in its own process; its RSS once it is idle after start,
 *   and once the last message is counted. `WORKBENCH_BENCH_MONITOR_MESSAGES` scales it down for a quick run.
 * - Roll-up reads (monitor-rollup-bench.ts): series over 30 days by hour and topN over 24 h on 1,000,000 stored
 *   messages across 20 interfaces, each beside the same question answered from the raw messages.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Workbench } from '../kernel/workbench.ts';
import type { StandardAdapter } from '../kernel/standards-registry.ts';
import { resolveService } from '../kernel/service-ref.ts';
import { readReceivedFiles } from '../kernel/lib/input/received-files.ts';
import { HL7_MESSAGE_READER } from '../plugins/hl7-standard/api.ts';
import { TOKENS } from '../kernel/tokens.ts';
import { projectRoot } from '../kernel/project-root.ts';
import { send } from '../test/helpers/http-client.ts';
import { killed, startServiceProcess, writeServiceConfig } from '../scripts/monitor-crash-scenario.ts';
import { runMonitorRollupBench } from './monitor-rollup-bench.ts';
import { startBenchWorkbench, type BenchWorkbench } from './bench-workbench.ts';

const MESSAGE_BYTES = 1024;

/** Single-message files ingested before the measured runs, to warm the ingest up. */
const WARM_UP_FILES = 2_000;

/** Pause before each measured ingest, for the derived tables to catch up with what came before. */
const SETTLE_BEFORE_MS = 2_000;

/** A Workbench with the monitor at `settleMs` (the ingest and alert figures depend on it). */
function boot(settleMs: number): Promise<BenchWorkbench> {
  return startBenchWorkbench('workbench-monitor-bench-', { monitor: { settleMs, checkIntervalMs: 1000 } });
}

function adapterOf(workbench: Workbench): StandardAdapter {
  const adapter = resolveService(workbench.container, TOKENS.Standards).get('hl7');
  if (!adapter) throw new Error('hl7 adapter missing');
  return adapter;
}

/**
 * `count` distinct ADT^A01 v2.5 messages of about 1 KB: one generated with a fixed seed, cut to the segments that
 * fit in 1,024 bytes in their order (MSH, EVN, PID, PD1, NK1, PV1, PV2), control ids made unique.
 */
function oneKbMessages(adapter: StandardAdapter, count: number): string[] {
  const [template] = adapter.generate({ messageType: 'ADT^A01', version: '2.5', count: 1, seed: 20261123 });
  const kept: string[] = [];
  let size = 0;
  for (const segment of template.split('\r').filter((s) => s !== '')) {
    if (size + segment.length + 1 > MESSAGE_BYTES) continue;
    kept.push(segment);
    size += segment.length + 1;
  }
  const msh = kept[0].split('|');
  return Array.from({ length: count }, (_, i) => {
    msh[9] = `BENCH${i}`;
    return [msh.join('|'), ...kept.slice(1)].join('\r');
  });
}

async function createInterface(url: string, name: string, directoryPath: string): Promise<string> {
  const response = await send(url, { method: 'POST', path: '/api/monitor/interfaces', body: { name, directoryPath } });
  if (response.status !== 201) throw new Error(`cannot create interface: ${response.text}`);
  return response.json.data.id as string;
}

async function waitForCount(url: string, id: string, total: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const metrics = await send(url, { path: `/api/monitor/interfaces/${id}/metrics?sinceHours=2` });
    if (metrics.json?.data?.messagesTotal >= total) return;
    if (Date.now() > deadline) throw new Error(`only ${metrics.json?.data?.messagesTotal} of ${total} messages after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Messages/s of the ingest of files already in a folder, to the metrics showing them all. */
async function ingestRate(running: BenchWorkbench, name: string, files: string[][]): Promise<number> {
  const folder = join(running.dir, name);
  mkdirSync(folder);
  files.forEach((messages, i) => writeFileSync(join(folder, `${name}-${i}.hl7`), messages.join('\r')));
  const total = files.reduce((sum, f) => sum + f.length, 0);
  // what an earlier ingest left to its derived tables (tracing, triage) is caught up before the clock starts
  await new Promise((resolve) => setTimeout(resolve, SETTLE_BEFORE_MS));
  const start = performance.now();
  const id = await createInterface(running.urls.monitor, name, folder);
  await waitForCount(running.urls.monitor, id, total, 600_000);
  return total / ((performance.now() - start) / 1000);
}

/**
 * A service that has run for a while: its ingest code compiled, as the reader is warmed up before its ceiling is
 * taken. Single-message files and a batch file of their own (other control ids), ingested and counted.
 */
async function warmUp(running: BenchWorkbench, messages: string[]): Promise<void> {
  const renamed = messages.map((m) => m.replace(/BENCH(\d+)/, 'WARM$1'));
  await ingestRate(running, 'warm-single', renamed.slice(0, WARM_UP_FILES).map((m) => [m]));
  await ingestRate(running, 'warm-batch', [renamed.slice(WARM_UP_FILES, WARM_UP_FILES + 1000)]);
}

/**
 * Messages/s of reading the same file contents through the HL7 message reader (split and validated in one parse),
 * nothing else: the ceiling of the ingest, which does this plus the files, the watcher and the database. Best of
 * three passes after a warm-up.
 */
function readerCeiling(workbench: Workbench, contents: string[]): number {
  const reader = resolveService(workbench.container, HL7_MESSAGE_READER);
  const bytes = contents.map((c) => Buffer.from(c));
  const pass = () => {
    let messages = 0;
    const start = performance.now();
    for (const content of bytes) messages += reader.read(content, { mode: 'compatibility' }).messages.length;
    return messages / ((performance.now() - start) / 1000);
  };
  pass();
  return Math.max(pass(), pass(), pass());
}

/**
 * Messages/s of reading single-message files from disk and by the reader on one thread (kernel received-files.ts,
 * which the ingest's worker thread runs): each file opened, read, stat-ed, closed and hashed, its messages read and
 * validated. Best of three passes after a warm-up pass; the files were written before, as the ingest's were.
 */
async function diskAndReaderCeiling(running: BenchWorkbench, messages: string[]): Promise<number> {
  const folder = join(running.dir, 'disk-ceiling');
  mkdirSync(folder);
  const files = messages.map((m, i) => {
    const path = join(folder, `disk-${i}.hl7`);
    writeFileSync(path, m);
    return { path, expectedSize: Buffer.byteLength(m) };
  });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_BEFORE_MS));
  const adapters = resolveService(running.workbench.container, TOKENS.Standards).list();
  const options = { standard: 'hl7', read: { mode: 'compatibility' as const } };
  const pass = () => {
    const start = performance.now();
    let read = 0;
    for (let i = 0; i < files.length; i += 200) for (const file of readReceivedFiles(adapters, files.slice(i, i + 200), options)) if (file.ok) read += file.read?.messages.length ?? 0;
    return read / ((performance.now() - start) / 1000);
  };
  pass();
  return Math.max(pass(), pass(), pass());
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Milliseconds from writing a file that is not HL7 to its alert on the bus. */
async function dropToAlert(rounds: number): Promise<{ p50: number; p99: number; settleMs: number }> {
  const settleMs = 500;
  const running = await boot(settleMs);
  try {
    const folder = join(running.dir, 'alerts');
    mkdirSync(folder);
    const id = await createInterface(running.urls.monitor, 'alerts', folder);
    const events = resolveService(running.workbench.container, TOKENS.Events);
    const latencies: number[] = [];
    let waiting: ((at: number) => void) | undefined;
    events.on('alert.raised', ({ alert }) => {
      if (alert.interfaceId === id && alert.rule === 'unparsable-file') waiting?.(performance.now());
    });
    const [good] = oneKbMessages(adapterOf(running.workbench), 1);
    for (let i = 0; i < rounds; i++) {
      const raised = new Promise<number>((resolve) => {
        waiting = resolve;
      });
      const start = performance.now();
      writeFileSync(join(folder, `bad-${i}.hl7`), `not an HL7 message ${i}`);
      latencies.push((await raised) - start);
      // a good file ends the episode, so the next bad file is a new one
      writeFileSync(join(folder, `good-${i}.hl7`), good.replace('BENCH0', `GOOD${i}`));
      await waitForCount(running.urls.monitor, id, 2 * (i + 1), 60_000);
    }
    return { p50: Math.round(quantile(latencies, 0.5)), p99: Math.round(quantile(latencies, 0.99)), settleMs };
  } finally {
    await running.stop();
  }
}

/** Resident set size of a process in MB (Linux /proc, else `ps`). */
function rssMbOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    if (kb > 0) return Math.round(kb / 1024);
  } catch {
    // not Linux: ask ps
  }
  return Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024);
}

/** RSS (MB) of a process once it stopped growing (the worker pool warms up after the service answers). */
async function settledRssMb(pid: number): Promise<number> {
  let last = rssMbOf(pid);
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = rssMbOf(pid);
    if (Math.abs(now - last) <= 2) return now;
    last = now;
  }
  return last;
}

/**
 * RSS (MB) of a started service (`workbench start`, compiled build, in its own process) after it ingested `total`
 * messages written as batch files of 1,000.
 */
async function rssAfter(total: number, messages: string[]): Promise<{ idleRssMb: number; rssMb: number; seconds: number; messagesPerSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-monitor-rss-'));
  const folder = join(dir, 'million');
  mkdirSync(folder);
  const { configPath } = writeServiceConfig(dir, { settleMs: 100 });
  const { child, monitorUrl } = startServiceProcess(configPath, [join(projectRoot, 'bin', 'workbench.js')]);
  try {
    const url = await monitorUrl;
    const idleRssMb = await settledRssMb(child.pid ?? 0);
    const files = Math.ceil(total / 1000);
    const start = performance.now();
    const id = await createInterface(url, 'million', folder);
    for (let f = 0; f < files; f++) {
      // each file gets its own control ids, so every message is distinct
      writeFileSync(join(folder, `batch-${f}.hl7`), messages.slice(0, 1000).map((m, i) => m.replace(/BENCH\d+/, `M${f}-${i}`)).join('\r'));
      if (f % 20 === 19) await waitForCount(url, id, (f - 9) * 1000, 600_000);
    }
    await waitForCount(url, id, files * 1000, 1_800_000);
    const seconds = (performance.now() - start) / 1000;
    return { idleRssMb, rssMb: rssMbOf(child.pid ?? 0), seconds: Math.round(seconds), messagesPerSecond: Math.round((files * 1000) / seconds) };
  } finally {
    await killed(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the monitor bench and returns its figures. */
export async function runMonitorBench(): Promise<Record<string, number>> {
  const running = await boot(100);
  let single: number;
  let batch: number;
  let singleCeiling: number;
  let diskCeiling: number;
  let batchCeiling: number;
  let thousand: string[] = [];
  try {
    const adapter = adapterOf(running.workbench);
    const messages = oneKbMessages(adapter, 10_000);
    thousand = messages.slice(0, 1000);
    console.log(`message size ${messages[0].length} bytes`);
    const batches = Array.from({ length: 10 }, (_, b) => messages.slice(b * 1000, (b + 1) * 1000).map((m) => m.replace(/BENCH(\d+)/, 'BATCH$1')));
    singleCeiling = readerCeiling(running.workbench, messages);
    batchCeiling = readerCeiling(running.workbench, batches.map((b) => b.join('\r')));
    diskCeiling = await diskAndReaderCeiling(running, messages.map((m) => m.replace(/BENCH(\d+)/, 'DISK$1')));
    await warmUp(running, messages);
    single = await ingestRate(running, 'single', messages.map((m) => [m]));
    batch = await ingestRate(running, 'batch', batches);
  } finally {
    await running.stop();
  }
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  console.log(
    `files -> metrics, 10,000 single-message files: ${Math.round(single)} msg/s; ceiling (the HL7 reader alone): ${Math.round(singleCeiling)} msg/s; ratio ${ratio(single, singleCeiling)}x`,
  );
  console.log(
    `files -> metrics, 10,000 single-message files: ${Math.round(single)} msg/s; ceiling (the same files read from disk and by the reader, one thread): ${Math.round(diskCeiling)} msg/s; ratio ${ratio(single, diskCeiling)}x`,
  );
  console.log(
    `files -> metrics, 10 batch files of 1,000: ${Math.round(batch)} msg/s; ceiling (the HL7 reader alone): ${Math.round(batchCeiling)} msg/s; ratio ${ratio(batch, batchCeiling)}x`,
  );

  const alert = await dropToAlert(40);
  console.log(
    `drop to alert: p50 ${alert.p50} ms, p99 ${alert.p99} ms beside the settle time ${alert.settleMs} ms it includes: ratio ${ratio(alert.p99, alert.settleMs)}x (p99 beyond settle ${alert.p99 - alert.settleMs} ms)`,
  );

  const total = Number(process.env.WORKBENCH_BENCH_MONITOR_MESSAGES ?? 1_000_000);
  const memory = await rssAfter(total, thousand);
  console.log(
    `RSS after ingesting ${total.toLocaleString('en-US')} messages: ${memory.rssMb} MB beside ${memory.idleRssMb} MB idle after start: ratio ${ratio(memory.rssMb, memory.idleRssMb)}x (${memory.seconds} s, ${memory.messagesPerSecond} msg/s)`,
  );
  const rollups = await runMonitorRollupBench();
  return {
    ...rollups,
    singleFileMessagesPerSecond: Math.round(single),
    singleFileCeilingMessagesPerSecond: Math.round(singleCeiling),
    singleFileRatio: ratio(single, singleCeiling),
    singleFileDiskReaderCeilingMessagesPerSecond: Math.round(diskCeiling),
    singleFileDiskReaderRatio: ratio(single, diskCeiling),
    batchFileMessagesPerSecond: Math.round(batch),
    batchFileCeilingMessagesPerSecond: Math.round(batchCeiling),
    batchFileRatio: ratio(batch, batchCeiling),
    dropToAlertP50Ms: alert.p50,
    dropToAlertP99Ms: alert.p99,
    dropToAlertSettleMs: alert.settleMs,
    dropToAlertP99ToSettleRatio: ratio(alert.p99, alert.settleMs),
    idleRssMb: memory.idleRssMb,
    rssMbAfterMessages: memory.rssMb,
    rssToIdleRatio: ratio(memory.rssMb, memory.idleRssMb),
    messagesForRss: total,
    rssIngestMessagesPerSecond: memory.messagesPerSecond,
  };
}
