/**
 * Helpers of the HTTP benchmarks: servers run in child processes (so the load generator never shares their event
 * loop), and autocannon measures requests/s and p99 latency.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const benchDir = dirname(fileURLToPath(import.meta.url));

/** A server child process and the line it printed when ready. */
export interface BenchServer {
  ready: string;
  stop(): Promise<void>;
}

/** Starts `bench/servers/<name>.ts` and waits for its READY line. */
export function startServer(name: string): Promise<BenchServer> {
  // WORKBENCH_BENCH_SERVER_NODE_ARGS adds Node options to the server alone (e.g. `--cpu-prof --cpu-prof-dir=DIR`)
  const nodeArgs = (process.env.WORKBENCH_BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(benchDir, 'servers', `${name}.ts`)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('READY '));
      if (!line) return;
      clearTimeout(timer);
      resolve({
        ready: line.slice('READY '.length),
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

/** Figures of one load run. */
export interface LoadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

/** Runs autocannon against one URL. */
export async function measureLoad(options: {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  durationSeconds?: number;
  connections?: number;
}): Promise<LoadFigures> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    ...(options.body ? { body: options.body, headers: { 'content-type': 'application/json' } } : {}),
    connections: options.connections ?? 10,
    duration: options.durationSeconds ?? 5,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/** Formats a number with thousands separators. */
export function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/**
 * Measures two targets in alternating rounds and sums them, so a load spike on the machine hits both alike.
 * Returns the figures of `a` and `b` (requests/s averaged over rounds, worst p99).
 */
export async function measurePair(
  a: Parameters<typeof measureLoad>[0],
  b: Parameters<typeof measureLoad>[0],
  rounds = 4,
): Promise<[LoadFigures, LoadFigures]> {
  const totals: [LoadFigures, LoadFigures] = [
    { requestsPerSecond: 0, p99Ms: 0, non2xx: 0 },
    { requestsPerSecond: 0, p99Ms: 0, non2xx: 0 },
  ];
  for (let round = 0; round < rounds; round++) {
    const order: Array<0 | 1> = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) {
      const figures = await measureLoad({ durationSeconds: 3, ...(index === 0 ? a : b) });
      totals[index].requestsPerSecond += figures.requestsPerSecond / rounds;
      totals[index].p99Ms = Math.max(totals[index].p99Ms, figures.p99Ms);
      totals[index].non2xx += figures.non2xx;
    }
  }
  for (const total of totals) total.requestsPerSecond = Math.round(total.requestsPerSecond);
  return totals;
}
