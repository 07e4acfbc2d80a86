/**
 * `npm run bench -- messages`: the message routes (`GET /api/monitor/messages`, `GET /api/monitor/messages/{id}`)
 * over 1,000,000 stored messages (20 interfaces, 30 days, 10 messages a file, 1 in 47 failed), on SQLite, and on
 * PostgreSQL too when WORKBENCH_TEST_POSTGRES_URL is set (WORKBENCH_MESSAGES_BENCH_MESSAGES sets the count). Each
 * query is timed three ways, p95 of each: over HTTP on loopback (a new connection per request, the client in this
 * process), as server time (the request through the base's routing, input check, handler and serialisation, no
 * socket), and as the same query run on the store alone (the query contract in process, the route's own projection,
 * no summaries). The server's p95 is printed beside the store's as a ratio, and against its ceiling (100 ms for a
 * list, 20 ms for a message view) as a ratio too, with the processor time of a request each way (which, unlike the
 * wall clock, does not grow with the load of a shared machine). Cases: the list filtered by interface and status,
 * the failed messages of every interface from a day of the month, a search by MRN, by control id, a `q` word search
 * of the raw text through the full-text index, an error code of one interface, an error code no message holds (every
 * failed message tested), and a message view (beside a read of the same message with its raw text; the view writes
 * its audit record). Every call of a case is made once untimed first, then the three ways in turn, so none of them
 * reads pages the others left cold. Rows are written straight into the tables of a running service, its indexes
 * made after them (the full-text index follows them as the ingest's rows); ingest has its own bench.
 */
import { createWorkbench, type Workbench } from '../kernel/workbench.ts';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { resolveService } from '../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MessageFilter, type MonitorService } from '../plugins/monitor/api.ts';
import type { MonitorDatabase } from '../plugins/monitor/monitor-tables.ts';
import { SUMMARY_FIELDS } from '../plugins/monitor/messages/message-view.ts';
import { send } from '../test/helpers/http-client.ts';
import { freshPostgresSchema } from '../test/helpers/postgres-schema.ts';
import { round } from './timing.ts';

const MESSAGES = Number(process.env.WORKBENCH_MESSAGES_BENCH_MESSAGES ?? 1_000_000);
const INTERFACES = 20;
const DAYS = 30;
const PER_FILE = 10;
const PATIENTS = Math.max(1, Math.floor(MESSAGES / 5));
const FAMILIES = Math.max(1, Math.floor(MESSAGES / 20));
const RUNS = 60;

/** The text and facts of message `i`. */
function messageRow(i: number, interfaceIds: readonly string[], start: number) {
  const fileId = Math.floor(i / PER_FILE) + 1;
  const receivedAt = new Date(start + Math.floor(((fileId - 1) * PER_FILE * DAYS * 86_400_000) / MESSAGES)).toISOString();
  const failed = i % 47 === 0;
  const mrn = `MRN${i % PATIENTS}`;
  const raw = [
    `MSH|^~\\&|SENDAPP|FAC${i % 7}|RECVAPP|RECVFAC|20260101120000||ADT^A01^ADT_A01|CTRL${i}|P|2.5`,
    'EVN|A01|20260101120000',
    `PID|1||${mrn}^^^HOSP^MR||${failed ? '' : `FAM${i % FAMILIES}^JANE^Q`}||19800101|F|||${i % 997} MAIN ST^^BOSTON^MA^02110|||||||ACC${i}`,
    `PV1|1|I|WARD^${i % 300}^1`,
  ].join('\r');
  return {
    file_id: fileId,
    index_in_file: i % PER_FILE,
    interface_id: interfaceIds[fileId % interfaceIds.length],
    standard: 'hl7',
    received_at: receivedAt,
    message_time: receivedAt,
    message_type: 'ADT',
    trigger_event: 'A01',
    version: '2.5',
    control_id: `CTRL${i}`,
    sending_application: 'SENDAPP',
    sending_facility: `FAC${i % 7}`,
    segment_ids: 'MSH EVN PID PV1',
    patient_ids: JSON.stringify([{ id: mrn, assigningAuthority: 'HOSP' }]),
    account_number: `ACC${i}`,
    is_valid: failed ? 0 : 1,
    errors: failed ? JSON.stringify([{ field: 'PID.5', code: 'REQUIRED_FIELD_MISSING', severity: 'error', message: 'PID.5 (Patient Name) is required.' }]) : '[]',
    warnings: '[]',
    latency_ms: 1200,
    latency_class: 'ok',
    raw,
  };
}

