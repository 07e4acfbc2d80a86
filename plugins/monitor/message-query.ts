/**
 * The read side of the query contract for stored messages ({@link MonitorStore}: queryMessages, streamMessages,
 * getMessage, countMessages). One filter object becomes one SQL statement; pages follow the keyset of the stable
 * order (received time, file, index in file), served by the `monitor_messages_order` indexes, so the cost of a page
 * follows its size, never its depth. A patient or account filter starts from the identifier index, so its cost
 * follows the messages naming that identifier, not the store. The raw text is read only when asked for.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type {
  MessageFilter,
  MessageInclude,
  MessagePage,
  MessagePageOptions,
  MessageRecord,
  MonitoredStandard,
  StoredIssue,
} from './api.ts';
import { decodeCursor, encodeCursor, type MessagePosition } from './message-cursor.ts';
import { FACT_COLUMNS as STORED_FACT_COLUMNS, projectFacts } from './message-facts.ts';
import { monitorErrors } from './errors.ts';
import type { MessageRow, MonitorDatabase } from './monitor-tables.ts';

/** Most messages in one page. */
export const PAGE_LIMIT_MAX = 1000;

/** Messages in a page when the caller names no limit. */
export const PAGE_LIMIT_DEFAULT = 100;

/** Most values in one list field of a filter (interfaces, message types, error codes, standards). */
export const FILTER_LIST_MAX = 100;

/** `fileId.index`, the public id of a stored message. */
export function messageId(fileId: number, indexInFile: number): string {
  return `${fileId}.${indexInFile}`;
}

/** Splits a public message id; undefined when malformed. */
export function parseMessageId(id: string): { fileId: number; indexInFile: number } | undefined {
  const match = /^(\d{1,15})\.(\d{1,9})$/.exec(id);
  return match ? { fileId: Number(match[1]), indexInFile: Number(match[2]) } : undefined;
}

/** The columns of the default projection (every fact, no raw text). */
const FACT_COLUMNS = [
  ...['file_id', 'index_in_file', 'interface_id', 'standard', 'received_at', 'is_valid', 'errors', 'warnings', 'latency_ms', 'latency_class'],
  ...STORED_FACT_COLUMNS,
].map((column) => `m.${column}`);

type FactRow = Omit<MessageRow, 'raw'> & { raw?: string | null };

type Query = SelectQueryBuilder<MonitorDatabase & { m: MessageRow }, 'm', object>;

const LATENCY_CLASSES = new Set(['ok', 'none', 'stale', 'skew']);

function issues(text: string): StoredIssue[] {
  // most messages of a healthy feed carry no issue: skip the parse
  return text === '[]' ? [] : (JSON.parse(text) as StoredIssue[]);
}

/** A stored row as the contract's record: facts, its cursor, and the raw text when it was selected. */
function toRecord(row: FactRow, includeRaw: boolean): MessageRecord {
  const fileId = Number(row.file_id);
  const indexInFile = Number(row.index_in_file);
  const latencyMs = row.latency_ms === null ? null : Number(row.latency_ms);
  const record: MessageRecord = {
    id: messageId(fileId, indexInFile),
    cursor: encodeCursor({ receivedAt: row.received_at, fileId, indexInFile }),
    interfaceId: row.interface_id,
    fileId: String(fileId),
    indexInFile,
    standard: row.standard as MonitoredStandard,
    receivedAt: row.received_at,
    ...projectFacts(row),
    isValid: Boolean(row.is_valid),
    errors: issues(row.errors),
    warnings: issues(row.warnings),
    latencyMs,
    // rows stored before the class was kept: a latency there was an ordinary one
    latencyClass: (row.latency_class && LATENCY_CLASSES.has(row.latency_class)
      ? row.latency_class
      : latencyMs === null ? 'none' : 'ok') as MessageRecord['latencyClass'],
  };
  if (includeRaw) record.raw = row.raw ?? null;
  return record;
}

