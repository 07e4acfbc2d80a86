// A full disk is a condition of the machine, never a crash: a write refused for want of space answers 507
// STORAGE_FULL naming the disk, health says degraded with the reason, background work that fails (the audit
// checkpoint's deferred write) is logged and reported instead of thrown into the process, no temporary file is left
// half-written, and everything resumes by itself once space returns. Proven twice: with ENOSPC injected at the
// storage layer, and on a small tmpfs the test mounts and fills (skipped with a notice where mounting is not allowed).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { createRoleKeys, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import { waitFor } from '../monitor/monitor-harness.ts';

type Health = { status: string; conditions: Array<{ key: string; reason: string }> };

const health = async (wb: TestWorkbench): Promise<Health> => (await wb.call('monitor', { path: '/api/health' })).json;
const assignRole = (wb: TestWorkbench, keys: RoleKeys, userId: string) =>
  wb.call('monitor', withBearer({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId, role: 'MonitorViewer' } }, keys.admin));

describe('a write refused for want of space (injected at the storage layer)', () => {
  let wb: TestWorkbench | undefined;
  const statement = Object.getPrototypeOf(new Database(':memory:').prepare('select 1')) as {
    run: (...args: unknown[]) => unknown;
    all: (...args: unknown[]) => unknown;
  };
  const { run, all } = statement;
  const restore = () => {
    statement.run = run;
    statement.all = all;
  };
  afterEach(async () => {
    restore();
    await wb?.stop();
  });

  it('answers 507 STORAGE_FULL naming the data folder, says degraded, and resumes once writes succeed again', async () => {
    wb = await startTestWorkbench();
    const keys = await createRoleKeys(wb);
    const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    // Every statement that writes fails as SQLite fails on a full disk; reads go on.
    statement.run = function (this: { source: string }, ...args: unknown[]) {
      if (!/^\s*select/i.test(this.source)) throw full();
      return run.apply(this, args);
    };
    statement.all = function (this: { source: string }, ...args: unknown[]) {
      if (!/^\s*select/i.test(this.source)) throw full();
      return all.apply(this, args);
    };
    const refused = await assignRole(wb, keys, 'while-full');
    expect(refused.status, refused.text).toBe(507);
    expect(refused.json.error.code).toBe('STORAGE_FULL');
    expect(refused.json.error.message).toContain(`the data folder ${wb.dataDir}`);
    const degraded = await health(wb);
    expect(degraded.status).toBe('degraded');
    expect(degraded.conditions.map((c) => c.key)).toContain('storage-full');
    restore();
    await waitFor(async () => (await health(wb!)).status === 'healthy' || undefined, 30_000, 'healthy once space returned');
    const accepted = await assignRole(wb, keys, 'after-full');
    expect(accepted.status, accepted.text).toBe(200);
  });

  it('holds received files while commits are refused, says why, and counts them once space returns', async () => {
    wb = await startTestWorkbench({ config: { plugins: { monitor: { settleMs: 150, checkIntervalMs: 100, pollingIntervalMs: 100 } } } });
    const folder = join(wb.dataDir, 'watched');
    mkdirSync(folder);
    const created = await wb.call('monitor', { method: 'POST', path: '/api/monitor/interfaces', body: { name: 'full-disk', directoryPath: folder } });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id as string;
    const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    statement.run = function (this: { source: string }, ...args: unknown[]) {
      if (!/^\s*select/i.test(this.source)) throw full();
      return run.apply(this, args);
    };
    statement.all = function (this: { source: string }, ...args: unknown[]) {
      if (!/^\s*select/i.test(this.source)) throw full();
      return all.apply(this, args);
    };
    const message = 'MSH|^~\\&|A|B|C|D|20260101120000||ADT^A01^ADT_A01|FULL1|P|2.5\rEVN|A01|20260101120000\rPID|1||P1^^^H^MR||DOE^JANE\r';
    writeFileSync(join(folder, 'during-full.hl7'), message);
    await waitFor(async () => (await health(wb!)).conditions.some((c) => c.key === 'storage-full') || undefined, 30_000, 'the refused commit reported');
    restore();
    const counted = await waitFor(async () => {
      const totals = (await wb!.call('monitor', { path: `/api/monitor/interfaces/${id}/metrics?sinceHours=48` })).json.data;
      return totals?.messagesTotal >= 1 ? totals : undefined;
    }, 60_000, 'the held file counted');
    expect(counted.messagesTotal).toBe(1);
  }, 120_000);
});

