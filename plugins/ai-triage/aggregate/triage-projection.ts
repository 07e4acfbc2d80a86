/**
 * The triage aggregate as a monitor projection (`triage-aggregate`): the monitor folds every committed message once
 * into failure clusters per minute and hour and upgrade signatures per minute (aggregate-batch.ts, merged by
 * aggregate-store.ts), in the transaction that moves the aggregate's position, after commits pause and before every
 * read of it. The position triage kept itself before (`triage_cursor`) is adopted once and its table dropped.
 */
import type { Kysely } from 'kysely';
import type { Projection } from '../../monitor/api.ts';
import { AggregateBatch, FOLLOWED_FIELDS, type FollowedMessage } from './aggregate-batch.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { TriageDatabase } from '../triage-tables.ts';

/** The projection's name: the monitor keeps the aggregate's position under it. */
export const TRIAGE_PROJECTION = 'triage-aggregate';

/** Messages folded in memory before they are written (one transaction each; raw text is held until then). */
const BATCH_MESSAGES = 2_000;

/** Reads features of a message's text for the upgrade detector; undefined when it has none. */
export type TextFeatures = (message: FollowedMessage, raw: string) => string[] | undefined;

/** The aggregate's projection over `store`; with `textFeatures` each message's raw text is read for them too. */
export function triageProjection(store: AggregateStore, textFeatures?: TextFeatures): Projection<(typeof FOLLOWED_FIELDS)[number]> {
  return {
    name: TRIAGE_PROJECTION,
    fields: FOLLOWED_FIELDS,
    ...(textFeatures ? { include: ['raw'] as const } : {}),
    batchMessages: BATCH_MESSAGES,
    async fold(messages, db) {
      const batch = new AggregateBatch();
      for (const message of messages) {
        const raw = message.raw;
        batch.add(message, textFeatures && typeof raw === 'string' ? textFeatures(message, raw) : undefined);
      }
      await store.merge(batch, db);
    },
    async adopt(db) {
      const trx = db as Kysely<TriageDatabase>;
      const former = await trx.selectFrom('triage_cursor').select('cursor').where('id', '=', 'messages').executeTakeFirst();
      await trx.schema.dropTable('triage_cursor').execute();
      return former?.cursor ?? null;
    },
  };
}
