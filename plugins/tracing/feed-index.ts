/**
 * Tracing's compact copy of what its window checks read of every stored message (`tracing_feed`): interface, received
 * time (ms), message id parts, sender, control id, MSH-13, MSA-2, type, MSH-7 (ms), first patient id and content
 * digest; some 100 bytes a message, where the monitor's row carries the raw text and every fact. Gaps of an interface
 * and latency between two read a window of it by its primary key (interface, received time, file, index), an ordered
 * range of narrow rows, instead of looking up each of the monitor's wide rows.
 *
 * It is filled through the monitor's query contract only: a durable cursor (`tracing_feed_cursor`) in the contract's
 * stable order, which is append-only, so each catch-up reads just the messages committed since the last one. A commit
 * (`message.ingested`) schedules a catch-up once commits pause (a burst of commits shares one, 5 s late at most); every read catches up
 * first, so an answer covers every message committed before it was asked. Rows of a deleted interface are dropped.
 * Catch-ups run one at a time; rows are written with their cursor in one transaction and a row already there is left
 * as it is, so nodes sharing a store may both catch up.
 */
import type { Database as SQLiteDatabase, Statement as SQLiteStatement } from 'better-sqlite3';
import { sql, type CompiledQuery, type Kysely, type Migration } from 'kysely';
import type { MessageFacts, MonitorStore, ProjectedRecord } from '../monitor/api.ts';
import { typeText } from './trace-model.ts';
import { LoopSlice } from '../../kernel/lib/async/loop-slice.ts';
import { guardedAfter, PauseTimer } from '../../kernel/lib/async/pause-timer.ts';
import type { BackgroundJobs } from '../../kernel/background/background-guard.ts';

/** One message as the feed keeps it. */
interface FeedRow {
  interface_id: string;
  received_ms: number | string;
  file_id: number | string;
  index_in_file: number | string;
  sending_application: string | null;
  sending_facility: string | null;
  control_id: string | null;
  sequence_number: number | string | null;
  acknowledged_control_id: string | null;
  message_type: string;
  message_time_ms: number | string | null;
  patient_id: string | null;
  patient_authority: string | null;
  content_digest: string | null;
  /** 1 when another row of the interface has the same control id (set on writing; 0 by default). */
  repeated?: number;
}

interface CursorRow {
  name: string;
  cursor: string;
}

interface FeedTables {
  tracing_feed: FeedRow;
  tracing_feed_cursor: CursorRow;
}

/** Name of the cursor row. */
const CURSOR_NAME = 'feed';

/** Rows written per statement (14 values each, far under every database's bound on parameters). */
const INSERT_ROWS = 500;

/**
 * Messages written per transaction during a catch-up: one transaction is one synchronous run on SQLite, so it stays
 * a few milliseconds long (requests are answered between two).
 */
const BATCH_ROWS = 1_000;

/**
 * A catch-up starts once commits paused this long, so a burst of commits shares one and the feed does not compete
 * with the ingest during it, and never later than MAX_LAG_MS after the first commit it waits for (reads catch up
 * first anyway).
 */
const QUIET_MS = 500;
const MAX_LAG_MS = 5_000;

/** The facts the feed keeps, as the query contract names them. */
export const FEED_FIELDS = [
  'interfaceId', 'receivedAt', 'fileId', 'indexInFile', 'sendingApplication', 'sendingFacility', 'controlId', 'sequenceNumber',
  'acknowledgedControlId', 'messageType', 'triggerEvent', 'messageTime', 'patientIds', 'contentDigest',
] as const satisfies ReadonlyArray<keyof MessageFacts>;

/** Migration of the feed tables; on SQLite (`dialect`) the feed is clustered by its key. `sql` is Kysely's tag. */
export function feedMigration(dialect: 'sqlite' | 'postgres', sql: typeof import('kysely').sql): Migration {
  return {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tracing_feed')
        .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
        .addColumn('received_ms', 'bigint', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull())
        .addColumn('index_in_file', 'integer', (c) => c.notNull())
        .addColumn('sending_application', 'varchar(200)')
        .addColumn('sending_facility', 'varchar(200)')
        .addColumn('control_id', 'varchar(200)')
        .addColumn('sequence_number', 'bigint')
        .addColumn('acknowledged_control_id', 'varchar(200)')
        .addColumn('message_type', 'varchar(41)', (c) => c.notNull())
        .addColumn('message_time_ms', 'bigint')
        .addColumn('patient_id', 'varchar(200)')
        .addColumn('patient_authority', 'varchar(200)')
        .addColumn('content_digest', 'varchar(64)')
        .addPrimaryKeyConstraint('tracing_feed_pk', ['interface_id', 'received_ms', 'file_id', 'index_in_file'])
        // on SQLite the rows themselves are kept in key order: a window is one contiguous range of narrow rows
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      await db.schema
        .createTable('tracing_feed_cursor')
        .addColumn('name', 'varchar(20)', (c) => c.primaryKey())
        .addColumn('cursor', 'varchar(200)', (c) => c.notNull())
        .execute();
    },
  };
}