/** Mounts a tmpfs of `sizeMb` on a fresh folder; undefined where mounting is not allowed. */
function mountTmpfs(sizeMb: number): string | undefined {
  const folder = mkdtempSync(join(tmpdir(), 'workbench-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', folder], { stdio: 'ignore' });
    return folder;
  } catch {
    rmSync(folder, { recursive: true, force: true });
    return undefined;
  }
}

/** Writes a filler file until the file system refuses (ENOSPC); answers its path. */
function fillDisk(folder: string): string {
  const path = join(folder, 'filler');
  const fd = openSync(path, 'w');
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Whether a tmpfs may be mounted here (mounted and released at once). */
function mountingAllowed(): boolean {
  const probe = mountTmpfs(1);
  if (!probe) return false;
  execFileSync('umount', [probe], { stdio: 'ignore' });
  rmSync(probe, { recursive: true, force: true });
  return true;
}

const canMount = mountingAllowed();
if (!canMount) console.warn('[notice] mounting a tmpfs is not allowed here: the full-disk test on a real file system is skipped.');

describe.skipIf(!canMount)('a full file system under the data folder (tmpfs)', () => {
  let wb: TestWorkbench | undefined;
  let disk: string | undefined;
  beforeAll(() => {
    disk = mountTmpfs(24);
  });
  afterAll(async () => {
    await wb?.stop();
    if (disk) {
      execFileSync('umount', [disk], { stdio: 'ignore' });
      rmSync(disk, { recursive: true, force: true });
    }
  });

  it('keeps the process alive, answers 507, leaves no temporary file and resumes when space returns', async () => {
    const dataDir = join(disk as string, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    wb = await startTestWorkbench({ config: { dataDir } });
    const keys = await createRoleKeys(wb);
    expect((await assignRole(wb, keys, 'before')).status).toBe(200);
    const filler = fillDisk(disk as string);
    // Writes until one is refused: every answer is 200 (the log had room) or 507, never a 500.
    const statuses: number[] = [];
    const refusals: Array<[number, string | undefined]> = [];
    for (let i = 0; i < 400 && !statuses.includes(507); i++) {
      const answer = await assignRole(wb, keys, `user-${i}-${'x'.repeat(150)}`);
      statuses.push(answer.status);
      if (answer.status !== 200) refusals.push([answer.status, answer.json?.error?.code]);
    }
    expect(statuses).toContain(507);
    expect(refusals).toEqual(refusals.map(() => [507, 'STORAGE_FULL']));
    // The checkpoint's deferred write failed too (a timer): reported, not thrown; no temporary file stays behind.
    const degraded = await waitFor(async () => {
      const report = await health(wb!);
      return report.conditions.some((c) => c.key === 'job:audit:checkpoint-write') ? report : undefined;
    }, 15_000, 'the failed checkpoint write reported');
    expect(degraded.status).toBe('degraded');
    expect(degraded.conditions.map((c) => c.key)).toContain('storage-full');
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    rmSync(filler);
    await waitFor(async () => (await health(wb!)).status === 'healthy' || undefined, 30_000, 'healthy once space returned');
    const accepted = await assignRole(wb, keys, 'after');
    expect(accepted.status, accepted.text).toBe(200);
    const verified = await wb.call('monitor', withBearer({ path: '/api/monitor/audit/verify' }, keys.admin));
    expect(verified.json.data.intact, JSON.stringify(verified.json.data.brokenLinks)).toBe(true);
  }, 120_000);
});
