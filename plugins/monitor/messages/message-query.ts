/**
 * The read side of the query contract for stored messages ({@link MonitorStore}: queryMessages, streamMessages,
 * getMessage, countMessages). One filter object becomes one SQL statement; pages follow the keyset of the stable
 * order (received time, file, index in file), served by the `monitor_messages_order` indexes, so the cost of a page
 * follows its size, never its depth. A patient or account filter starts from the identifier index, so its cost
 * follows the messages naming that identifier, not the store. The raw text is read only when asked for.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type {
  MessageField,
  MessageFilter,
  MessageInclude,
  MessagePage,
  MessagePageOptions,
  MessageRecord,
  MessageStreamOptions,
  MonitoredStandard,
  ProjectedRecord,
  StoredIssue,
} from '../api.ts';
import { decodeCursor, encodeCursor, type MessagePosition } from './message-cursor.ts';
import { MESSAGE_FACTS, projectFact, projectFacts } from './message-facts.ts';
import { monitorErrors } from '../errors.ts';
import { fileNameCondition, checkFileName } from './message-file-filter.ts';
import { searchMatches, searchWords } from './message-text-search.ts';
import type { MessageRow, MonitorDatabase } from '../monitor-tables.ts';

/** Most messages in one page. */
export const PAGE_LIMIT_MAX = 1000;

/**
 * Facts in each page a stream reads internally: a narrow projection reads more rows per statement (up to
 * {@link STREAM_PAGE_MAX}), every fact reads {@link PAGE_LIMIT_MAX}, so memory stays about one page of facts.
 */
const STREAM_PAGE_FACTS = 10_000;

/**
 * Messages in each page a stream reads internally when it includes the raw text (about 1 KB each, often more): one
 * page is one synchronous read on SQLite, and a page of thousands of texts held the event loop 20 to 35 ms while a
 * follower caught up.
 */
const STREAM_PAGE_WITH_RAW = 250;

/** Most messages in each page a stream reads internally. */
export const STREAM_PAGE_MAX = 5000;

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

type FactRow = Omit<MessageRow, 'raw'> & { raw?: string | null };

type Query = SelectQueryBuilder<MonitorDatabase & { m: MessageRow }, 'm', object>;

const LATENCY_CLASSES = new Set(['ok', 'none', 'stale', 'skew']);

function issues(text: string): StoredIssue[] {
  // most messages of a healthy feed carry no issue: skip the parse
  return text === '[]' ? [] : (JSON.parse(text) as StoredIssue[]);
}

/** How one fact of the contract is read: the columns it needs and its value from a row. */
interface FieldReader {
  columns: ReadonlyArray<keyof MessageRow & string>;
  read: (row: FactRow) => unknown;
}

/** Every fact but the declared ones, which {@link MESSAGE_FACTS} describes. */
const OWN_FIELDS: Partial<Record<MessageField, FieldReader>> = {
  interfaceId: { columns: ['interface_id'], read: (row) => row.interface_id },
  fileId: { columns: [], read: (row) => String(row.file_id) },
  indexInFile: { columns: [], read: (row) => Number(row.index_in_file) },
  standard: { columns: ['standard'], read: (row) => row.standard as MonitoredStandard },
  receivedAt: { columns: [], read: (row) => row.received_at },
  isValid: { columns: ['is_valid'], read: (row) => Boolean(row.is_valid) },
  errors: { columns: ['errors'], read: (row) => issues(row.errors) },
  warnings: { columns: ['warnings'], read: (row) => issues(row.warnings) },
  latencyMs: { columns: ['latency_ms'], read: (row) => (row.latency_ms === null ? null : Number(row.latency_ms)) },
  latencyClass: {
    columns: ['latency_class', 'latency_ms'],
    // rows stored before the class was kept: a latency there was an ordinary one
    read: (row) =>
      row.latency_class && LATENCY_CLASSES.has(row.latency_class) ? row.latency_class : row.latency_ms === null ? 'none' : 'ok',
  },
};

