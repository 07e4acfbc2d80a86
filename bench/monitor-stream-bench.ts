/**
 * `npm run bench -- monitorStream`: streaming 1,000,000 stored messages (20 interfaces, 30 days) through the query
 * contract's keyset cursor (`streamMessages`, default projection: every fact, no raw text; then a projection of five
 * facts, `fields`, beside a plain SELECT of its columns) on SQLite, beside the
 * ceiling of a plain `SELECT` of the same columns in the same order iterated on the database's own handle (no paging,
 * no mapping to records). RSS is sampled after a full collection every 100,000 messages: flat memory means the peak
 * stays near the start.
 * A keyset page deep in the store is timed beside the first page (a page's cost must not follow its depth).
 * Rows are written straight into the table (this is a read benchmark; ingest has its own in monitor-bench.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { createStorage } from '../kernel/storage.ts';
import { MessageQueries } from '../plugins/monitor/messages/message-query.ts';
import { monitorMigrations, type MonitorDatabase } from '../plugins/monitor/monitor-tables.ts';
import { collectGarbage } from './collect-garbage.ts';

const MESSAGES = Number(process.env.WORKBENCH_STREAM_MESSAGES ?? 1_000_000);
const INTERFACES = 20;
const DAYS = 30;

// a collection before each sample, so RSS shows what the stream keeps, not garbage not yet collected
const collect = collectGarbage;

/** RSS (MB) after a full collection. */
function rssMb(): number {
  collect();
  return Math.round(process.memoryUsage().rss / (1024 * 1024));
}

