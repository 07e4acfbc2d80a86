/**
 * The V8 flags of a process that serves requests, given when the process starts. V8 reads its flags once, as it
 * starts; Node documents that changing them later (`v8.setFlagsFromString`) may do nothing or crash the process, so
 * `workbench start` runs the service in a child process started with them (bin/workbench.js's `node` cannot take V8
 * flags on its `#!` line, and NODE_OPTIONS refuses these two). The worker threads of the kernel's pool share the
 * process's V8, flags included; a worker's `execArgv` may not name V8 flags at all.
 *
 * - `--no-allocation-site-pretenuring`. V8 "pretenures" an allocation site (allocates its objects straight in the old
 *   generation) once a few young collections found most of them alive. Whether that happens to a parser's sites
 *   depends on timing at boot: a collection that runs while definitions load, or while a first large batch is read,
 *   can catch the parser's short-lived objects alive. Measured on the HL7 message reader, a process that made that
 *   decision read about 13,500 1 KB messages/s, one that did not about 45,000, and which one a start got was chance
 *   (`npm run bench -- monitor` prints the reader's rate). A service's allocations are nearly all short-lived (one
 *   message, one request), so the heuristic is off.
 * - `--heap-growing-percent=N` (`kernel.work.heapGrowthPercent`, 0 leaves V8's own choice). On a machine with much
 *   memory V8 lets the old generation reach about four times what survived the last full collection before it
 *   collects again, so a service that reads a steady stream of messages would hold hundreds of MB of garbage.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * Set in the child started with the flags to the starting process's pid, so the child never starts another one (say,
 * when a flag is spelt otherwise) and stops when that process is gone.
 */
const STARTED_WITH_FLAGS = 'WORKBENCH_V8_FLAGS_PARENT';

/** How often the child looks whether the process that started it is still there. */
const PARENT_CHECK_MS = 1_000;

/** The V8 flags a serving process runs with, for a heap growth of `heapGrowthPercent` (0: V8's own). */
export function serviceV8Flags(heapGrowthPercent: number): string[] {
  const flags = ['--no-allocation-site-pretenuring'];
  if (Number.isInteger(heapGrowthPercent) && heapGrowthPercent > 0) flags.push(`--heap-growing-percent=${heapGrowthPercent}`);
  return flags;
}

/**
 * The flags of `wanted` the process was not started with. A flag the process was given with another value
 * (`--heap-growing-percent=50` on the command line) counts as given: whoever starts node with a V8 flag chose it.
 */
export function missingV8Flags(wanted: readonly string[], execArgv: readonly string[] = process.execArgv): string[] {
  const name = (flag: string): string => flag.split('=')[0].replace(/_/g, '-');
  const given = new Set(execArgv.map(name));
  return wanted.filter((flag) => !given.has(name(flag)));
}

/**
 * Runs this process's command again in a child `node` started with `flags` before its own options, sharing its
 * standard streams; SIGINT and SIGTERM are passed on, so the child shuts down as it would on its own. Resolves with
 * the child's exit code (128 + the signal's number when a signal ended it).
 */
export function runAgainWithV8Flags(flags: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...flags, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [STARTED_WITH_FLAGS]: String(process.pid) },
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

/**
 * True in the child started by {@link runAgainWithV8Flags}, which then sends itself SIGTERM (a clean stop) once the
 * process that started it is gone, say killed with SIGKILL, which it could not pass on. The mark is taken out of
 * the environment, so processes this one starts are not taken for such a child.
 */
export function startedWithV8Flags(): boolean {
  const parent = Number(process.env[STARTED_WITH_FLAGS]);
  delete process.env[STARTED_WITH_FLAGS];
  if (!Number.isInteger(parent) || parent <= 0) return false;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, PARENT_CHECK_MS);
  timer.unref();
  return true;
}
