/**
 * Tracing's compact copy of what its window checks read of every stored message (`tracing_feed`, feed-tables.ts):
 * interface, received time (ms), message id parts, sender, control id, MSH-13, MSA-2, type, MSH-7 (ms), first patient
 * id and content digest; some 100 bytes a message, where the monitor's row carries the raw text and every fact. Gaps
 * of an interface and latency between two read a window of it by its primary key (interface, received time, file,
 * index), an ordered range of narrow rows, instead of looking up each of the monitor's wide rows.
 *
 * The monitor keeps it up to date as a projection (feed-projection.ts): after commits pause, and before every read
 * here, so an answer covers every message committed before it was asked. Rows of a deleted interface are dropped
 * between two catch-ups.
 */
import type { Database as SQLiteDatabase, Statement as SQLiteStatement } from 'better-sqlite3';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { ProjectionHandle } from '../monitor/api.ts';
import type { FeedRow, FeedTables } from './feed-tables.ts';

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

/** The compact feed, read by window; the monitor keeps it up to date (see the file comment). */
export class FeedIndex {
  private readonly db: Kysely<FeedTables>;

  /** Raw- and pluck-mode statements of the reads on embedded SQLite, by mode and SQL text (a handful). */
  private readonly statements = new Map<string, SQLiteStatement>();

  /**
   * `sqlite`: the embedded database's own handle (the one behind `db`), for raw-mode reads; undefined on PostgreSQL.
   * `projection`: the feed's projection as the monitor registered it (feedProjection()).
   */
  constructor(
    db: Kysely<any>,
    private readonly sqlite: SQLiteDatabase | undefined,
    private readonly projection: ProjectionHandle,
  ) {
    this.db = db as Kysely<FeedTables>;
  }

  /** Brings the feed up to date: resolves once every message committed before the call is in it. */
  catchUp(): Promise<void> {
    return this.projection.catchUp();
  }

  /** Drops the rows of a deleted interface (after any catch-up under way, which may still have read some). */
  forgetInterface(interfaceId: string): Promise<void> {
    return this.projection.exclusive(async () => {
      await this.db.deleteFrom('tracing_feed').where('interface_id', '=', interfaceId).execute();
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
