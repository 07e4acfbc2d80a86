/**
 * `npm run bench -- load`: the shared process under dashboard load. A real Workbench (child process) watches a
 * folder while another child runs 100 clients polling metrics, status and report, 50 validating messages and a
 * writer dropping files as fast as it can, for 60 s (WORKBENCH_LOAD_SECONDS; WORKBENCH_LOAD_POLLERS,
 * WORKBENCH_LOAD_VALIDATORS, WORKBENCH_LOAD_FILES_PER_SECOND with 0 for full speed). This process only probes
 * `GET /api/health`, one request at a time, so its figures are the service's: health p99 under load beside health
 * alone on the same idle service, failed requests of every kind, and files written beside files counted.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, startServer } from './http-load.ts';
import { envNumber, percentile, postJson, timedGet, type LoadOutcome } from './load-http.ts';

const benchDir = dirname(fileURLToPath(import.meta.url));

/** Probes health one request at a time, every `gapMs`, until `until()` says stop; answers latencies and failures. */
async function probeHealth(url: string, until: () => boolean, gapMs: number): Promise<{ latencies: number[]; failed: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let failed = 0;
  while (!until()) {
    const answer = await timedGet(url, agent);
    latencies.push(answer.ms);
    if (answer.status !== 200) failed++;
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  agent.destroy();
  return { latencies: latencies.sort((a, b) => a - b), failed };
}

/** Runs the load and prints the figures; returns them flat. */
export async function runLoadBench(): Promise<Record<string, number>> {
  const seconds = envNumber('WORKBENCH_LOAD_SECONDS', 60);
  const pollers = envNumber('WORKBENCH_LOAD_POLLERS', 100);
  const validators = envNumber('WORKBENCH_LOAD_VALIDATORS', 50);
  const filesPerSecond = envNumber('WORKBENCH_LOAD_FILES_PER_SECOND', 0);
  const root = mkdtempSync(join(tmpdir(), 'wb-load-bench-'));
  const folder = join(root, 'watched');
  mkdirSync(folder);
  const server = await startServer('workbench-server');
  try {
    const urls = JSON.parse(server.ready) as Record<string, string>;
    const created = await postJson(`${urls.monitor}/api/monitor/interfaces`, { name: 'load', directoryPath: folder });
    if (created.status !== 201) throw new Error(`interface not created: ${JSON.stringify(created.json)}`);
    const interfaceId = created.json.data.id as string;
    const healthUrl = `${urls.monitor}/api/health`;

    // The same service idle: health alone, probed the same way.
    const idleUntil = performance.now() + Math.max(3, Math.min(10, seconds / 3)) * 1000;
    const idle = await probeHealth(healthUrl, () => performance.now() > idleUntil, 20);

    const plan = { monitorUrl: urls.monitor, bridgeUrl: urls.bridge, interfaceId, folder, seconds, pollers, validators, filesPerSecond };
    const child = spawn(process.execPath, ['--import', 'tsx', join(benchDir, 'servers', 'load-clients.ts'), JSON.stringify(plan)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let loadDone = false;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    void exited.then(() => (loadDone = true));
    const loaded = await probeHealth(healthUrl, () => loadDone, 20);
    await exited;
    const result = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { filesWritten: number; outcomes: Record<string, LoadOutcome> };

    // Every file written is counted once the ingest catches up (up to two minutes after the load).
    const messagesCounted = async () => {
      const answer = await timedGet(`${urls.monitor}/api/monitor/interfaces/${interfaceId}/metrics?sinceHours=24`, new http.Agent());
      return answer.status === 200 ? (JSON.parse(answer.text).data.messagesTotal as number) : -1;
    };
    const catchUpDeadline = performance.now() + 120_000;
    let counted = await messagesCounted();
    while (counted < result.filesWritten && performance.now() < catchUpDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      counted = await messagesCounted();
    }

    const kinds = Object.entries(result.outcomes);
    const requests = kinds.reduce((n, [, o]) => n + o.ok + o.failed, 0);
    const failed = kinds.reduce((n, [, o]) => n + o.failed, 0);
    const idleP99 = percentile(idle.latencies, 99);
    const loadP50 = percentile(loaded.latencies, 50);
    const loadP99 = percentile(loaded.latencies, 99);
    console.log(
      `${pollers} dashboard clients (metrics/status/report) + ${validators} validating + files at ${filesPerSecond > 0 ? `${filesPerSecond}/s` : 'full speed'} for ${seconds} s`,
    );
    for (const [kind, o] of kinds) {
      console.log(`  ${kind.padEnd(9)} ${fmt(o.ok + o.failed)} requests, ${fmt(o.failed)} failed (${o.resets} resets, ${o.timeouts} time-outs, ${o.non2xx} non-2xx), slowest ${fmt(o.maxMs)} ms`);
    }
    console.log(
      `GET /api/health under load: ${loaded.latencies.length} probes, p50 ${fmt(loadP50, 1)} ms, p99 ${fmt(loadP99, 1)} ms, ${loaded.failed} failed | health alone on the idle service: p99 ${fmt(idleP99, 1)} ms | ratio ${fmt(loadP99 / idleP99, 1)}x (goal: p99 under 100 ms)`,
    );
    console.log(`requests: ${fmt(requests)}, failed ${fmt(failed)} (goal 0) | files written ${fmt(result.filesWritten)}, messages counted ${fmt(counted)}`);
    return {
      seconds,
      requests,
      failedRequests: failed,
      healthProbes: loaded.latencies.length,
      healthFailed: loaded.failed,
      healthP50Ms: Math.round(loadP50 * 10) / 10,
      healthP99Ms: Math.round(loadP99 * 10) / 10,
      idleHealthP99Ms: Math.round(idleP99 * 10) / 10,
      healthP99Ratio: Math.round((loadP99 / idleP99) * 10) / 10,
      filesWritten: result.filesWritten,
      messagesCounted: counted,
      reportRequests: (result.outcomes.report?.ok ?? 0) + (result.outcomes.report?.failed ?? 0),
      validateRequests: (result.outcomes.validate?.ok ?? 0) + (result.outcomes.validate?.failed ?? 0),
    };
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