/** Tables the seed fills. */
const SEEDED_TABLES = ['monitor_files', 'monitor_messages', 'monitor_message_identifiers'];

/**
 * Runs `load` with the secondary indexes of the seeded tables dropped, then makes them again from their own
 * definitions (as a restore does): a million rows load in minutes instead of most of an hour on PostgreSQL, whose
 * full-text and five B-tree indexes would otherwise be updated row by row. Keys and the SQLite full-text table stay.
 */
async function withIndexesMadeAfter(workbench: Workbench, load: () => Promise<void>): Promise<void> {
  const db = workbench.storage.db;
  const run = (text: string) => workbench.storage.sql.raw(text).execute(db);
  const tables = SEEDED_TABLES.map((t) => `'${t}'`).join(', ');
  const indexes = workbench.storage.sqlite
    ? ((await run(`select name, sql as definition from sqlite_master where type = 'index' and sql is not null and tbl_name in (${tables})`)).rows as Array<{ name: string; definition: string }>)
    : ((
        await run(
          `select indexname as name, indexdef as definition from pg_indexes where schemaname = current_schema() and tablename in (${tables}) ` +
            `and indexname not in (select conname from pg_constraint)`,
        )
      ).rows as Array<{ name: string; definition: string }>);
  for (const index of indexes) await run(`drop index "${index.name}"`);
  await load();
  for (const index of indexes) await run(index.definition);
}

/** Writes the ledger rows, messages and identifiers: SQLite through prepared statements, PostgreSQL in batches. */
async function seed(workbench: Workbench, interfaceIds: readonly string[]): Promise<void> {
  await withIndexesMadeAfter(workbench, () => seedRows(workbench, interfaceIds));
  if (!workbench.storage.sqlite) await workbench.storage.sql`analyze`.execute(workbench.storage.db);
}

