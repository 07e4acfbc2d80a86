/**
 * Reads of stored messages and minute roll-ups, for the monitor's own routes and for other plugins through
 * {@link MonitorService}. Every read is bounded (limit capped) and served by an index on the time window.
 */
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import type {
  DailyMessageCount,
  MessageQuery,
  MinuteRollupOptions,
  MinuteRollup,
  StoredIssue,
  StoredMessage,
  StoredMessageCounts,
  TimeWindow,
} from './api.ts';
import type { MessageRow, MonitorDatabase } from './monitor-tables.ts';

/** Most rows one read returns. */
export const MESSAGE_LIMIT_MAX = 10_000;

/** `fileId.index`, the public id of a stored message. */
export function messageId(fileId: number, indexInFile: number): string {
  return `${fileId}.${indexInFile}`;
}

/** Splits a public message id; undefined when malformed. */
export function parseMessageId(id: string): { fileId: number; indexInFile: number } | undefined {
  const match = /^(\d{1,15})\.(\d{1,9})$/.exec(id);
  return match ? { fileId: Number(match[1]), indexInFile: Number(match[2]) } : undefined;
}

/** The start of the minute of an instant, in the stored ISO form. */
export function minuteOf(value: string | Date | number): string {
  const ms = typeof value === 'number' ? value : new Date(value).getTime();
  return new Date(ms - (((ms % 60_000) + 60_000) % 60_000)).toISOString();
}

/** An instant as the stored ISO form. */
export function isoOf(value: string | Date): string {
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}

function toMessage(row: Partial<MessageRow> & MessageRow): StoredMessage {
  return {
    id: messageId(Number(row.file_id), Number(row.index_in_file)),
    interfaceId: row.interface_id,
    fileId: String(row.file_id),
    indexInFile: Number(row.index_in_file),
    receivedAt: row.received_at,
    messageTime: row.message_time,
    messageType: row.message_type,
    triggerEvent: row.trigger_event,
    version: row.version,
    controlId: row.control_id,
    sendingApplication: row.sending_application,
    sendingFacility: row.sending_facility,
    patientIds: JSON.parse(row.patient_ids) as StoredMessage['patientIds'],
    accountNumber: row.account_number,
    visitNumber: row.visit_number,
    isValid: Boolean(row.is_valid),
    errors: JSON.parse(row.errors) as StoredIssue[],
    warnings: JSON.parse(row.warnings) as StoredIssue[],
    latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
    raw: row.raw ?? null,
  };
}

type MessageSelect = SelectQueryBuilder<MonitorDatabase, 'monitor_messages', MessageRow>;

/** Reads messages and roll-ups. */
export class MessageStore {
  constructor(private readonly db: Kysely<MonitorDatabase>) {}

  private select(withoutRaw: boolean | undefined): MessageSelect {
    const query = this.db.selectFrom('monitor_messages').selectAll();
    if (!withoutRaw) return query;
    // the raw text is the bulk of a row; leaving it out keeps wide reads cheap
    return this.db
      .selectFrom('monitor_messages')
      .select([
        'file_id', 'index_in_file', 'interface_id', 'received_at', 'message_time', 'message_type', 'trigger_event',
        'version', 'control_id', 'sending_application', 'sending_facility', 'patient_ids', 'account_number',
        'visit_number', 'is_valid', 'errors', 'warnings', 'latency_ms',
      ]) as unknown as MessageSelect;
  }

  private async page(query: MessageSelect, options: Partial<MessageQuery>): Promise<StoredMessage[]> {
    let q = query;
    if (options.since !== undefined) q = q.where('received_at', '>=', isoOf(options.since));
    if (options.until !== undefined) q = q.where('received_at', '<', isoOf(options.until));
    if (options.isValid !== undefined) q = q.where('is_valid', '=', options.isValid ? 1 : 0);
    const limit = Math.max(1, Math.min(options.limit ?? 1000, MESSAGE_LIMIT_MAX));
    const rows = await q
      .orderBy('received_at')
      .orderBy('file_id')
      .orderBy('index_in_file')
      .limit(limit)
      .offset(Math.max(0, options.offset ?? 0))
      .execute();
    return rows.map((row) => toMessage(row as MessageRow));
  }

  /** Messages received in a window, of one interface or all. */
  inWindow(interfaceId: string | null, query: MessageQuery): Promise<StoredMessage[]> {
    let q = this.select(query.withoutRaw);
    if (interfaceId !== null) q = q.where('interface_id', '=', interfaceId);
    return this.page(q, query);
  }

  /** Messages naming an identifier of a kind (`patient` or `account`). */
  async byIdentifier(kind: 'patient' | 'account', value: string, query: Partial<MessageQuery> = {}): Promise<StoredMessage[]> {
    let q = this.db
      .selectFrom('monitor_message_identifiers as i')
      .innerJoin('monitor_messages as m', (join) =>
        join.onRef('m.file_id', '=', 'i.file_id').onRef('m.index_in_file', '=', 'i.index_in_file'),
      )
      .selectAll('m')
      .where('i.kind', '=', kind)
      .where('i.value', '=', value);
    if (query.since !== undefined) q = q.where('i.received_at', '>=', isoOf(query.since));
    if (query.until !== undefined) q = q.where('i.received_at', '<', isoOf(query.until));
    if (query.isValid !== undefined) q = q.where('m.is_valid', '=', query.isValid ? 1 : 0);
    const rows = await q
      .orderBy('i.received_at')
      .orderBy('i.file_id')
      .orderBy('i.index_in_file')
      .limit(Math.max(1, Math.min(query.limit ?? 1000, MESSAGE_LIMIT_MAX)))
      .offset(Math.max(0, query.offset ?? 0))
      .execute();
    return rows.map((row) => toMessage(query.withoutRaw ? { ...row, raw: null } : row));
  }