/**
 * Migration of the feed's control ids: an index by interface and control id (latency looks a destination
 * message's key up in the source's rows instead of reading them all), and `repeated`, set on every row whose control
 * id another row of its interface carries too (the feed's rows are only added, or dropped with their interface, so a
 * row once repeated stays so). A window whose rows are none of them repeated holds each control id once.
 */
export function feedControlIdMigration(): Migration {
  return {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema.alterTable('tracing_feed').addColumn('repeated', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // `repeated` last: the marking finds a control id's unmarked rows in the index alone
      await db.schema.createIndex('tracing_feed_control_id').on('tracing_feed').columns(['interface_id', 'control_id', 'received_ms', 'repeated']).execute();
      await sql`update tracing_feed set repeated = 1 where control_id <> '' and (interface_id, control_id) in (
        select interface_id, control_id from tracing_feed where control_id <> '' group by interface_id, control_id having count(*) > 1)`.execute(db);
    },
  };
}

/**
 * What an engine reads the feed with: statements of one consistent snapshot (a transaction; repeatable read on
 * PostgreSQL), so counts and rows read one after another agree.
 */
export interface FeedReader {
  readonly dialect: 'sqlite' | 'postgres';
  /** The snapshot's connection, to compile queries with (`sql\`...\`.compile(reader.db)`). */
  readonly db: Kysely<any>;
  /** The rows of a query as arrays of values in select order. */
  rows(query: CompiledQuery): Promise<unknown[][]>;
  /** The first value of each row of a query (on SQLite read in pluck mode: no array per row). */
  column(query: CompiledQuery): Promise<unknown[]>;
}

/** A message of a feed window: the facts the checks read, with times in ms. */
export interface FeedMessage {
  /** The monitor's message id (`file.index`). */
  id: string;
  interfaceId: string;
  receivedAtMs: number;
  sendingApplication: string | null;
  sendingFacility: string | null;
  controlId: string | null;
  sequenceNumber: number | null;
  acknowledgedControlId: string | null;
  /** `ADT^A01` (see typeText). */
  messageType: string;
  messageTimeMs: number | null;
  /** First patient identifier and its authority. */
  patientId: string | null;
  patientAuthority: string | null;
  contentDigest: string | null;
}

/** The parts of a {@link FeedMessage} a read may ask for (the id, interface and received time always come). */
export type FeedColumn = Exclude<keyof FeedMessage, 'id' | 'interfaceId' | 'receivedAtMs'>;

const COLUMN_OF: Record<FeedColumn, keyof FeedRow> = {
  sendingApplication: 'sending_application',
  sendingFacility: 'sending_facility',
  controlId: 'control_id',
  sequenceNumber: 'sequence_number',
  acknowledgedControlId: 'acknowledged_control_id',
  messageType: 'message_type',
  messageTimeMs: 'message_time_ms',
  patientId: 'patient_id',
  patientAuthority: 'patient_authority',
  contentDigest: 'content_digest',
};

const NUMERIC = new Set<keyof FeedRow>(['sequence_number', 'message_time_ms']);

/** A window of one interface's feed: received time from `sinceMs` (inclusive) to `untilMs` (exclusive). */
export interface FeedWindow {
  interfaceId: string;
  sinceMs: number;
  untilMs?: number;
}

/** The facts the feed keeps of a stored message, read through the query contract with {@link FEED_FIELDS}. */
export function feedMessageOf(record: ProjectedRecord<(typeof FEED_FIELDS)[number]>): FeedMessage {
  const first = record.patientIds[0];
  return {
    id: record.id,
    interfaceId: record.interfaceId,
    receivedAtMs: Date.parse(record.receivedAt),
    sendingApplication: record.sendingApplication,
    sendingFacility: record.sendingFacility,
    controlId: record.controlId,
    sequenceNumber: record.sequenceNumber,
    acknowledgedControlId: record.acknowledgedControlId,
    messageType: typeText(record.messageType, record.triggerEvent).slice(0, 41),
    messageTimeMs: record.messageTime === null ? null : Date.parse(record.messageTime),
    patientId: first?.id ?? null,
    patientAuthority: first?.assigningAuthority ?? null,
    contentDigest: record.contentDigest,
  };
}

