/**
 * Shared setup of the tracing tests: a real Workbench on a manual clock (received times are what the clock says
 * when a file settles, so latencies are exact), watched folders, tracing config, patient journeys from
 * POST /api/generate written one file per message, and waits on the monitor's stored count (never fixed sleeps).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../helpers/manual-clock.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MessageFilter, type MonitorService } from '../../plugins/monitor/api.ts';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import type { TestResponse } from '../helpers/http-client.ts';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';
import { waitFor } from '../monitor/monitor-harness.ts';

export { storages } from '../monitor/monitor-harness.ts';

/** A running instance for tracing tests. */
export interface TracingHarness {
  wb: TestWorkbench;
  clock: ManualClock;
  monitor: MonitorService;
  get(path: string): Promise<TestResponse>;
  post(path: string, body: unknown): Promise<TestResponse>;
  del(path: string): Promise<TestResponse>;
  /** Creates a watched interface over a fresh folder (`fields` added to the request); returns its id and folder. */
  addInterface(name: string, fields?: Record<string, unknown>): Promise<{ id: string; dir: string }>;
  /** Writes each message as a file of its own (`.hl7`, or `extension`) into `dir`, each once the one before is stored. */
  deliver(dir: string, messages: string[], extension?: string): Promise<void>;
  /** Messages of a journey from POST /api/generate (body: scenario options). */
  journeys(body: Record<string, unknown>): Promise<string[]>;
  stop(): Promise<void>;
}

/** The message type (`ADT^A01`) of an HL7 message. */
export function typeOf(message: string): string {
  return message.split('\r')[0]!.split('|')[8]!.split('^').slice(0, 2).join('^');
}

/** The first PID-3 identifier of an HL7 message. */
export function mrnOf(message: string): string {
  const pid = message.split('\r').find((s) => s.startsWith('PID|'))!;
  return pid.split('|')[3]!.split('~')[0]!.split('^')[0]!;
}

/** Boots a Workbench with the monitor on short settle times and the given tracing config. */
export async function startTracingHarness(options: { storage: 'sqlite' | 'postgres'; tracing?: Record<string, unknown>; start?: string }): Promise<TracingHarness> {
  const root = mkdtempSync(join(tmpdir(), 'workbench-tracing-'));
  const schema = options.storage === 'postgres' ? await freshPostgresSchema(testPostgresUrl!) : undefined;
  const clock = new ManualClock(options.start ?? '2026-03-03T12:00:00Z');
  const wb = await startTestWorkbench({
    clock,
    config: {
      ...(schema ? { storage: { url: schema.url } } : {}),
      plugins: {
        monitor: { settleMs: 100, checkIntervalMs: 100, pollingIntervalMs: 100 },
        ...(options.tracing ? { tracing: options.tracing } : {}),
      },
    },
  });
  const monitor = resolveService(wb.workbench.container, MONITOR_SERVICE);
  let folders = 0;
  let files = 0;
  const count = (filter: MessageFilter = {}) => monitor.countMessages(filter);
  return {
    wb,
    clock,
    monitor,
    get: (path) => wb.call('monitor', { method: 'GET', path }),
    post: (path, body) => wb.call('monitor', { method: 'POST', path, body }),
    del: (path) => wb.call('monitor', { method: 'DELETE', path }),
    async addInterface(name, fields = {}) {
      const dir = join(root, `folder-${++folders}`);
      mkdirSync(dir, { recursive: true });
      const created = await wb.call('monitor', { method: 'POST', path: '/api/monitor/interfaces', body: { name, directoryPath: dir, ...fields } });
      if (created.status !== 201) throw new Error(`interface ${name}: ${created.status} ${JSON.stringify(created.json)}`);
      return { id: created.json.data.id, dir };
    },
    async deliver(dir, messages, extension = 'hl7') {
      // One file at a time: files written together may be read in any order, and MSH-13 is judged in arrival order.
      for (const message of messages) {
        const before = await count();
        writeFileSync(join(dir, `${String(++files).padStart(6, '0')}.${extension}`), extension === 'hl7' ? `${message}\r` : message);
        await waitFor(async () => (await count()) === before + 1, 20_000, 'the message stored');
      }
    },
    async journeys(body) {
      const answer = await wb.call('bridge', { method: 'POST', path: '/api/generate', body: { scenario: 'admission', hl7Version: '2.5', ...body } });
      if (answer.status !== 200) throw new Error(`generate: ${answer.status} ${JSON.stringify(answer.json)}`);
      return answer.json.data;
    },
    async stop() {
      await wb.stop();
      await schema?.drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
