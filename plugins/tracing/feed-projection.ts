/**
 * Tracing's feed as a monitor projection (`tracing-feed`): the monitor folds every committed message, once, into a
 * narrow row of `tracing_feed` (feed-tables.ts), in the transaction that moves the feed's position, and catches it up
 * before each read (feed-index.ts). A row's control id, when another row of its interface carries it too, marks both
 * `repeated`. Rows already there are left as they are (a position adopted from before may be a little behind them).
 */
import type { Kysely } from 'kysely';
import type { MessageFacts, ProjectedRecord, Projection } from '../monitor/api.ts';
import type { FeedMessage } from './feed-index.ts';
import type { FeedRow, FeedTables } from './feed-tables.ts';
import { typeText } from './trace-model.ts';

/** The projection's name: the monitor keeps the feed's position under it. */
export const FEED_PROJECTION = 'tracing-feed';

/** Rows written per statement (14 values each, far under every database's bound on parameters). */
const INSERT_ROWS = 500;

/** The facts the feed keeps, as the query contract names them. */
export const FEED_FIELDS = [
  'interfaceId', 'receivedAt', 'fileId', 'indexInFile', 'sendingApplication', 'sendingFacility', 'controlId', 'sequenceNumber',
  'acknowledgedControlId', 'messageType', 'triggerEvent', 'messageTime', 'patientIds', 'contentDigest',
] as const satisfies ReadonlyArray<keyof MessageFacts>;

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

/** A fact the feed reads. */
type FeedField = (typeof FEED_FIELDS)[number];

/**
 * The feed's projection: each batch of messages written as rows and marked; the feed's former position
 * (`tracing_feed_cursor`) adopted once and its table dropped.
 */
export function feedProjection(): Projection<FeedField> {
  return {
    name: FEED_PROJECTION,
    fields: FEED_FIELDS,
    async fold(messages, db) {
      const trx = db as Kysely<FeedTables>;
      const rows = messages.map(rowOf);
      for (let i = 0; i < rows.length; i += INSERT_ROWS) {
        const chunk = rows.slice(i, i + INSERT_ROWS);
        await trx.insertInto('tracing_feed').values(chunk).onConflict((oc) => oc.doNothing()).execute();
        await markRepeated(trx, chunk);
      }
    },
    async adopt(db) {
      const trx = db as Kysely<FeedTables>;
      const former = await trx.selectFrom('tracing_feed_cursor').select('cursor').where('name', '=', 'feed').executeTakeFirst();
      await trx.schema.dropTable('tracing_feed_cursor').execute();
      return former?.cursor ?? null;
    },
  };
}