function rowOf(record: ProjectedRecord<(typeof FEED_FIELDS)[number]>): FeedRow {
  const message = feedMessageOf(record);
  return {
    interface_id: message.interfaceId,
    received_ms: message.receivedAtMs,
    file_id: Number(record.fileId),
    index_in_file: record.indexInFile,
    sending_application: message.sendingApplication,
    sending_facility: message.sendingFacility,
    control_id: message.controlId,
    sequence_number: message.sequenceNumber,
    acknowledged_control_id: message.acknowledgedControlId,
    message_type: message.messageType,
    message_time_ms: message.messageTimeMs,
    patient_id: message.patientId,
    patient_authority: message.patientAuthority,
    content_digest: message.contentDigest,
  };
}

/**
 * Sets `repeated` on the rows sharing an interface and control id with a row just written (in the same
 * transaction, after the rows: rows written earlier are committed, or being written by another node, whose insert
 * of the same rows this one waited for). The control ids are looked up in the control-id index, and each row is
 * marked once, by its key, when its control id first comes again: the work is linear in the rows written.
 */
async function markRepeated(trx: Kysely<FeedTables>, rows: readonly FeedRow[]): Promise<void> {
  const byInterface = new Map<string, Set<string>>();
  for (const row of rows) {
    if (!row.control_id) continue;
    let ids = byInterface.get(row.interface_id);
    if (ids === undefined) byInterface.set(row.interface_id, (ids = new Set()));
    ids.add(row.control_id);
  }
  for (const [interfaceId, ids] of byInterface) {
    const repeated = await trx
      .selectFrom('tracing_feed')
      .select('control_id')
      .where('interface_id', '=', interfaceId)
      .where('control_id', 'in', [...ids])
      .groupBy('control_id')
      .having((eb) => eb.and([eb(eb.fn.countAll(), '>', 1), eb(eb.fn.min('repeated'), '=', 0)]))
      .execute();
    for (const { control_id: controlId } of repeated) {
      const unmarked = await trx
        .selectFrom('tracing_feed')
        .select(['received_ms', 'file_id', 'index_in_file'])
        .where('interface_id', '=', interfaceId)
        .where('control_id', '=', controlId)
        .where('repeated', '=', 0)
        .execute();
      for (const key of unmarked) {
        await trx
          .updateTable('tracing_feed')
          .set({ repeated: 1 })
          .where('interface_id', '=', interfaceId)
          .where('received_ms', '=', key.received_ms)
          .where('file_id', '=', key.file_id)
          .where('index_in_file', '=', key.index_in_file)
          .execute();
      }
    }
  }
}

/** The compact feed: kept up to date from the monitor's store, read by window. */
export class FeedIndex {
  private readonly db: Kysely<FeedTables>;
  /** The last catch-up queued (they run one after another). */
  private tail: Promise<void> = Promise.resolve();
  /** A catch-up queued but not started: a caller arriving now is covered by it. */
  private queued: Promise<void> | undefined;
  /** Starts a catch-up once commits pause. */
  private readonly soon: PauseTimer;
  private stopped = false;

  /** Raw- and pluck-mode statements of the reads on embedded SQLite, by mode and SQL text (a handful). */
  private readonly statements = new Map<string, SQLiteStatement>();

  /**
   * `sqlite`: the embedded database's own handle (the one behind `db`), for raw-mode reads; undefined on PostgreSQL.
   * `oneAtATime`: runs a catch-up while no other node of a team on the same store runs one (the feed is shared: two
   * nodes reading the same messages would do the work twice); by default it runs at once.
   */
  constructor(
    db: Kysely<any>,
    private readonly sqlite: SQLiteDatabase | undefined,
    private readonly store: MonitorStore,
    background: Pick<BackgroundJobs, 'after'>,
    private readonly oneAtATime: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
  ) {
    this.db = db as Kysely<FeedTables>;
    // a failed catch-up shows in health (`job:tracing:feed-catch-up`) until one succeeds
    this.soon = new PauseTimer(() => this.catchUp(), QUIET_MS, MAX_LAG_MS, guardedAfter(background, 'feed-catch-up'));
  }