function invalid(reason: string): Error {
  return monitorErrors.create('MESSAGE_FILTER_INVALID', { reason });
}

function instant(value: string | Date, field: string): string {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(ms)) throw invalid(`${field} "${String(value)}" is not a date and time`);
  return new Date(ms).toISOString();
}

function text(value: unknown, field: string, max = 200): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw invalid(`${field} must be a text of 1 to ${max} characters`);
  }
  return value;
}

function list<T>(values: readonly T[] | undefined, field: string, check: (value: T) => void): readonly T[] | undefined {
  if (values === undefined) return undefined;
  if (!Array.isArray(values) || values.length > FILTER_LIST_MAX) throw invalid(`${field} must be a list of at most ${FILTER_LIST_MAX} values`);
  for (const value of values) check(value);
  return values;
}

/** A LIKE pattern matching the literal text (backslash is the escape character). */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The checked parts of a filter, ready for SQL. */
interface CheckedFilter {
  interfaceIds?: readonly string[];
  since?: string;
  until?: string;
  patientId?: string;
  assigningAuthority?: string;
  accountNumber?: string;
  controlId?: string;
  messageTypes?: ReadonlyArray<{ type: string; event?: string }>;
  isValid?: boolean;
  errorCodes?: readonly string[];
  sendingApplication?: string;
  sendingFacility?: string;
  standards?: readonly MonitoredStandard[];
}

/** Checks a filter; anything malformed throws MESSAGE_FILTER_INVALID (400) naming the field. */
export function checkFilter(filter: MessageFilter): CheckedFilter {
  if (filter === null || typeof filter !== 'object') throw invalid('the filter must be an object');
  const checked: CheckedFilter = {};
  checked.interfaceIds = list(filter.interfaceIds, 'interfaceIds', (v) => text(v, 'interfaceIds[]', 36));
  if (filter.since !== undefined) checked.since = instant(filter.since, 'since');
  if (filter.until !== undefined) checked.until = instant(filter.until, 'until');
  if (filter.assigningAuthority !== undefined && filter.patientId === undefined) {
    throw invalid('assigningAuthority narrows a patientId: give the patientId too');
  }
  if (filter.patientId !== undefined) checked.patientId = text(filter.patientId, 'patientId');
  if (filter.assigningAuthority !== undefined) checked.assigningAuthority = text(filter.assigningAuthority, 'assigningAuthority');
  if (filter.accountNumber !== undefined) checked.accountNumber = text(filter.accountNumber, 'accountNumber');
  if (filter.controlId !== undefined) checked.controlId = text(filter.controlId, 'controlId');
  if (filter.messageTypes !== undefined) {
    list(filter.messageTypes, 'messageTypes', (v) => text(v, 'messageTypes[]', 41));
    checked.messageTypes = filter.messageTypes.map((value) => {
      const [type, event, extra] = value.split('^');
      if (!type || extra !== undefined || event === '') throw invalid(`messageTypes "${value}" must be TYPE or TYPE^EVENT`);
      return event === undefined ? { type } : { type, event };
    });
  }
  if (filter.isValid !== undefined) {
    if (typeof filter.isValid !== 'boolean') throw invalid('isValid must be true or false');
    checked.isValid = filter.isValid;
  }
  checked.errorCodes = list(filter.errorCodes, 'errorCodes', (v) => {
    if (typeof v !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(v)) throw invalid(`errorCodes "${String(v)}" is not an error code`);
  });
  if (filter.sendingApplication !== undefined) checked.sendingApplication = text(filter.sendingApplication, 'sendingApplication');
  if (filter.sendingFacility !== undefined) checked.sendingFacility = text(filter.sendingFacility, 'sendingFacility');
  checked.standards = list(filter.standards, 'standards', (v) => {
    if (v !== 'hl7' && v !== 'fhir' && v !== 'ncpdp') throw invalid(`standards "${String(v)}" is not hl7, fhir or ncpdp`);
  });
  return checked;
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return PAGE_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) throw invalid(`limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}`);
  return limit;
}

