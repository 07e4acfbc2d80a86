/**
 * The monitor's crash scenario: a real `workbench start` in a child process watches a folder while files arrive;
 * the child is killed with SIGKILL at random moments and started again, several times; at the end every file must
 * be in the ledger exactly once and the message counts must be exact (ledger, message rows, minute roll-ups).
 * Used by test/monitor/monitor-crash.test.ts (scaled down) and by `node --import tsx scripts/monitor-crash.ts`
 * (full size: 5,000 files, 5 kills). `WORKBENCH_LOG_LEVEL` sets the children's log level (default warn; the end of the log is shown on failure) and
 * `WORKBENCH_CRASH_TRACE=1` copies their log to stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceCliArgs } from '../test/helpers/cli-process.ts';
import { send } from '../test/helpers/http-client.ts';
import { ledgerTotals } from './ledger-totals.ts';

/** Size of a run. */
export interface CrashScenarioOptions {
  files: number;
  kills: number;
  /** Seconds the files take to arrive (default 4 per kill, so the kills fall while they arrive). */
  writeSeconds?: number;
  /** Pseudo-random seed of the kill moments and message counts. */
  seed?: number;
  log?: (line: string) => void;
}

/** What the run found. */
export interface CrashScenarioResult {
  filesWritten: number;
  messagesWritten: number;
  kills: number;
  ledgerRows: number;
  ledgerPathsCountedTwice: number;
  ledgerMessages: number;
  messageRows: number;
  distinctControlIds: number;
  rollupMessages: number;
  seconds: number;
}

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

function message(controlId: string): string {
  return [
    `MSH|^~\\&|CRASH|TEST|RECV|FAC|20260101120000||ADT^A01^ADT_A01|${controlId}|P|2.5`,
    'EVN|A01|20260101120000',
    `PID|1||P${controlId}^^^HOSP^MR||DOE^JANE||19800101|F`,
    'PV1|1|I|WARD^101^1',
  ].join('\r');
}

/**
 * Writes the config of a service on ephemeral ports with its data under `root`; returns the config's path and the
 * data folder. `monitor` is the monitor's section; `extra` adds top-level sections (say `storage`, `work`).
 */
export function writeServiceConfig(
  root: string,
  monitor: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): { configPath: string; dataDir: string } {
  const dataDir = join(root, 'data');
  const configPath = join(root, 'config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      dataDir,
      servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
      plugins: { monitor },
      ...extra,
    }),
  );
  return { configPath, dataDir };
}

/**
 * Starts `workbench start` in a child process (from the sources by default; pass the compiled `bin/workbench.js` to
 * run the build); `monitorUrl` resolves with the monitor base address once it is printed.
 */
export function startServiceProcess(
  configPath: string,
  cli: readonly string[] = serviceCliArgs,
): { child: ChildProcess; monitorUrl: Promise<string>; output(): string } {
  const child = spawn(process.execPath, [...cli, 'start', '--config', configPath], {
    env: { ...process.env, WORKBENCH_LOG_LEVEL: process.env.WORKBENCH_LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const monitorUrl = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // the start is matched below; after it only the end of the log is kept
      if (output.length > 131_072) output = output.slice(-65_536);
      const match = /monitor\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    if (process.env.WORKBENCH_CRASH_TRACE) child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before starting:\n${output}`));
    });
  });
  monitorUrl.catch(() => undefined);
  return { child, monitorUrl, output: () => output };
}

/** Kills a child with SIGKILL (unless it already exited) and resolves once it is gone. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the scenario; the caller checks the result. */
export async function runCrashScenario(options: CrashScenarioOptions): Promise<CrashScenarioResult> {
  const log = options.log ?? (() => {});
  const rand = random(options.seed ?? 20261123);
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), 'workbench-crash-'));
  const watched = join(root, 'watched');
  mkdirSync(watched);
  const { configPath, dataDir } = writeServiceConfig(root, { settleMs: 200, checkIntervalMs: 500 });
  let current = startServiceProcess(configPath);
  try {
    let url = await current.monitorUrl;
    const created = await send(url, { method: 'POST', path: '/api/monitor/interfaces', body: { name: 'crash', directoryPath: watched } });
    if (created.status !== 201) throw new Error(`interface not created: ${created.text}`);
    const interfaceId = created.json.data.id as string;

    // the writer runs on its own, through every kill and restart, spread over about as long as the kills take
    const pauseMs = Math.max(5, ((options.writeSeconds ?? options.kills * 4) * 1000) / Math.ceil(options.files / 25));
    let messagesWritten = 0;
    let filesWritten = 0;
    const writer = (async () => {
      for (let i = 0; i < options.files; i++) {
        const count = 1 + Math.floor(rand() * 3);
        const body = Array.from({ length: count }, (_, k) => message(`C${i}-${k}`)).join('\r');
        writeFileSync(join(watched, `f${String(i).padStart(6, '0')}.hl7`), body);
        messagesWritten += count;
        filesWritten++;
        if (i % 25 === 24) await sleep(pauseMs);
      }
    })();

    for (let kill = 1; kill <= options.kills; kill++) {
      await sleep(300 + rand() * 1500);
      await killed(current.child);
      log(`kill ${kill}: ${filesWritten} files written so far`);
      current = startServiceProcess(configPath);
      url = await current.monitorUrl;
    }
    await writer;
    log(`all ${filesWritten} files written; waiting for the last of them`);
    const deadline = Date.now() + 300_000;
    for (;;) {
      const metrics = await send(url, { path: `/api/monitor/interfaces/${interfaceId}/metrics?sinceHours=2` });
      const total = metrics.json?.data?.messagesTotal as number | undefined;
      if (total !== undefined && total >= messagesWritten) break;
      if (Date.now() > deadline) {
        throw new Error(`only ${total} of ${messagesWritten} messages counted after 300 s; the service's log ends:\n${current.output().slice(-4000)}`);
      }
      await sleep(200);
    }
    // a moment more, so a late double count would show
    await sleep(1500);
    await killed(current.child);

    const totals = await ledgerTotals({ sqliteFile: join(dataDir, 'workbench.sqlite') });
    return {
      filesWritten,
      messagesWritten,
      kills: options.kills,
      ledgerRows: totals.ledgerRows,
      ledgerPathsCountedTwice: totals.pathsCountedTwice,
      ledgerMessages: totals.ledgerMessages,
      messageRows: totals.messageRows,
      distinctControlIds: totals.distinctControlIds,
      rollupMessages: totals.rollupMessages,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await killed(current.child);
    rmSync(root, { recursive: true, force: true });
  }
}