/** Every fact of the contract with its reader, in the order of the default record. */
const FIELD_READERS: ReadonlyMap<MessageField, FieldReader> = new Map<MessageField, FieldReader>([
  ...(['interfaceId', 'fileId', 'indexInFile', 'standard', 'receivedAt'] as const).map((f) => [f, OWN_FIELDS[f]!] as const),
  ...MESSAGE_FACTS.map((fact) => {
    const { column, kind } = fact;
    return [fact.field, { columns: [column], read: (row: FactRow) => projectFact(kind, row[column]) }] as const;
  }),
  ...(['isValid', 'errors', 'warnings', 'latencyMs', 'latencyClass'] as const).map((f) => [f, OWN_FIELDS[f]!] as const),
]);

/** The columns every page reads: the keyset of the stable order, which also makes `id` and `cursor`. */
const KEYSET_COLUMNS = ['received_at', 'file_id', 'index_in_file'] as const;

/** A checked projection: the columns to select and the facts to map, each once. */
interface Projection {
  columns: string[];
  readers: Array<[string, (row: FactRow) => unknown]>;
}

function projection(fields: readonly MessageField[], includeRaw: boolean): Projection {
  const columns = new Set<string>(KEYSET_COLUMNS);
  const readers: Projection['readers'] = [];
  for (const [field, reader] of FIELD_READERS) {
    if (!fields.includes(field)) continue;
    for (const column of reader.columns) columns.add(column);
    readers.push([field, reader.read]);
  }
  if (includeRaw) columns.add('raw');
  return { columns: [...columns].map((column) => `m.${column}`), readers };
}

const ALL_FIELDS: readonly MessageField[] = ['id', ...FIELD_READERS.keys()];
const FULL = projection(ALL_FIELDS, false);
const FULL_WITH_RAW = projection(ALL_FIELDS, true);

/** Checks `fields` and `include` into a projection; anything malformed throws MESSAGE_FILTER_INVALID naming it. */
function checkProjection(fields: readonly string[] | undefined, include: readonly MessageInclude[] | undefined): Projection & { raw: boolean } {
  const raw = includesRaw(include);
  if (fields === undefined) return { ...(raw ? FULL_WITH_RAW : FULL), raw };
  if (!Array.isArray(fields) || fields.length > ALL_FIELDS.length) throw invalid(`fields must be a list of at most ${ALL_FIELDS.length} fact names`);
  for (const field of fields) {
    if (!(ALL_FIELDS as readonly unknown[]).includes(field)) throw invalid(`fields "${String(field).slice(0, 100)}" is not a message fact`);
  }
  return { ...projection(fields as MessageField[], raw), raw };
}

/** A stored row as the default record (every fact): one literal, so each record is built in one shape. */
function fullRecord(row: FactRow, includeRaw: boolean): MessageRecord {
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
    latencyClass: OWN_FIELDS.latencyClass!.read(row) as MessageRecord['latencyClass'],
  };
  if (includeRaw) record.raw = row.raw ?? null;
  return record;
}