function checkCursor(after: string | null | undefined): MessagePosition | undefined {
  if (after === undefined || after === null) return undefined;
  const position = typeof after === 'string' ? decodeCursor(after) : undefined;
  if (!position) throw monitorErrors.create('MESSAGE_CURSOR_INVALID', { cursor: String(after).slice(0, 100) });
  return position;
}

function includesRaw(include: readonly MessageInclude[] | undefined): boolean {
  if (include === undefined) return false;
  if (!Array.isArray(include) || include.some((part) => part !== 'raw')) throw invalid('include may only list "raw"');
  return include.includes('raw');
}

/** Reads stored messages through the query contract. */
export class MessageQueries {
  constructor(private readonly db: Kysely<MonitorDatabase>) {}

  /** The statement of a filter, from the position `after` on, without its projection. */
  private matching(filter: CheckedFilter, after: MessagePosition | undefined): Query {
    let q = this.db.selectFrom('monitor_messages as m') as unknown as Query;
    // an identifier filter starts from the identifier index: each message once, however often it names the value
    const byIdentifier = (kind: 'patient' | 'account', value: string, authority?: string) => {
      let ids = this.db
        .selectFrom('monitor_message_identifiers')
        .select(['file_id', 'index_in_file'])
        .where('kind', '=', kind)
        .where('value', '=', value);
      if (authority !== undefined) ids = ids.where('assigning_authority', '=', authority);
      if (filter.since !== undefined) ids = ids.where('received_at', '>=', filter.since);
      if (after !== undefined) ids = ids.where('received_at', '>=', after.receivedAt);
      if (filter.until !== undefined) ids = ids.where('received_at', '<', filter.until);
      return ids.groupBy(['file_id', 'index_in_file']);
    };
    if (filter.patientId !== undefined) {
      const ids = byIdentifier('patient', filter.patientId, filter.assigningAuthority);
      q = q.innerJoin(ids.as('p'), (join) => join.onRef('p.file_id', '=', 'm.file_id').onRef('p.index_in_file', '=', 'm.index_in_file')) as unknown as Query;
    }
    if (filter.accountNumber !== undefined) {
      const ids = byIdentifier('account', filter.accountNumber);
      q = q.innerJoin(ids.as('a'), (join) => join.onRef('a.file_id', '=', 'm.file_id').onRef('a.index_in_file', '=', 'm.index_in_file')) as unknown as Query;
    }
    return q.where((eb) => {
      const all = [];
      if (filter.interfaceIds !== undefined) {
        all.push(filter.interfaceIds.length === 0 ? sql<boolean>`1 = 0` : eb('m.interface_id', 'in', filter.interfaceIds));
      }
      if (filter.since !== undefined) all.push(eb('m.received_at', '>=', filter.since));
      if (filter.until !== undefined) all.push(eb('m.received_at', '<', filter.until));
      if (after !== undefined) {
        // the range on received_at alone is what the index serves; the rest orders ties
        all.push(eb('m.received_at', '>=', after.receivedAt));
        all.push(
          eb.or([
            eb('m.received_at', '>', after.receivedAt),
            eb('m.file_id', '>', after.fileId),
            eb.and([eb('m.file_id', '=', after.fileId), eb('m.index_in_file', '>', after.indexInFile)]),
          ]),
        );
      }
      if (filter.controlId !== undefined) all.push(eb('m.control_id', '=', filter.controlId));
      if (filter.messageTypes !== undefined) {
        all.push(
          eb.or(
            filter.messageTypes.map(({ type, event }) =>
              event === undefined
                ? eb('m.message_type', '=', type)
                : eb.and([eb('m.message_type', '=', type), eb('m.trigger_event', '=', event)]),
            ),
          ),
        );
      }
      if (filter.isValid !== undefined) all.push(eb('m.is_valid', '=', filter.isValid ? 1 : 0));
      if (filter.errorCodes !== undefined) {
        // issues are stored as JSON objects whose `code` follows `field`; a code's own quotes bound the match
        all.push(
          eb.or(filter.errorCodes.map((code) => sql<boolean>`${sql.ref('m.errors')} like ${`%"code":"${likeLiteral(code)}"%`} escape '\\'`)),
        );
      }
      if (filter.sendingApplication !== undefined) all.push(eb('m.sending_application', '=', filter.sendingApplication));
      if (filter.sendingFacility !== undefined) all.push(eb('m.sending_facility', '=', filter.sendingFacility));
      if (filter.standards !== undefined) all.push(eb('m.standard', 'in', filter.standards.length === 0 ? ['-'] : filter.standards));
      return eb.and(all);
    });
  }

