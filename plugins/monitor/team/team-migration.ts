/**
 * Migration `007_team`: what lets several nodes share one store.
 * - `monitor_interface_placement`: where an interface may be watched (pinned to a node, or `any` node) and which live
 *   node owns it now; an interface without a row is pinned to the first node that takes it.
 * - The ledger's identity: one counted row per interface, path and content hash (`monitor_files_identity`, rows
 *   marked `replaced` aside), so two nodes racing on one file cannot both count it. Rows counted twice before the
 *   index existed are kept as history, the later ones marked `replaced`.
 * - One open alert episode per interface and rule (`monitor_alerts_one_open`); duplicates found are closed.
 * - On PostgreSQL the ledger's ids come from its sequence from now on (they were taken after the highest id before):
 *   the sequence is moved past the highest id.
 */
import type { Kysely, Migration } from 'kysely';

/** The placement table, as stored. */
export interface PlacementRow {
  interface_id: string;
  /** `pinned` (the node in `pinned_node`) or `any`. */
  placement: string;
  /** The node a pinned interface belongs to; null until a node takes it. */
  pinned_node: string | null;
  /** The node watching it, or null when none does. */
  owner_node: string | null;
  /** When the owner took it, epoch ms of the store's clock. */
  owned_since_ms: number | string | null;
  /** Why the owner cannot watch its folder (another node that can may take it), or null. */
  problem: string | null;
}

/** The migration (`dialect` picks the id sequence step). */
export function teamMigration(dialect: 'sqlite' | 'postgres'): Migration {
  return {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('monitor_interface_placement')
        .addColumn('interface_id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('placement', 'varchar(10)', (c) => c.notNull())
        .addColumn('pinned_node', 'varchar(200)')
        .addColumn('owner_node', 'varchar(200)')
        .addColumn('owned_since_ms', 'bigint')
        .addColumn('problem', 'text')
        .execute();
      await db
        .updateTable('monitor_files as f')
        .set({ state: 'replaced' })
        .where('f.state', '<>', 'replaced')
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('monitor_files as o')
              .select('o.id')
              .whereRef('o.interface_id', '=', 'f.interface_id')
              .whereRef('o.path', '=', 'f.path')
              .whereRef('o.content_hash', '=', 'f.content_hash')
              .where('o.state', '<>', 'replaced')
              .whereRef('o.id', '<', 'f.id'),
          ),
        )
        .execute();
      await db.schema
        .createIndex('monitor_files_identity')
        .on('monitor_files')
        .unique()
        .columns(['interface_id', 'path', 'content_hash'])
        .where((eb) => eb(eb.ref('state' as never), '<>', 'replaced' as never))
        .execute();
      await db
        .updateTable('monitor_alerts as a')
        .set((eb) => ({ cleared_at: eb.ref('a.triggered_at') }))
        .where('a.cleared_at', 'is', null)
        .where(({ exists, selectFrom, or, and, eb }) =>
          exists(
            selectFrom('monitor_alerts as o')
              .select('o.id')
              .whereRef('o.interface_id', '=', 'a.interface_id')
              .whereRef('o.rule', '=', 'a.rule')
              .where('o.cleared_at', 'is', null)
              .where(or([eb('o.triggered_at', '<', eb.ref('a.triggered_at')), and([eb('o.triggered_at', '=', eb.ref('a.triggered_at')), eb('o.id', '<', eb.ref('a.id'))])])),
          ),
        )
        .execute();
      await db.schema
        .createIndex('monitor_alerts_one_open')
        .on('monitor_alerts')
        .unique()
        .columns(['interface_id', 'rule'])
        .where((eb) => eb(eb.ref('cleared_at' as never), 'is', null))
        .execute();
      if (dialect === 'postgres') {
        // the next id given is the highest stored plus one
        await db
          .selectNoFrom((eb) => {
            const top = eb.fn.coalesce(eb.selectFrom('monitor_files').select((inner) => inner.fn.max('id').as('top')), eb.lit(0));
            return eb.fn('setval', [eb.fn('pg_get_serial_sequence', [eb.val('monitor_files'), eb.val('id')]), eb(top, '+', 1), eb.lit(false)]).as('next');
          })
          .execute();
      }
    },
  };
}