  /**
   * Brings the feed up to date: resolves once every message committed before the call is in it. A catch-up already
   * queued and not started serves this call too.
   */
  catchUp(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.tail.then(() => {
      this.queued = undefined;
      return this.oneAtATime(() => this.readNew());
    });
    this.queued = run;
    // a failed catch-up fails its callers; the next one starts again from the stored cursor
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Schedules a catch-up after a commit, once commits pause (QUIET_MS), MAX_LAG_MS after the first at the latest. */
  schedule(): void {
    if (!this.stopped) this.soon.poke();
  }

  /** Drops the rows of a deleted interface (after any catch-up under way, which may still have read some). */
  forgetInterface(interfaceId: string): Promise<void> {
    const run = this.tail.then(async () => {
      await this.db.deleteFrom('tracing_feed').where('interface_id', '=', interfaceId).execute();
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Stops scheduling and waits for the catch-up under way (it stops at its next batch). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.soon.stop();
    await this.tail;
  }

  private async readNew(): Promise<void> {
    if (this.stopped) return;
    const stored = await this.db.selectFrom('tracing_feed_cursor').select('cursor').where('name', '=', CURSOR_NAME).executeTakeFirst();
    let batch: FeedRow[] = [];
    let last: string | undefined;
    // a catch-up of many messages shares the event loop with requests, a slice at a time
    const slice = new LoopSlice();
    for await (const record of this.store.streamMessages({}, { after: stored?.cursor ?? null, fields: FEED_FIELDS })) {
      if (slice.spent()) await slice.pass();
      batch.push(rowOf(record));
      last = record.cursor;
      if (batch.length >= BATCH_ROWS) {
        await this.write(batch, last);
        batch = [];
        if (this.stopped) return;
      }
    }
    if (batch.length > 0 && last !== undefined) await this.write(batch, last);
  }

  private async write(rows: FeedRow[], cursor: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += INSERT_ROWS) {
        const chunk = rows.slice(i, i + INSERT_ROWS);
        await trx.insertInto('tracing_feed').values(chunk).onConflict((oc) => oc.doNothing()).execute();
        await markRepeated(trx, chunk);
      }
      await trx
        .insertInto('tracing_feed_cursor')
        .values({ name: CURSOR_NAME, cursor })
        .onConflict((oc) => oc.column('name').doUpdateSet({ cursor }))
        .execute();
    });
  }

