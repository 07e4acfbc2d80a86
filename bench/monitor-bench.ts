/**
 * Monitor bench: messages per second from files on disk to queryable metrics, beside a ceiling measured in the same
 * run (validating the same messages through the same registry adapter, no files, no database); drop-to-alert latency
 * p99; RSS after ingesting 1,000,000 messages.
 *
 * - Throughput: 1 KB ADT^A01 v2.5 messages (seeded generator, padded to 1,024 bytes), as 10,000 single-message
 *   files and as 10 batch files of 1,000; the clock runs from creating the interface over the already-written files
 *   to the metrics route answering the full count. Settle time 100 ms here (it is a fixed delay, not work).
 * - Drop to alert: a file that is not HL7 written into a watched folder, to the `alert.raised` event on the bus
 *   (settle time the default 500 ms); then a good file clears the episode; 40 rounds.
 * - Memory: 1,000 batch files of 1,000 messages (1,000,000 messages, raw text kept) into a service started as
 *   `workbench start` in its own process; its RSS once the last message is counted.
 *   `WORKBENCH_BENCH_MONITOR_MESSAGES` scales it down for a quick run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench, type Workbench } from '../kernel/workbench.ts';
import type { EventBus } from '../kernel/events.ts';
import type { StandardAdapter, StandardsRegistry } from '../kernel/standards-registry.ts';
import { TOKENS } from '../kernel/tokens.ts';
import { projectRoot } from '../kernel/project-root.ts';
import { send } from '../test/helpers/http-client.ts';
import { killed, startServiceProcess, writeServiceConfig } from '../scripts/monitor-crash-scenario.ts';

const MESSAGE_BYTES = 1024;

interface Running {
  workbench: Workbench;
  monitorUrl: string;
  dir: string;
  stop(): Promise<void>;
}

async function boot(settleMs: number): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-monitor-bench-'));
  const workbench = await createWorkbench({
    env: {},
    overrides: {
      dataDir: join(dir, 'data'),
      logging: { level: 'error' },
      servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
      plugins: { monitor: { settleMs, checkIntervalMs: 1000 } },
    },
  });
  const urls = await workbench.start();
  return {
    workbench,
    monitorUrl: urls.monitor,
    dir,
    async stop() {
      await workbench.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function adapterOf(workbench: Workbench): StandardAdapter {
  const adapter = workbench.container.resolve<StandardsRegistry>(TOKENS.Standards).get('hl7');
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
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Messages/s of the ingest of files already in a folder, to the metrics showing them all. */
async function ingestRate(running: Running, name: string, files: string[][]): Promise<number> {
  const folder = join(running.dir, name);
  mkdirSync(folder);
  files.forEach((messages, i) => writeFileSync(join(folder, `${name}-${i}.hl7`), messages.join('\r')));
  const total = files.reduce((sum, f) => sum + f.length, 0);
  const start = performance.now();
  const id = await createInterface(running.monitorUrl, name, folder);
  await waitForCount(running.monitorUrl, id, total, 600_000);
  return total / ((performance.now() - start) / 1000);
}

/** Messages/s of validating the same messages through the adapter, nothing else: the ceiling of the ingest. */
function validationCeiling(adapter: StandardAdapter, messages: string[]): number {
  for (const m of messages.slice(0, 500)) adapter.validate(m, { mode: 'compatibility' });
  const start = performance.now();
  for (const m of messages) adapter.validate(m, { mode: 'compatibility' });
  return messages.length / ((performance.now() - start) / 1000);
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
    const id = await createInterface(running.monitorUrl, 'alerts', folder);
    const events = running.workbench.container.resolve<EventBus>(TOKENS.Events);
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
      await waitForCount(running.monitorUrl, id, 2 * (i + 1), 60_000);
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

/**
 * RSS (MB) of a started service (`workbench start`, compiled build, in its own process) after it ingested `total`
 * messages written as batch files of 1,000.
 */
async function rssAfter(total: number, messages: string[]): Promise<{ rssMb: number; seconds: number; messagesPerSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-monitor-rss-'));
  const folder = join(dir, 'million');
  mkdirSync(folder);
  const { configPath } = writeServiceConfig(dir, { settleMs: 100 });
  const { child, monitorUrl } = startServiceProcess(configPath, [join(projectRoot, 'bin', 'workbench.js')]);
  try {
    const url = await monitorUrl;
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
    return { rssMb: rssMbOf(child.pid ?? 0), seconds: Math.round(seconds), messagesPerSecond: Math.round((files * 1000) / seconds) };
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
  let ceiling: number;
  let thousand: string[] = [];
  try {
    const adapter = adapterOf(running.workbench);
    const messages = oneKbMessages(adapter, 10_000);
    thousand = messages.slice(0, 1000);
    console.log(`message size ${messages[0].length} bytes`);
    ceiling = validationCeiling(adapter, messages);
    single = await ingestRate(running, 'single', messages.map((m) => [m]));
    const batches = Array.from({ length: 10 }, (_, b) => messages.slice(b * 1000, (b + 1) * 1000).map((m) => m.replace(/BENCH(\d+)/, 'BATCH$1')));
    batch = await ingestRate(running, 'batch', batches);
    const ceilingAgain = validationCeiling(adapter, messages);
    ceiling = Math.max(ceiling, ceilingAgain);
  } finally {
    await running.stop();
  }
  console.log(`files -> metrics, 10,000 single-message files: ${Math.round(single)} msg/s; ceiling (validation alone): ${Math.round(ceiling)} msg/s; ratio ${(single / ceiling).toFixed(2)}x`);
  console.log(`files -> metrics, 10 batch files of 1,000: ${Math.round(batch)} msg/s; ratio ${(batch / ceiling).toFixed(2)}x`);

  const alert = await dropToAlert(40);
  console.log(`drop to alert: p50 ${alert.p50} ms, p99 ${alert.p99} ms (settle time ${alert.settleMs} ms; p99 beyond settle ${alert.p99 - alert.settleMs} ms)`);

  const total = Number(process.env.WORKBENCH_BENCH_MONITOR_MESSAGES ?? 1_000_000);
  const memory = await rssAfter(total, thousand);
  console.log(`RSS after ingesting ${total.toLocaleString('en-US')} messages: ${memory.rssMb} MB (${memory.seconds} s, ${memory.messagesPerSecond} msg/s)`);
  return {
    singleFileMessagesPerSecond: Math.round(single),
    batchFileMessagesPerSecond: Math.round(batch),
    validationCeilingMessagesPerSecond: Math.round(ceiling),
    singleFileRatio: Number((single / ceiling).toFixed(2)),
    batchFileRatio: Number((batch / ceiling).toFixed(2)),
    dropToAlertP50Ms: alert.p50,
    dropToAlertP99Ms: alert.p99,
    dropToAlertSettleMs: alert.settleMs,
    rssMbAfterMessages: memory.rssMb,
    messagesForRss: total,
    millionIngestMessagesPerSecond: memory.messagesPerSecond,
  };
}
