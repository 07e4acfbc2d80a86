/**
 * A fresh PostgreSQL schema per test run, so runs against the shared server (WORKBENCH_TEST_POSTGRES_URL) never see
 * each other's tables.
 */
import pg from 'pg';

/** URL of the test PostgreSQL server, or undefined (tests then skip with a notice). */
export const testPostgresUrl: string | undefined = process.env.WORKBENCH_TEST_POSTGRES_URL;

/** A PostgreSQL URL whose search_path is a fresh schema, and the function that drops it. */
export async function freshPostgresSchema(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `wb_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: scoped.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}