async function seedRows(workbench: Workbench, interfaceIds: readonly string[]): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const db = workbench.storage.db as Kysely<MonitorDatabase>;
  const files = Math.ceil(MESSAGES / PER_FILE);
  const fileRow = (fileId: number) => ({
    id: fileId,
    interface_id: interfaceIds[fileId % interfaceIds.length],
    path: `2026/adt-${fileId}.hl7`,
    size: 2500,
    mtime_ms: start,
    content_hash: String(fileId).padStart(64, '0'),
    message_count: PER_FILE,
    failed_count: 0,
    state: 'ingested',
    error: null,
    first_read_at: new Date(start).toISOString(),
    last_read_at: new Date(start).toISOString(),
  });
  const handle = workbench.storage.sqlite;
  if (handle) {
    const insert = (table: string, row: Record<string, unknown>) =>
      handle.prepare(`insert into ${table} (${Object.keys(row).join(', ')}) values (${Object.keys(row).map(() => '?').join(', ')})`);
    const fileInsert = insert('monitor_files', fileRow(1));
    const messageInsert = insert('monitor_messages', messageRow(0, interfaceIds, start));
    const identifierInsert = handle.prepare(
      'insert into monitor_message_identifiers (file_id, index_in_file, kind, value, received_at, assigning_authority) values (?, ?, ?, ?, ?, ?)',
    );
    handle.exec('begin');
    for (let f = 1; f <= files; f++) fileInsert.run(Object.values(fileRow(f)));
    for (let i = 0; i < MESSAGES; i++) {
      const row = messageRow(i, interfaceIds, start);
      messageInsert.run(Object.values(row));
      identifierInsert.run(row.file_id, row.index_in_file, 'patient', `MRN${i % PATIENTS}`, row.received_at, 'HOSP');
      identifierInsert.run(row.file_id, row.index_in_file, 'account', row.account_number, row.received_at, null);
      if (i % 50_000 === 49_999) {
        handle.exec('commit');
        handle.exec('begin');
      }
    }
    handle.exec('commit');
    // the seed held the event loop throughout, so the service's checkpoint timer never ran: the whole store is still
    // in the write-ahead log, which a service that stored these messages one batch at a time would have copied back
    handle.pragma('wal_checkpoint(TRUNCATE)');
    return;
  }
  // one JSON parameter per batch, unpacked by the database: a statement of tens of thousands of parameters costs
  // more to build and bind than the rows cost to store
  const { sql } = workbench.storage;
  const insertJson = async (table: string, rows: Array<Record<string, unknown>>) => {
    const columns = sql.join(Object.keys(rows[0]).map((column) => sql.ref(column)));
    await sql`insert into ${sql.table(table)} (${columns}) select ${columns}
      from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::json)`.execute(db);
  };
  const BATCH = 10_000;
  for (let f = 1; f <= files; f += BATCH) {
    await insertJson('monitor_files', Array.from({ length: Math.min(BATCH, files - f + 1) }, (_, k) => fileRow(f + k)));
  }
  for (let i = 0; i < MESSAGES; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, MESSAGES - i) }, (_, k) => messageRow(i + k, interfaceIds, start));
    await insertJson('monitor_messages', rows);
    await insertJson(
      'monitor_message_identifiers',
      rows.flatMap((row, k) => [
        { file_id: row.file_id, index_in_file: row.index_in_file, kind: 'patient', value: `MRN${(i + k) % PATIENTS}`, received_at: row.received_at, assigning_authority: 'HOSP' },
        { file_id: row.file_id, index_in_file: row.index_in_file, kind: 'account', value: row.account_number, received_at: row.received_at, assigning_authority: null },
      ]),
    );
  }
}

