/** The kernel's own tables: API keys (digests only), role assignments, and the nodes and job runs of a team. */
import type { Kysely, Migration } from 'kysely';
import { clusterMigration } from '../cluster/cluster-tables.ts';

/** Kernel migrations, applied at boot in name order. */
export const kernelMigrations: Record<string, Migration> = {
  '001_api_keys_and_roles': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('kernel_api_keys')
        .ifNotExists()
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('prefix', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'varchar(200)', (c) => c.notNull())
        .addColumn('role', 'varchar(100)', (c) => c.notNull())
        .addColumn('digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('revoked_at', 'varchar(40)')
        .addColumn('last_used_at', 'varchar(40)')
        .execute();
      await db.schema
        .createTable('kernel_role_assignments')
        .ifNotExists()
        .addColumn('user_id', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('role', 'varchar(100)', (c) => c.notNull())
        .addColumn('assigned_at', 'varchar(40)', (c) => c.notNull())
        .execute();
    },
  },
  '002_cluster': clusterMigration,
};
