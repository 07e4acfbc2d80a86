/**
 * A full disk is a condition of the machine, not a fault of the service: a write refused for want of space answers
 * 507 `STORAGE_FULL` naming the disk, health says `degraded` with the reason, and everything resumes by itself once
 * space returns. {@link isDiskFull} recognises the refusal whoever raised it (the file system's ENOSPC or EDQUOT,
 * SQLite's SQLITE_FULL, PostgreSQL's disk_full 53100); {@link DiskWatch} opens the `storage-full` condition and
 * closes it once the data folder has room again.
 */
import { statfsSync } from 'node:fs';
import type { Logger } from 'pino';
import { kernelErrors, type WorkbenchError } from '../errors.ts';
import type { ServiceFaults } from '../background/service-faults.ts';

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);
const DISK_FULL_MESSAGES = /no space left on device|disk quota exceeded|database or disk is full|could not extend file/i;

/** Key of the condition health shows while the disk is full. */
export const STORAGE_FULL = 'storage-full';

/** Free bytes below which the data folder's disk still counts as full. */
const MIN_FREE_BYTES = 1024 * 1024;
/** A disk-full refusal keeps the condition open at least this long (a PostgreSQL server's disk cannot be asked). */
const HOLD_MS = 5_000;

/** True when `error` (or its cause) is a write refused because the disk or the quota is full. */
export function isDiskFull(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
  if (typeof message === 'string' && DISK_FULL_MESSAGES.test(message)) return true;
  return isDiskFull(cause, depth + 1);
}

/** Free bytes of the file system holding `path`, or undefined when it cannot be asked. */
export function freeBytes(path: string): number | undefined {
  try {
    const stats = statfsSync(path);
    return Number(stats.bavail) * Number(stats.bsize);
  } catch {
    return undefined;
  }
}

/** Watches for disk-full refusals of this process's writes (database and data folder). */
export class DiskWatch {
  private lastRefusalMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly faults: ServiceFaults,
    /** The data folder (the SQLite store, the audit checkpoint, keys). */
    private readonly dataDir: string,
    /** Where the database lives, as health names it: `the data folder <path>` or `the PostgreSQL server`. */
    private readonly storeName: string,
    private readonly logger?: Logger,
  ) {}

  /**
   * Notes a failure: a disk-full one opens the condition (logged once per episode) and answers true, anything else
   * answers false and changes nothing.
   */
  noticed(error: unknown, where = this.storeName): boolean {
    if (!isDiskFull(error)) return false;
    this.lastRefusalMs = Date.now();
    if (!this.faults.has(STORAGE_FULL)) {
      this.logger?.error({ err: error, where }, 'the disk is full: writes are refused until space returns');
    }
    this.faults.report(STORAGE_FULL, `The disk of ${where} is full: writes are refused (507 STORAGE_FULL) until space returns.`, () => this.stillFull());
    return true;
  }

  /** The 507 a caller gets for a write refused for want of space. */
  refusal(where = this.storeName): WorkbenchError {
    return kernelErrors.create('STORAGE_FULL', { where });
  }

  private stillFull(): boolean {
    if (Date.now() - this.lastRefusalMs < HOLD_MS) return true;
    const free = freeBytes(this.dataDir);
    return free !== undefined && free < MIN_FREE_BYTES;
  }
}