/** A stored row as the contract's record: id, cursor, the projected facts, and the raw text when it was selected. */
function toRecord(row: FactRow, projected: Projection, includeRaw: boolean): MessageRecord {
  if (projected.readers.length === FIELD_READERS.size) return fullRecord(row, includeRaw);
  const fileId = Number(row.file_id);
  const indexInFile = Number(row.index_in_file);
  const record: Record<string, unknown> = {
    id: messageId(fileId, indexInFile),
    cursor: encodeCursor({ receivedAt: row.received_at, fileId, indexInFile }),
  };
  for (const [field, read] of projected.readers) record[field] = read(row);
  if (includeRaw) record.raw = row.raw ?? null;
  return record as unknown as MessageRecord;
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
  /** Lower-case words of a full-text search. */
  words?: readonly string[];
  /** A LIKE pattern of the file's path, and of its name. */
  fileName?: { path: string; name: string };
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
  if (filter.text !== undefined) checked.words = searchWords(filter.text);
  if (filter.fileName !== undefined) checked.fileName = checkFileName(filter.fileName);
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
  constructor(
    private readonly db: Kysely<MonitorDatabase>,
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

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
    if (filter.words !== undefined) {
      // the full-text index drives: each hit is one look-up of the message by its key
      const hits = searchMatches(this.dialect, filter.words).as('t');
      q = q.innerJoin(hits, (join) => join.onRef('t.file_id', '=', 'm.file_id').onRef('t.index_in_file', '=', 'm.index_in_file')) as unknown as Query;
    }
    return q.where((eb) => {
      const all = [];
      if (filter.fileName !== undefined) all.push(fileNameCondition(filter.fileName));
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
      // a literal, not a parameter: the planner can then use the partial indexes of failed messages (011, 013)
      if (filter.isValid !== undefined) all.push(eb('m.is_valid', '=', sql.lit(filter.isValid ? 1 : 0)));
      if (filter.errorCodes !== undefined) {
        // only a failed message holds errors (a message is valid exactly when it has none): said outright, the
        // failed messages' indexes drive the page, so its cost follows the failed messages, never the store
        if (filter.isValid !== false) all.push(eb('m.is_valid', '=', sql.lit(0)));
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
  private async page(
    filter: CheckedFilter,
    limit: number,
    after: MessagePosition | undefined,
    projected: Projection & { raw: boolean },
  ): Promise<{ records: MessageRecord[]; more: boolean }> {
    const rows = (await this.matching(filter, after)
      .select(projected.columns as unknown as ['m.file_id'])
      .orderBy('m.received_at')
      .orderBy('m.file_id')
      .orderBy('m.index_in_file')
      .limit(limit + 1)
      .execute()) as unknown as FactRow[];
    const more = rows.length > limit;
    if (more) rows.pop();
    const records = new Array<MessageRecord>(rows.length);
    for (let i = 0; i < rows.length; i++) records[i] = toRecord(rows[i], projected, projected.raw);
    return { records, more };
  }

  /** {@link MonitorStore.queryMessages}. */
  async query<F extends MessageField = MessageField>(filter: MessageFilter, options: MessagePageOptions<F> = {}): Promise<MessagePage<ProjectedRecord<F>>> {
    const checked = checkFilter(filter);
    const projected = checkProjection(options.fields, options.include);
    const { records, more } = await this.page(checked, checkLimit(options.limit), checkCursor(options.after), projected);
    return { messages: records as unknown as Array<ProjectedRecord<F>>, next: more ? records[records.length - 1].cursor : null };
  }

  /**
   * {@link MonitorStore.streamMessages}: the filter, cursor and projection are checked before the first page is read.
   * A narrow projection reads larger pages (fewer statements) while memory stays about one page of facts.
   */
  stream<F extends MessageField = MessageField>(filter: MessageFilter, options: MessageStreamOptions<F> = {}): AsyncIterable<ProjectedRecord<F>> {
    const checked = checkFilter(filter);
    let position = checkCursor(options.after);
    const projected = checkProjection(options.fields, options.include);
    const pageRows = projected.raw
      ? STREAM_PAGE_WITH_RAW
      : Math.max(PAGE_LIMIT_MAX, Math.min(STREAM_PAGE_MAX, Math.floor(STREAM_PAGE_FACTS / Math.max(1, projected.readers.length))));
    const pages = async function* (this: MessageQueries): AsyncGenerator<ProjectedRecord<F>> {
      for (;;) {
        const { records, more } = await this.page(checked, pageRows, position, projected);
        yield* records as unknown as Array<ProjectedRecord<F>>;
        if (!more) return;
        // every record carries its cursor, whatever the projection
        position = decodeCursor(records[records.length - 1].cursor);
      }
    };
    return pages.call(this);
  }

  /** {@link MonitorStore.getMessage}. */
  async get(id: string, options: { include?: MessageInclude[] } = {}): Promise<MessageRecord | undefined> {
    const projected = checkProjection(undefined, options.include);
    const key = typeof id === 'string' ? parseMessageId(id) : undefined;
    if (!key) return undefined;
    const row = (await (this.db.selectFrom('monitor_messages as m') as unknown as Query)
      .select(projected.columns as unknown as ['m.file_id'])
      .where('m.file_id', '=', key.fileId)
      .where('m.index_in_file', '=', key.indexInFile)
      .executeTakeFirst()) as unknown as FactRow | undefined;
    return row ? toRecord(row, projected, projected.raw) : undefined;
  }

  /** {@link MonitorStore.countMessages}. */
  async count(filter: MessageFilter): Promise<number> {
    const row = await this.matching(checkFilter(filter), undefined)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
