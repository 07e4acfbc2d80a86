/**
 * Shared setup of the monitor tests: a real Workbench with the monitor on a short settle time, throw-away watched
 * folders, HL7 files built from a template, and polling waits. Tests wait for what they expect by polling; the few
 * that must let time pass with nothing to poll for sleep a fixed time and say why (a lock held past the busy timeout
 * in monitor-recovery, a file written slower than the settle time in monitor-watching).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { vi } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorkbench, type TestWorkbench, type TestWorkbenchOptions } from '../helpers/test-workbench.ts';
import type { TestResponse } from '../helpers/http-client.ts';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';

/** Storage a harness runs on. */
export type StorageName = 'sqlite' | 'postgres';

/** The storages to run a suite on: SQLite always, PostgreSQL when its URL is set (else a visible notice). */
export function storages(): StorageName[] {
  if (testPostgresUrl) return ['sqlite', 'postgres'];
  console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: monitor tests run on SQLite only.');
  return ['sqlite'];
}

/** A running instance plus the folders it watches, all removed by `stop()`. */
export interface MonitorHarness {
  wb: TestWorkbench;
  /** Creates a fresh folder under the harness's temp root. */
  folder(name?: string): string;
  get(path: string): Promise<TestResponse>;
  post(path: string, body?: unknown): Promise<TestResponse>;
  put(path: string, body: unknown): Promise<TestResponse>;
  del(path: string): Promise<TestResponse>;
  stop(): Promise<void>;
}

/** Boots a Workbench for monitor tests; `monitor` is merged into `plugins.monitor`. */
export async function startMonitorHarness(
  options: {
    monitor?: Record<string, unknown>;
    /** Config sections of other plugins (say `analytics`), beside the monitor's. */
    plugins?: Record<string, unknown>;
    config?: Record<string, unknown>;
    /** `postgres` runs on a fresh schema of WORKBENCH_TEST_POSTGRES_URL. */
    storage?: StorageName;
  } & Omit<TestWorkbenchOptions, 'config'> = {},
): Promise<MonitorHarness> {
  const { monitor, plugins, config, storage, ...rest } = options;
  const root = mkdtempSync(join(tmpdir(), 'workbench-watched-'));
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;
  if (storage === 'postgres') {
    if (!testPostgresUrl) throw new Error('WORKBENCH_TEST_POSTGRES_URL is not set');
    schema = await freshPostgresSchema(testPostgresUrl);
  }
  const wb = await startTestWorkbench({
    ...rest,
    config: {
      ...(config ?? {}),
      ...(schema ? { storage: { url: schema.url } } : {}),
      plugins: { ...(plugins ?? {}), monitor: { settleMs: 150, checkIntervalMs: 100, pollingIntervalMs: 100, ...(monitor ?? {}) } },
    },
  });
  let folders = 0;
  return {
    wb,
    folder(name) {
      const path = join(root, name ?? `folder-${++folders}`);
      mkdirSync(path, { recursive: true });
      return path;
    },
    get: (path) => wb.call('monitor', { method: 'GET', path }),
    post: (path, body) => wb.call('monitor', { method: 'POST', path, body: body ?? {} }),
    put: (path, body) => wb.call('monitor', { method: 'PUT', path, body }),
    del: (path) => wb.call('monitor', { method: 'DELETE', path }),
    async stop() {
      await wb.stop();
      await schema?.drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A segment with the given fields (by number), empty fields between. */
function segment(name: string, fields: Record<number, string>): string {
  const last = Math.max(...Object.keys(fields).map(Number));
  const values = Array.from({ length: last }, (_, i) => fields[i + 1] ?? '');
  return [name, ...values].join('|');
}

/** An ADT^A01 v2.5 message with the given control id, patient id and MSH-7. */
export function adtMessage(controlId: string, options: { patientId?: string; account?: string; time?: string } = {}): string {
  const time = options.time ?? '20260101120000';
  const patient = options.patientId ?? `P${controlId}`;
  return [
    `MSH|^~\\&|SENDAPP|SENDFAC|RECVAPP|RECVFAC|${time}||ADT^A01^ADT_A01|${controlId}|P|2.5`,
    `EVN|A01|${time}`,
    segment('PID', { 1: '1', 3: `${patient}^^^HOSP^MR`, 5: 'DOE^JANE', 7: '19800101', 8: 'F', 11: '1 MAIN ST^^BOSTON^MA^02110', 18: options.account ?? `ACC${controlId}` }),
    segment('PV1', { 1: '1', 2: 'I', 3: 'WARD^101^1', 19: options.account ?? `V${controlId}` }),
  ].join('\r');
}

/** Polls `probe` (vi.waitFor) until it returns a truthy value or `timeoutMs` passes (then throws with the last value). */
export function waitFor<T>(probe: () => Promise<T> | T, timeoutMs = 20_000, label = 'condition'): Promise<NonNullable<T>> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (!value) throw new Error(`Timed out waiting for ${label}; last value: ${JSON.stringify(value)}`);
      return value as NonNullable<T>;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** Creates an interface watching `directoryPath` through HTTP (201 expected) and answers its id. */
export async function createWatchedInterface(h: MonitorHarness, name: string, directoryPath: string): Promise<string> {
  const created = await h.post('/api/monitor/interfaces', { name, directoryPath });
  if (created.status !== 201) throw new Error(`interface not created (${created.status}): ${created.text}`);
  return created.json.data.id as string;
}

/** An interface's message totals of the last two hours, through HTTP. */
export async function interfaceTotals(h: MonitorHarness, id: string): Promise<{ messagesTotal: number; messagesFailed: number }> {
  return (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=2`)).json.data;
}

/** Waits until an interface has counted at least `total` messages and answers its totals then. */
export function waitForTotal(h: MonitorHarness, id: string, total: number, timeoutMs = 120_000): Promise<{ messagesTotal: number; messagesFailed: number }> {
  return waitFor(async () => {
    const totals = await interfaceTotals(h, id);
    return totals.messagesTotal >= total ? totals : undefined;
  }, timeoutMs, `${total} messages counted`);
}