  /** One page of up to `limit` messages after `after`, and whether more match now. */
  private async page(filter: CheckedFilter, limit: number, after: MessagePosition | undefined, includeRaw: boolean): Promise<{ records: MessageRecord[]; more: boolean }> {
    const columns: string[] = includeRaw ? [...FACT_COLUMNS, 'm.raw'] : [...FACT_COLUMNS];
    const rows = (await this.matching(filter, after)
      .select(columns as unknown as ['m.file_id'])
      .orderBy('m.received_at')
      .orderBy('m.file_id')
      .orderBy('m.index_in_file')
      .limit(limit + 1)
      .execute()) as unknown as FactRow[];
    const more = rows.length > limit;
    if (more) rows.pop();
    return { records: rows.map((row) => toRecord(row, includeRaw)), more };
  }

  /** {@link MonitorStore.queryMessages}. */
  async query(filter: MessageFilter, options: MessagePageOptions = {}): Promise<MessagePage> {
    const checked = checkFilter(filter);
    const { records, more } = await this.page(checked, checkLimit(options.limit), checkCursor(options.after), includesRaw(options.include));
    return { messages: records, next: more ? records[records.length - 1].cursor : null };
  }

  /** {@link MonitorStore.streamMessages}: the filter and cursor are checked before the first page is read. */
  stream(filter: MessageFilter, options: { after?: string | null; include?: MessageInclude[] } = {}): AsyncIterable<MessageRecord> {
    const checked = checkFilter(filter);
    let position = checkCursor(options.after);
    const includeRaw = includesRaw(options.include);
    const pages = async function* (this: MessageQueries): AsyncGenerator<MessageRecord> {
      for (;;) {
        const { records, more } = await this.page(checked, PAGE_LIMIT_MAX, position, includeRaw);
        yield* records;
        if (!more) return;
        const last = records[records.length - 1];
        position = { receivedAt: last.receivedAt, fileId: Number(last.fileId), indexInFile: last.indexInFile };
      }
    };
    return pages.call(this);
  }

  /** {@link MonitorStore.getMessage}. */
  async get(id: string, options: { include?: MessageInclude[] } = {}): Promise<MessageRecord | undefined> {
    const includeRaw = includesRaw(options.include);
    const key = typeof id === 'string' ? parseMessageId(id) : undefined;
    if (!key) return undefined;
    const columns: string[] = includeRaw ? [...FACT_COLUMNS, 'm.raw'] : [...FACT_COLUMNS];
    const row = (await (this.db.selectFrom('monitor_messages as m') as unknown as Query)
      .select(columns as unknown as ['m.file_id'])
      .where('m.file_id', '=', key.fileId)
      .where('m.index_in_file', '=', key.indexInFile)
      .executeTakeFirst()) as unknown as FactRow | undefined;
    return row ? toRecord(row, includeRaw) : undefined;
  }

  /** {@link MonitorStore.countMessages}. */
  async count(filter: MessageFilter): Promise<number> {
    const row = await this.matching(checkFilter(filter), undefined)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
