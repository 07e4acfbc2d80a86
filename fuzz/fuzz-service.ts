/**
 * The service under fuzzing: a real `workbench start` in a child process of its own (from the sources), on
 * ephemeral loopback ports with a throw-away data folder. It is watched for an unexpected exit (a crash), can be
 * started again, and reports its peak resident memory (Linux `VmHWM`, else the largest of periodic samples).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { printedAddresses, writeServiceConfig } from '../test/helpers/service-process.ts';
import { sourceCliArgs } from '../test/helpers/cli-process.ts';

/** A running service. */
export interface FuzzService {
  /** Base address of the bridge (`http://127.0.0.1:PORT`). */
  readonly bridge: string;
  /** Set when the process ended without being asked to: its exit code or signal and the last lines it printed. */
  readonly crashed: string | undefined;
  /** Peak resident memory so far, in MB (of this process; a restarted one starts again). */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** Services started and not yet stopped, so an interrupted run can stop them rather than leave them running. */
const running = new Set<FuzzService>();

/** Stops every service still running (on Ctrl+C or SIGTERM of the fuzz run). */
export async function stopAllFuzzServices(): Promise<void> {
  await Promise.all([...running].map((service) => service.stop()));
}

/** Most output kept for a crash report. */
const KEPT_OUTPUT = 8_000;

function residentMb(pid: number): { peak: number; now: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
  } catch {
    try {
      const now = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
      return { peak: now, now };
    } catch {
      return { peak: 0, now: 0 };
    }
  }
}

/** Starts the service and waits until it serves. */
export async function startFuzzService(): Promise<FuzzService> {
  const { folder, configPath } = writeServiceConfig({ logging: { level: 'error' } });
  const child: ChildProcess = spawn(process.execPath, [...sourceCliArgs, 'start', '--config', configPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WORKBENCH_CONFIG: '' },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-KEPT_OUTPUT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let stopping = false;
  let crashed: string | undefined;
  let sampledPeak = 0;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      if (!stopping) crashed = `the service exited (code ${code}, signal ${signal}); its last output:\n${output}`;
      resolve();
    });
  });
  const sampler = setInterval(() => {
    if (child.pid !== undefined) sampledPeak = Math.max(sampledPeak, residentMb(child.pid).now);
  }, 250);
  sampler.unref();
  const deadline = Date.now() + 120_000;
  while (!output.includes('Press Ctrl+C to stop.')) {
    if (crashed) throw new Error(crashed);
    if (Date.now() > deadline) throw new Error(`the service did not start within 120 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const bridge = printedAddresses(output).bridge;
  if (!bridge) throw new Error(`the service printed no bridge address:\n${output}`);
  const service: FuzzService = {
    bridge,
    get crashed() {
      return crashed;
    },
    peakRssMb() {
      const pid = child.pid;
      const measured = pid !== undefined && !crashed ? residentMb(pid).peak : 0;
      return Math.max(measured, sampledPeak);
    },
    async stop() {
      running.delete(service);
      clearInterval(sampler);
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  running.add(service);
  return service;
}
