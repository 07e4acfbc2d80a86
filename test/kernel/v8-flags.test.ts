// V8 flags are given when the service's process starts, never changed at run time: `workbench start` started without
// them serves from a child started with them (the same command), which passes SIGTERM on and stops by itself when
// the process that started it is killed; a process started with them serves itself.
import { describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingV8Flags, serviceV8Flags } from '../../kernel/v8-flags.ts';
import { serviceCliArgs, sourceCliArgs } from '../helpers/cli-process.ts';

describe('the flags a serving process wants', () => {
  it('turns pretenuring off and sets the heap growth, leaving V8 its own growth for 0', () => {
    expect(serviceV8Flags(100)).toEqual(['--no-allocation-site-pretenuring', '--heap-growing-percent=100']);
    expect(serviceV8Flags(0)).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('counts a flag given with another value or spelt with underscores as given', () => {
    const wanted = serviceV8Flags(50);
    expect(missingV8Flags(wanted, ['--import', 'tsx'])).toEqual(wanted);
    expect(missingV8Flags(wanted, ['--heap_growing_percent=20'])).toEqual(['--no-allocation-site-pretenuring']);
    expect(missingV8Flags(wanted, ['--no-allocation-site-pretenuring', '--heap-growing-percent=50'])).toEqual([]);
  });
});

const procAvailable = existsSync('/proc/self/task');

/** The pids of the children of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

/** The command line of `pid`, argument by argument. */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** Runs `workbench start` with `nodeArgs` on free ports and a fresh data folder; resolves once it serves. */
async function startService(nodeArgs: readonly string[]): Promise<{ child: ChildProcess; exited: Promise<number | null>; done(): void }> {
  const work = mkdtempSync(join(tmpdir(), 'wb-v8-flags-'));
  const child = spawn(process.execPath, [...nodeArgs, 'start'], {
    env: {
      ...process.env,
      WORKBENCH_CONFIG: '',
      WORKBENCH_DATA_DIR: join(work, 'data'),
      WORKBENCH_LOG_LEVEL: 'warn',
      WORKBENCH_BRIDGE_PORT: '0',
      WORKBENCH_MONITOR_PORT: '0',
      WORKBENCH_POPULATION_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await vi.waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before serving:\n${output}`);
      expect(output).toContain('Press Ctrl+C');
    },
    { timeout: 120_000, interval: 100 },
  );
  return { child, exited, done: () => rmSync(work, { recursive: true, force: true }) };
}

describe.skipIf(!procAvailable)('workbench start', () => {
  it('serves from a child started with the flags, which stops on SIGTERM passed on and exits 0', { timeout: 180_000 }, async () => {
    const service = await startService(sourceCliArgs);
    try {
      const [server] = childrenOf(service.child.pid as number);
      expect(server).toBeGreaterThan(0);
      const args = commandLine(server);
      expect(args).toEqual(expect.arrayContaining(['--no-allocation-site-pretenuring', '--heap-growing-percent=100']));
      expect(args.slice(-1)).toEqual(['start']);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect(existsSync(`/proc/${server}`)).toBe(false);
    } finally {
      service.child.kill('SIGKILL');
      service.done();
    }
  });

  it('stops the serving child when the process that started it is killed', { timeout: 180_000 }, async () => {
    const service = await startService(sourceCliArgs);
    const [server] = childrenOf(service.child.pid as number);
    try {
      expect(server).toBeGreaterThan(0);
      service.child.kill('SIGKILL');
      await service.exited;
      await vi.waitFor(() => expect(existsSync(`/proc/${server}`) && !readFileSync(`/proc/${server}/stat`, 'utf8').includes(') Z ')).toBe(false), {
        timeout: 60_000,
        interval: 200,
      });
    } finally {
      if (server && existsSync(`/proc/${server}`)) process.kill(server, 'SIGKILL');
      service.done();
    }
  });

  it('serves in the process itself when it was started with the flags', { timeout: 180_000 }, async () => {
    const service = await startService(serviceCliArgs);
    try {
      expect(childrenOf(service.child.pid as number)).toEqual([]);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      service.child.kill('SIGKILL');
      service.done();
    }
  });
});