  /**
   * The messages of a window in the stable order (received time, file, index), at most `limit`, with the parts
   * asked for (a part not asked for is left undefined). Catches up first.
   */
  async read(window: FeedWindow, columns: readonly FeedColumn[], limit: number): Promise<FeedMessage[]> {
    await this.catchUp();
    const wanted = columns.map((column) => COLUMN_OF[column]);
    let query = this.db
      .selectFrom('tracing_feed')
      .select(['file_id', 'index_in_file', 'received_ms', ...wanted])
      .where('interface_id', '=', window.interfaceId)
      .where('received_ms', '>=', window.sinceMs);
    if (window.untilMs !== undefined) query = query.where('received_ms', '<', window.untilMs);
    const rows = await this.rowsOf(query.orderBy('received_ms').orderBy('file_id').orderBy('index_in_file').limit(limit).compile());
    // each part's place in a row (3 onwards), or -1 when not read: every message is built in one shape
    const at = (column: FeedColumn) => {
      const index = columns.indexOf(column);
      return index < 0 ? -1 : index + 3;
    };
    const [app, facility, control, number, ack, type, time, patient, authority, digest] = (
      ['sendingApplication', 'sendingFacility', 'controlId', 'sequenceNumber', 'acknowledgedControlId', 'messageType', 'messageTimeMs', 'patientId', 'patientAuthority', 'contentDigest'] as const
    ).map(at) as [number, number, number, number, number, number, number, number, number, number];
    const text = (row: unknown[], index: number) => (index < 0 ? undefined : row[index]) as string | null;
    const integer = (row: unknown[], index: number) => (index < 0 ? undefined : row[index] === null ? null : Number(row[index])) as number | null;
    const messages = new Array<FeedMessage>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      messages[i] = {
        id: `${row[0]}.${row[1]}`,
        interfaceId: window.interfaceId,
        receivedAtMs: Number(row[2]),
        sendingApplication: text(row, app),
        sendingFacility: text(row, facility),
        controlId: text(row, control),
        sequenceNumber: integer(row, number),
        acknowledgedControlId: text(row, ack),
        messageType: text(row, type)!,
        messageTimeMs: integer(row, time),
        patientId: text(row, patient),
        patientAuthority: text(row, authority),
        contentDigest: text(row, digest),
      };
    }
    return messages;
  }

  /**
   * The rows of a query as arrays of values in select order. On embedded SQLite the statement runs on the database's
   * own handle in raw mode (prepared once), while Kysely's connection is held so nothing runs in between: a window of
   * 50,000 narrow rows costs no object per row and no column names.
   */
  private async rowsOf(query: CompiledQuery): Promise<unknown[][]> {
    const sqlite = this.sqlite;
    if (sqlite === undefined) {
      const result = await this.db.executeQuery<Record<string, unknown>>(query);
      return result.rows.map((row) => Object.values(row));
    }
    return this.db.connection().execute(async () => {
      return this.prepared(sqlite, query.sql, 'raw').all(...query.parameters) as unknown[][];
    });
  }

  /**
   * Runs `work` on one snapshot of the feed after catching up: its statements see the same rows, and a catch-up
   * waits for it (SQLite's single connection) or does not show in it (PostgreSQL's repeatable read).
   */
  async snapshot<T>(work: (reader: FeedReader) => Promise<T>): Promise<T> {
    await this.catchUp();
    const sqlite = this.sqlite;
    const transaction = sqlite === undefined ? this.db.transaction().setIsolationLevel('repeatable read') : this.db.transaction();
    return transaction.execute(async (trx) => {
      const reader: FeedReader = {
        dialect: sqlite === undefined ? 'postgres' : 'sqlite',
        db: trx,
        rows: async (query) => {
          if (sqlite === undefined) return (await trx.executeQuery<Record<string, unknown>>(query)).rows.map((row) => Object.values(row));
          return this.prepared(sqlite, query.sql, 'raw').all(...query.parameters) as unknown[][];
        },
        column: async (query) => {
          if (sqlite === undefined) return (await trx.executeQuery<Record<string, unknown>>(query)).rows.map((row) => Object.values(row)[0]);
          return this.prepared(sqlite, query.sql, 'pluck').all(...query.parameters);
        },
      };
      return work(reader);
    });
  }

  /** A statement of the embedded database in raw or pluck mode, prepared once per SQL text. */
  private prepared(sqlite: SQLiteDatabase, text: string, mode: 'raw' | 'pluck'): SQLiteStatement {
    const key = `${mode}:${text}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      statement = mode === 'raw' ? sqlite.prepare(text).raw(true) : sqlite.prepare(text).pluck(true);
      if (this.statements.size >= MAX_STATEMENTS) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(key, statement);
    }
    return statement;
  }

  /**
   * Adds the parts asked for to messages of one interface read before (by their key: a few rows each time, such as
   * the messages around the gaps found in a narrow read).
   */
  async complete(interfaceId: string, messages: readonly FeedMessage[], columns: readonly FeedColumn[]): Promise<void> {
    const wanted = columns.map((column) => COLUMN_OF[column]);
    const byId = new Map(messages.map((m) => [m.id, m]));
    const keys = [...byId.values()];
    for (let i = 0; i < keys.length; i += DETAIL_ROWS) {
      const chunk = keys.slice(i, i + DETAIL_ROWS);
      const rows = (await this.db
        .selectFrom('tracing_feed')
        .select(['file_id', 'index_in_file', ...wanted])
        .where('interface_id', '=', interfaceId)
        // keys as a row-value list: each is one primary-key look-up (SQLite plans an OR of keys as a scan of the interface)
        .where(
          sql`(received_ms, file_id, index_in_file)`,
          'in',
          sql`(values ${sql.join(
            chunk.map((m) => {
              const [file, index] = m.id.split('.');
              // typed: PostgreSQL takes a parameter of a values list for text
              return sql`(cast(${m.receivedAtMs} as bigint), cast(${Number(file)} as bigint), cast(${Number(index)} as integer))`;
            }),
          )})`,
        )
        .execute()) as FeedRow[];
      for (const row of rows) {
        const message = byId.get(`${row.file_id}.${row.index_in_file}`);
        if (message) fill(message, row, columns, wanted);
      }
    }
  }
}

/** Statements of the embedded database kept prepared (the oldest goes first). */
const MAX_STATEMENTS = 100;

/** Keys per statement of {@link FeedIndex.complete}. */
const DETAIL_ROWS = 200;

/** Copies the asked parts of a row onto a message (numbers of PostgreSQL's bigint come as text). */
function fill(message: FeedMessage, row: FeedRow, columns: readonly FeedColumn[], wanted: ReadonlyArray<keyof FeedRow>): void {
  for (let c = 0; c < columns.length; c++) {
    const column = wanted[c]!;
    const value = row[column];
    (message as unknown as Record<string, unknown>)[columns[c]!] = NUMERIC.has(column) && value !== null ? Number(value) : value;
  }
}
