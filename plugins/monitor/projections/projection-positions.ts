/**
 * Where each projection stands in the stable order of committed messages: `monitor_projections`, one row per
 * projection name holding the cursor of the last message folded in (null: none yet, the projection's former position
 * adopted as none). The row moves only from the value a catch-up read
 * to the new one, in the transaction that writes the fold, so two nodes of a team never fold the same batch twice.
 */
import type { Kysely, Migration } from 'kysely';

/** A row of `monitor_projections`. */
interface PositionRow {
  name: string;
  cursor: string | null;
}

/** The table as Kysely sees it. */
export interface PositionTables {
  monitor_projections: PositionRow;
}

/** Migration of the positions table (one of the monitor's migrations). */
export const projectionPositionsMigration: Migration = {
  // migrations run before table types exist
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('monitor_projections')
      .addColumn('name', 'varchar(60)', (c) => c.primaryKey())
      .addColumn('cursor', 'varchar(200)')
      .execute();
  },
};

/** The position moved since it was read (another node folded the batch): nothing was written. */
export class PositionMovedError extends Error {
  constructor(name: string) {
    super(`the position of projection ${name} was moved by another writer`);
  }
}

/** The stored position of a projection: undefined when it has no row yet, null when it has folded nothing. */
export async function readPosition(db: Kysely<any>, name: string): Promise<string | null | undefined> {
  const row = await (db as Kysely<PositionTables>).selectFrom('monitor_projections').select('cursor').where('name', '=', name).executeTakeFirst();
  return row === undefined ? undefined : row.cursor;
}

/**
 * Moves a projection's position from `from` (undefined: no row yet; null: nothing folded) to `to` inside `trx`; throws
 * {@link PositionMovedError} when the stored position is no longer `from`.
 */
export async function movePosition(trx: Kysely<any>, name: string, from: string | null | undefined, to: string | null): Promise<void> {
  const db = trx as Kysely<PositionTables>;
  const moved =
    from === undefined
      ? await db.insertInto('monitor_projections').values({ name, cursor: to }).onConflict((conflict) => conflict.column('name').doNothing()).executeTakeFirst()
      : await db
          .updateTable('monitor_projections')
          .set({ cursor: to })
          .where('name', '=', name)
          .where((eb) => (from === null ? eb('cursor', 'is', null) : eb('cursor', '=', from)))
          .executeTakeFirst();
  const count = 'numInsertedOrUpdatedRows' in moved ? moved.numInsertedOrUpdatedRows : moved.numUpdatedRows;
  if (count === undefined || Number(count) !== 1) throw new PositionMovedError(name);
}