/** The 95th percentile of a list of times. */
function p95Of(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

/** What each way of a case took: its p95 (ms) and its mean processor time per call (ms, every thread of the process). */
interface Timing {
  p95Ms: number;
  cpuMs: number;
}

/**
 * The p95 and processor time of each of `ways` over `runs` calls (each given its run number): every run is first
 * made once untimed (so each way finds the same pages read), then timed by each way in turn. Processor time does not
 * grow with the machine's load as the wall clock does, so it tells the server's own work on a shared machine.
 */
async function timeWays(runs: number, ways: ReadonlyArray<(run: number) => Promise<unknown>>): Promise<Timing[]> {
  for (let i = 0; i < runs; i++) await ways[0](i);
  const times = ways.map(() => [] as number[]);
  const cpu = ways.map(() => 0);
  for (let i = 0; i < runs; i++) {
    for (let w = 0; w < ways.length; w++) {
      const used = process.cpuUsage();
      const t = performance.now();
      await ways[w](i);
      times[w].push(performance.now() - t);
      const spent = process.cpuUsage(used);
      cpu[w] += (spent.user + spent.system) / 1000;
    }
  }
  return times.map((list, w) => ({ p95Ms: p95Of(list), cpuMs: cpu[w] / runs }));
}

/** Ceilings of the server's p95 (issue 31). */
const LIST_CEILING_MS = 100;
const VIEW_CEILING_MS = 20;

/** Boots a service on a new folder (and a fresh PostgreSQL schema when `postgresUrl` is given). */
async function boot(postgresUrl: string | undefined): Promise<{ workbench: Workbench; monitorUrl: string; dir: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-messages-bench-'));
  const schema = postgresUrl ? await freshPostgresSchema(postgresUrl) : undefined;
  const workbench = await createWorkbench({
    env: {},
    overrides: {
      dataDir: join(dir, 'data'),
      logging: { level: 'error' },
      servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
      ...(schema ? { storage: { url: schema.url } } : {}),
    },
  });
  const urls = await workbench.start();
  return {
    workbench,
    monitorUrl: urls.monitor,
    dir,
    async stop() {
      await workbench.stop();
      await schema?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One storage's figures. */
async function measure(label: 'sqlite' | 'postgres', postgresUrl: string | undefined): Promise<Record<string, number>> {
  const service = await boot(postgresUrl);
  try {
    const interfaceIds: string[] = [];
    for (let i = 0; i < INTERFACES; i++) {
      const folder = join(service.dir, `feed-${i}`);
      mkdirSync(folder, { recursive: true });
      const created = await send(service.monitorUrl, {
        method: 'POST',
        path: '/api/monitor/interfaces',
        body: { name: `Feed ${String(i).padStart(2, '0')}`, directoryPath: folder, filePattern: '*.none' },
      });
      interfaceIds.push((created.json as { data: { id: string } }).data.id);
    }
    const seedStarted = performance.now();
    await seed(service.workbench, interfaceIds);
    console.log(`[${label}] stored ${MESSAGES.toLocaleString('en-US')} messages in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    const store: MonitorService = resolveService(service.workbench.container, MONITOR_SERVICE);
    const figures: Record<string, number> = {};
    // a new connection per request (as a browser's first request): no kept-alive socket the server closed meanwhile
    const get = async (path: string) => {
      const response = await send(service.monitorUrl, { method: 'GET', path });
      const body = response.json as { data: { items?: unknown[] } };
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
      return body.data;
    };
    // server time: the request through the base (routing, input check, handler, serialisation) without a socket
    const app = service.workbench.servers.monitor.app;
    const host = new URL(service.monitorUrl).host;
    const serve = async (path: string) => {
      const response = await app.inject({ method: 'GET', url: path, headers: { host } });
      if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
    };
    const line = (name: string, [http, server, alone]: Timing[], ceiling: number, note: string) => {
      console.log(
        `[${label}] ${name.padEnd(16)} server p95 ${server.p95Ms.toFixed(2)} ms beside store alone ${alone.p95Ms.toFixed(2)} ms ` +
          `(${(server.p95Ms / alone.p95Ms).toFixed(2)}x); ${(server.p95Ms / ceiling).toFixed(2)} of its ${ceiling} ms ceiling; ` +
          `processor ${server.cpuMs.toFixed(2)} ms a request beside ${alone.cpuMs.toFixed(2)} ms; HTTP round trip ${http.p95Ms.toFixed(2)} ms${note}`,
      );
      figures[`${name}P95Ms`] = round(http.p95Ms);
      figures[`${name}ServerP95Ms`] = round(server.p95Ms);
      figures[`${name}StoreP95Ms`] = round(alone.p95Ms);
      figures[`${name}ServerToStore`] = round(server.p95Ms / alone.p95Ms);
      figures[`${name}ServerToCeiling`] = round(server.p95Ms / ceiling);
      figures[`${name}ServerCpuMs`] = round(server.cpuMs);
      figures[`${name}StoreCpuMs`] = round(alone.cpuMs);
    };
    const dayOf = (r: number) => `2026-01-${String(1 + (r % 28)).padStart(2, '0')}T00:00:00.000Z`;
    const cases: Array<{ name: string; path: (run: number) => string; filter: (run: number) => MessageFilter; expect: (items: number) => boolean }> = [
      {
        name: 'interfaceStatus',
        path: (r) => `/api/monitor/messages?interfaceId=${interfaceIds[r % INTERFACES]}&status=failed&limit=50`,
        filter: (r) => ({ interfaceIds: [interfaceIds[r % INTERFACES]], isValid: false }),
        expect: (n) => n > 0 && n <= 50,
      },
      {
        name: 'failed',
        path: (r) => `/api/monitor/messages?status=failed&since=${dayOf(r)}&limit=50`,
        filter: (r) => ({ isValid: false, since: dayOf(r) }),
        expect: (n) => n > 0 && n <= 50,
      },
      {
        name: 'mrn',
        path: (r) => `/api/monitor/messages?patientId=MRN${(r * 7919) % PATIENTS}&limit=50`,
        filter: (r) => ({ patientId: `MRN${(r * 7919) % PATIENTS}` }),
        expect: (n) => n === MESSAGES / PATIENTS,
      },
      {
        name: 'controlId',
        path: (r) => `/api/monitor/messages?controlId=CTRL${(r * 104_729) % MESSAGES}&limit=50`,
        filter: (r) => ({ controlId: `CTRL${(r * 104_729) % MESSAGES}` }),
        expect: (n) => n === 1,
      },
      {
        name: 'q',
        path: (r) => `/api/monitor/messages?q=FAM${(r * 613) % FAMILIES}%20JANE&limit=50`,
        filter: (r) => ({ text: `FAM${(r * 613) % FAMILIES} JANE` }),
        expect: (n) => n > 0 && n <= 50,
      },
      {
        name: 'errorCode',
        path: (r) => `/api/monitor/messages?interfaceId=${interfaceIds[r % INTERFACES]}&errorCode=REQUIRED_FIELD_MISSING&limit=50`,
        filter: (r) => ({ interfaceIds: [interfaceIds[r % INTERFACES]], errorCodes: ['REQUIRED_FIELD_MISSING'] }),
        expect: (n) => n > 0 && n <= 50,
      },
      {
        // no message holds it: every failed message is tested, the bound of an error code's cost
        name: 'errorCodeAbsent',
        path: (r) => `/api/monitor/messages?errorCode=NO_SUCH_CODE_${r}&limit=50`,
        filter: (r) => ({ errorCodes: [`NO_SUCH_CODE_${r}`] }),
        expect: (n) => n === 0,
      },
    ];
    for (const c of cases) {
      const items = ((await get(c.path(1))).items ?? []).length;
      if (!c.expect(items)) throw new Error(`[${label}] ${c.name}: ${items} messages, not what the data holds`);
      const ms = await timeWays(RUNS, [
        (r) => get(c.path(r)),
        (r) => serve(c.path(r)),
        (r) => store.queryMessages(c.filter(r), { limit: 50, fields: SUMMARY_FIELDS }),
      ]);
      line(c.name, ms, LIST_CEILING_MS, ` (${items} messages)`);
    }
    const idOf = (r: number) => `${((r * 7_919) % (MESSAGES / PER_FILE)) + 1}.${r % PER_FILE}`;
    const viewMs = await timeWays(RUNS, [
      (r) => get(`/api/monitor/messages/${idOf(r)}`),
      (r) => serve(`/api/monitor/messages/${idOf(r)}`),
      (r) => store.getMessage(idOf(r), { include: ['raw'] }),
    ]);
    line('view', viewMs, VIEW_CEILING_MS, ' (raw text shown, its view recorded in the audit trail)');
    return figures;
  } finally {
    await service.stop();
  }
}

/** Runs the benchmark; returns its figures (PostgreSQL's prefixed `pg`). */
export async function runMonitorMessagesBench(): Promise<Record<string, number>> {
  const figures = await measure('sqlite', undefined);
  const postgresUrl = process.env.WORKBENCH_TEST_POSTGRES_URL;
  if (!postgresUrl) {
    console.log('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: the message routes are measured on SQLite only.');
    return figures;
  }
  const pg = await measure('postgres', postgresUrl);
  for (const [key, value] of Object.entries(pg)) figures[`pg${key[0].toUpperCase()}${key.slice(1)}`] = value;
  return figures;
}
