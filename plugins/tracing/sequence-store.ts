/**
 * Expected sequences defined through the API, in the tracing plugin's own table (`tracing_sequences`). Sequences of
 * the config file are not stored: they are read from config at boot and listed beside these.
 */
import type { Kysely, Migration } from 'kysely';

interface SequenceRow {
  name: string;
  sequence: string;
  alert: number;
  created_at: string;
}

/** A sequence defined through the API. */
export interface StoredSequence {
  name: string;
  /** Canonical sequence text. */
  sequence: string;
  /** Whether its gaps raise alerts. */
  alert: boolean;
  createdAt: string;
}

/** Migrations of the tracing tables. */
export const tracingMigrations: Record<string, Migration> = {
  '001_sequences': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tracing_sequences')
        .ifNotExists()
        .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('sequence', 'varchar(1000)', (c) => c.notNull())
        .addColumn('alert', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .execute();
    },
  },
};

const toStored = (row: SequenceRow): StoredSequence => ({
  name: row.name,
  sequence: row.sequence,
  alert: Number(row.alert) === 1,
  createdAt: row.created_at,
});

/** Reads and writes API-defined sequences. */
export class SequenceStore {
  constructor(private readonly db: Kysely<{ tracing_sequences: SequenceRow }>) {}

  /** Every stored sequence, by name. */
  async list(): Promise<StoredSequence[]> {
    return (await this.db.selectFrom('tracing_sequences').selectAll().orderBy('name').execute()).map(toStored);
  }

  /** One sequence by name. */
  async get(name: string): Promise<StoredSequence | undefined> {
    const row = await this.db.selectFrom('tracing_sequences').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toStored(row) : undefined;
  }

  /** Adds a sequence; false when the name is taken. */
  async add(sequence: StoredSequence): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('tracing_sequences').select('name').where('name', '=', sequence.name).executeTakeFirst();
      if (existing) return false;
      await trx
        .insertInto('tracing_sequences')
        .values({ name: sequence.name, sequence: sequence.sequence, alert: sequence.alert ? 1 : 0, created_at: sequence.createdAt })
        .execute();
      return true;
    });
  }

  /** Removes a sequence; false when there was none. */
  async remove(name: string): Promise<boolean> {
    const result = await this.db.deleteFrom('tracing_sequences').where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
