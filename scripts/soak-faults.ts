/**
 * The fault disruptions of `npm run soak` beside the kills and the store outage: a file whose message holds a NUL in
 * MSH-10 and PID-3 (PostgreSQL cannot store a NUL: the service must count it and keep every route answering), an
 * interface deleted while the load runs, and a minute with the data folder's disk full (a small tmpfs the soak mounts
 * when it may; otherwise skipped with a notice) while refused credentials make the audit trail write its checkpoint.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

/** A small HTTP request with headers; answers status and parsed JSON (null when none). */
export function call(method: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  return new Promise((resolve) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json: unknown = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          json = null;
        }
        resolve({ status: res.statusCode ?? 0, json });
      });
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, json: null }));
    req.end();
  });
}

/** An ADT^A01 message (CR segment ends) with the given control id and patient id, stamped now. */
export function adtMessage(controlId: string, patientId: string): string {
  const now = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return [
    `MSH|^~\\&|SOAK|FAC|RECV|FAC|${now}||ADT^A01^ADT_A01|${controlId}|P|2.5`,
    `EVN|A01|${now}`,
    `PID|1||${patientId}^^^HOSP^MR||DOE^JANE||19800101|F`,
    'PV1|1|I|WARD^101^1',
  ].join('\r');
}

/** Writes a file holding a message with a NUL in MSH-10 and PID-3, and a clean one after it. */
export function writeNulFile(folder: string): void {
  writeFileSync(join(folder, 'nul.hl7'), `${adtMessage('nul\x00byte', 'PAT\x00NUL')}\r${adtMessage('nul-clean', 'PAT-NUL-CLEAN')}\r`);
}

/** A folder on a tmpfs of `sizeMb` (unmounted by `release`), or undefined where mounting is not allowed. */
export function mountSmallDisk(parent: string, sizeMb: number): { folder: string; release(): void } | undefined {
  const folder = mkdtempSync(join(parent, 'small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', folder], { stdio: 'ignore' });
  } catch {
    rmSync(folder, { recursive: true, force: true });
    return undefined;
  }
  return {
    folder,
    release() {
      try {
        execFileSync('umount', ['-l', folder], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    },
  };
}

/** Fills the file system of `folder` with a filler file until it refuses; answers the filler's path. */
export function fillDisk(folder: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'soak-filler');
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

/** Health's status and its open conditions' keys. */
export async function healthConditions(healthUrl: string): Promise<{ status: string; keys: string[] }> {
  const answer = await call('GET', healthUrl);
  const report = answer.json as { status?: string; conditions?: Array<{ key: string }> } | null;
  return { status: report?.status ?? `http ${answer.status}`, keys: (report?.conditions ?? []).map((c) => c.key) };
}