/** Fills monitor_messages with `MESSAGES` rows spread over 30 days, 10 messages per file. */
function seed(handle: import('better-sqlite3').Database): void {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const stepMs = (DAYS * 86_400_000) / MESSAGES;
  const insert = handle.prepare(
    'insert into monitor_messages (file_id, index_in_file, interface_id, standard, received_at, message_time, message_type, trigger_event, version, control_id, ' +
      'sending_application, sending_facility, receiving_application, receiving_facility, segment_ids, patient_ids, account_number, visit_number, ' +
      'is_valid, errors, warnings, latency_ms, latency_class, raw) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const failedErrors = JSON.stringify([{ field: 'PID.3', code: 'REQUIRED_FIELD_MISSING', severity: 'error', message: 'PID-3 is required.' }]);
  handle.exec('begin');
  for (let i = 0; i < MESSAGES; i++) {
    const fileId = Math.floor(i / 10) + 1;
    const receivedAt = new Date(start + Math.floor(Math.floor(i / 10) * 10 * stepMs)).toISOString();
    const failed = i % 50 === 0;
    insert.run(
      fileId,
      i % 10,
      `iface-${fileId % INTERFACES}`,
      'hl7',
      receivedAt,
      receivedAt,
      'ADT',
      i % 3 === 0 ? 'A08' : 'A01',
      '2.5',
      `CTRL${i}`,
      'SENDAPP',
      `FAC${i % 7}`,
      'RECVAPP',
      'RECVFAC',
      'MSH EVN PID PV1',
      JSON.stringify([{ id: `P${i % 100_000}`, assigningAuthority: 'HOSP' }]),
      `ACC${i}`,
      `V${i}`,
      failed ? 0 : 1,
      failed ? failedErrors : '[]',
      '[]',
      1200,
      'ok',
      `MSH|^~\\&|SENDAPP|FAC|RECVAPP|RECVFAC|20260101120000||ADT^A01|CTRL${i}|P|2.5`,
    );
    if (i % 100_000 === 99_999) {
      handle.exec('commit');
      handle.exec('begin');
    }
  }
  handle.exec('commit');
}

/** Runs the benchmark; returns its figures. */
export async function runMonitorStreamBench(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-stream-bench-'));
  const storage = await createStorage({ url: null, dataDir: dir, sqliteFile: 'stream.sqlite' });
  try {
    await storage.migrate('monitor', monitorMigrations(storage.dialect));
    const handle = storage.sqlite!;
    const seedStarted = performance.now();
    seed(handle);
    console.log(`seeded ${MESSAGES.toLocaleString('en-US')} messages in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    const queries = new MessageQueries(storage.db as Kysely<MonitorDatabase>);

    // ceiling: one plain SELECT of the same columns in the same order, iterated on the handle
    const ceilingStarted = performance.now();
    let scanned = 0;
    const scan = handle.prepare(
      'select file_id, index_in_file, interface_id, standard, received_at, is_valid, errors, warnings, latency_ms, latency_class, message_time, ' +
        'message_type, trigger_event, version, control_id, sending_application, sending_facility, receiving_application, receiving_facility, ' +
        'sequence_number, acknowledged_control_id, software, segment_ids, patient_ids, account_number, visit_number ' +
        'from monitor_messages order by received_at, file_id, index_in_file',
    );
    for (const row of scan.iterate()) if (row) scanned++;
    const ceilingPerSecond = scanned / ((performance.now() - ceilingStarted) / 1000);

    const rssStart = rssMb();
    let rssPeak = rssStart;
    let streamed = 0;
    let lastControl = '';
    const streamStarted = performance.now();
    for await (const message of queries.stream({})) {
      streamed++;
      lastControl = message.controlId ?? '';
      if (streamed % 100_000 === 0) rssPeak = Math.max(rssPeak, rssMb());
    }
    const streamSeconds = (performance.now() - streamStarted) / 1000;
    const perSecond = streamed / streamSeconds;
    if (streamed !== MESSAGES || scanned !== MESSAGES) throw new Error(`streamed ${streamed}, scanned ${scanned}, stored ${MESSAGES}`);

    // a projection (the few facts a tracing reader names) beside a plain SELECT of those columns and the keyset
    const narrowFields = ['controlId', 'sequenceNumber', 'sendingApplication', 'sendingFacility', 'receivedAt'] as const;
    const narrowCeilingStarted = performance.now();
    let narrowScanned = 0;
    const narrowScan = handle.prepare(
      'select received_at, file_id, index_in_file, control_id, sequence_number, sending_application, sending_facility ' +
        'from monitor_messages order by received_at, file_id, index_in_file',
    );
    for (const row of narrowScan.iterate()) if (row) narrowScanned++;
    const narrowCeilingPerSecond = narrowScanned / ((performance.now() - narrowCeilingStarted) / 1000);
    let narrowed = 0;
    let narrowRssPeak = rssMb();
    const narrowStarted = performance.now();
    for await (const message of queries.stream({}, { fields: [...narrowFields] })) {
      narrowed++;
      lastControl = message.controlId ?? '';
      if (narrowed % 100_000 === 0) narrowRssPeak = Math.max(narrowRssPeak, rssMb());
    }
    const narrowPerSecond = narrowed / ((performance.now() - narrowStarted) / 1000);
    if (narrowed !== MESSAGES) throw new Error(`streamed ${narrowed} with a projection, stored ${MESSAGES}`);

    // one interface, filtered: every message of iface-7 (a twentieth of the store)
    const filteredStarted = performance.now();
    let filtered = 0;
    for await (const message of queries.stream({ interfaceIds: ['iface-7'] })) if (message) filtered++;
    const filteredPerSecond = filtered / ((performance.now() - filteredStarted) / 1000);

    // a page at the start and one 900,000 messages deep cost the same
    const first = await queries.query({}, { limit: 1000 });
    const deep = await queries.query({ controlId: `CTRL${Math.floor(MESSAGES * 0.9)}` }, { limit: 1 });
    const deepCursor = deep.messages[0]?.cursor ?? null;
    const pageMs = async (after: string | null): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await queries.query({}, { limit: 1000, after });
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[10];
    };
    const firstPageMs = await pageMs(null);
    const deepPageMs = await pageMs(deepCursor);

    console.log(
      `stream ${MESSAGES.toLocaleString('en-US')} messages through the cursor: ${Math.round(perSecond).toLocaleString('en-US')} msg/s ` +
        `(${streamSeconds.toFixed(1)} s, last ${lastControl}); plain SELECT ceiling ${Math.round(ceilingPerSecond).toLocaleString('en-US')} rows/s; ` +
        `ratio ${(perSecond / ceilingPerSecond).toFixed(2)}x`,
    );
    console.log(`RSS while streaming: ${rssStart} MB at start, ${rssPeak} MB peak (+${rssPeak - rssStart} MB over ${MESSAGES.toLocaleString('en-US')} messages)`);
    console.log(
      `stream with fields [${narrowFields.join(', ')}]: ${Math.round(narrowPerSecond).toLocaleString('en-US')} msg/s; ` +
        `plain SELECT of those columns ${Math.round(narrowCeilingPerSecond).toLocaleString('en-US')} rows/s; ratio ` +
        `${(narrowPerSecond / narrowCeilingPerSecond).toFixed(2)}x; RSS peak ${narrowRssPeak} MB`,
    );
    console.log(`one interface of ${INTERFACES} (${filtered.toLocaleString('en-US')} messages): ${Math.round(filteredPerSecond).toLocaleString('en-US')} msg/s`);
    console.log(
      `page of 1,000: first ${firstPageMs.toFixed(1)} ms, 90% deep ${deepPageMs.toFixed(1)} ms median (${(deepPageMs / firstPageMs).toFixed(2)}x; first page held ${first.messages.length})`,
    );
    return {
      streamMessagesPerSecond: Math.round(perSecond),
      selectCeilingRowsPerSecond: Math.round(ceilingPerSecond),
      streamToCeiling: Number((perSecond / ceilingPerSecond).toFixed(3)),
      streamRssStartMb: rssStart,
      streamRssPeakMb: rssPeak,
      projectedStreamMessagesPerSecond: Math.round(narrowPerSecond),
      projectedSelectCeilingRowsPerSecond: Math.round(narrowCeilingPerSecond),
      projectedStreamToCeiling: Number((narrowPerSecond / narrowCeilingPerSecond).toFixed(3)),
      projectedStreamRssPeakMb: narrowRssPeak,
      oneInterfaceMessagesPerSecond: Math.round(filteredPerSecond),
      firstPageMs: Number(firstPageMs.toFixed(2)),
      deepPageMs: Number(deepPageMs.toFixed(2)),
    };
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