  /** Messages with a control id. */
  byControlId(controlId: string, query: Partial<MessageQuery> = {}): Promise<StoredMessage[]> {
    return this.page(this.select(query.withoutRaw).where('control_id', '=', controlId), query);
  }

  /** One message by its public id. */
  async get(id: string): Promise<StoredMessage | undefined> {
    const key = parseMessageId(id);
    if (!key) return undefined;
    const row = await this.db
      .selectFrom('monitor_messages')
      .selectAll()
      .where('file_id', '=', key.fileId)
      .where('index_in_file', '=', key.indexInFile)
      .executeTakeFirst();
    return row ? toMessage(row) : undefined;
  }

  /** Minute roll-ups of an interface in a window, oldest first. */
  async minutes(interfaceId: string, window: TimeWindow, options: MinuteRollupOptions = {}): Promise<MinuteRollup[]> {
    const since = isoOf(window.since);
    const until = window.until === undefined ? undefined : isoOf(window.until);
    let q = this.db.selectFrom('monitor_minutes').selectAll().where('interface_id', '=', interfaceId).where('minute', '>=', since);
    if (until !== undefined) q = q.where('minute', '<', until);
    const rows = await q.orderBy('minute').execute();
    let within: Map<string, number> | undefined;
    if (options.withinMs !== undefined) {
      let w = this.db
        .selectFrom('monitor_messages')
        .select((eb) => [eb.fn<string>('substr', ['received_at', eb.lit(1), eb.lit(16)]).as('m'), eb.fn.countAll<number>().as('n')])
        .where('interface_id', '=', interfaceId)
        .where('received_at', '>=', since)
        .where('latency_ms', '<=', options.withinMs);
      if (until !== undefined) w = w.where('received_at', '<', until);
      const counts = await w.groupBy((eb) => eb.fn('substr', ['received_at', eb.lit(1), eb.lit(16)])).execute();
      within = new Map(counts.map((c) => [`${c.m}:00.000Z`, Number(c.n)]));
    }
    return rows.map((row) => ({
      interfaceId: row.interface_id,
      minute: row.minute,
      messages: Number(row.messages),
      failed: Number(row.failed),
      latencySumMs: Number(row.latency_sum),
      latencyCount: Number(row.latency_count),
      // a row written by an ingest before any check of that minute: files were read, so the folder was there
      reachable: row.reachable === null ? true : Boolean(row.reachable),
      enabled: row.enabled === null ? true : Boolean(row.enabled),
      ...(within ? { messagesWithinMs: within.get(row.minute) ?? 0 } : {}),
    }));
  }

  /** Stores minute roll-ups as observed (import, backfill); a row for an existing minute replaces it. */
  async importMinutes(rows: MinuteRollup[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const row of rows) {
        const minute = minuteOf(row.minute);
        await trx.deleteFrom('monitor_minutes').where('interface_id', '=', row.interfaceId).where('minute', '=', minute).execute();
        await trx
          .insertInto('monitor_minutes')
          .values({
            interface_id: row.interfaceId,
            minute,
            messages: row.messages,
            failed: row.failed,
            latency_sum: row.latencySumMs,
            latency_count: row.latencyCount,
            reachable: row.reachable ? 1 : 0,
            enabled: row.enabled ? 1 : 0,
          })
          .execute();
      }
    });
  }

  /** Messages per UTC day in a window, from the minute roll-ups. */
  async daily(window: TimeWindow, interfaceId?: string): Promise<DailyMessageCount[]> {
    let q = this.db
      .selectFrom('monitor_minutes')
      .select((eb) => [
        eb.fn<string>('substr', ['minute', eb.lit(1), eb.lit(10)]).as('day'),
        eb.fn.sum<number>('messages').as('messages'),
        eb.fn.sum<number>('failed').as('failed'),
      ])
      .where('minute', '>=', isoOf(window.since));
    if (window.until !== undefined) q = q.where('minute', '<', isoOf(window.until));
    if (interfaceId) q = q.where('interface_id', '=', interfaceId);
    const day = (eb: ExpressionBuilder<MonitorDatabase, 'monitor_minutes'>) => eb.fn<string>('substr', ['minute', eb.lit(1), eb.lit(10)]);
    const rows = await q.groupBy(day).orderBy(day).execute();
    return rows
      .map((r) => ({ day: r.day, messages: Number(r.messages ?? 0), failed: Number(r.failed ?? 0) }))
      .filter((r) => r.messages > 0);
  }

  /** Counts of stored messages, failed messages, ledger rows (every file version read) and interfaces. */
  async counts(interfaceId?: string): Promise<StoredMessageCounts> {
    let files = this.db
      .selectFrom('monitor_files')
      .select((eb) => [
        eb.fn.countAll<number>().as('files'),
        eb.fn.sum<number>('message_count').as('messages'),
        eb.fn.sum<number>('failed_count').as('failed'),
      ]);
    if (interfaceId) files = files.where('interface_id', '=', interfaceId);
    const fileCounts = await files.executeTakeFirstOrThrow();
    let interfaces = this.db.selectFrom('monitor_interfaces').select((eb) => eb.fn.countAll<number>().as('n'));
    if (interfaceId) interfaces = interfaces.where('id', '=', interfaceId);
    const interfaceCount = await interfaces.executeTakeFirstOrThrow();
    return {
      messages: Number(fileCounts.messages ?? 0),
      failed: Number(fileCounts.failed ?? 0),
      files: Number(fileCounts.files),
      interfaces: Number(interfaceCount.n),
    };
  }
}
