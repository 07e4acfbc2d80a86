/**
 * Storage: one Kysely instance over embedded SQLite (better-sqlite3, WAL) in the data dir, or over PostgreSQL when a
 * URL is configured so a team can share a store. Each plugin runs its own migrations, namespaced by plugin id so
 * names never collide and each plugin's history is its own table.
 */
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { SqliteCheckpointer } from './store/sqlite-checkpointer.ts';
import { join } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import { cachingStatements } from './store/sqlite-statement-cache.ts';

/** The store behind every plugin. */
export interface Storage {
  // tables belong to plugins, each of which types its own
  readonly db: Kysely<any>;
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * The embedded database's own handle (better-sqlite3) for bulk writes through prepared statements; undefined on
   * PostgreSQL. It is the connection Kysely uses: use it only inside `db.connection().execute(...)`, which holds
   * that connection, so no Kysely query or transaction runs in between.
   */
  readonly sqlite?: SQLiteDatabase.Database;
  /**
   * Kysely's `sql` template tag. Plugins take it from here rather than importing kysely at module scope, so a command
   * that never opens the database never loads the database layer.
   */
  readonly sql: typeof sql;
  /** Runs the migrations of one namespace (a plugin id or `kernel`) in name order. */
  migrate(namespace: string, migrations: Record<string, Migration>): Promise<void>;
  /**
   * Answers within `timeoutMs` whether the database responds. A successful answer is reused for one second so a
   * health endpoint polled hard costs no database round trip per request; closing the storage forgets it.
   */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Closes the connection(s); safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link createStorage}. */
export interface StorageOptions {
  /** PostgreSQL URL, or null for SQLite. */
  url: string | null;
  dataDir: string;
  sqliteFile: string;
  /** Told of each PostgreSQL connection that is lost (for the log); the process carries on either way. */
  onConnectionLost?: (error: Error) => void;
  /**
   * SQLite: checkpoints run in a thread of their own (sqlite-checkpointer.ts) instead of inside the commit that
   * fills the log. For a long-running server; a one-shot command leaves them to SQLite.
   */
  checkpointInThread?: boolean;
  /** Told of a checkpoint that failed in that thread (the next is tried a second later). */
  onCheckpointFailed?: (message: string) => void;
}

/** How often (ms) the checkpoint thread copies the log back into the database file. */
const CHECKPOINT_INTERVAL_MS = 1_000;

/** Key of the PostgreSQL advisory lock held while migrating ('wbmg' in ASCII). */
const MIGRATION_LOCK_KEY = 0x77626d67;

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

/** Creates the storage; PostgreSQL connections are checked at once so a wrong URL fails the boot clearly. */
export async function createStorage(options: StorageOptions): Promise<Storage> {
  // see Storage.db
  let db: Kysely<any>;
  let dialect: 'sqlite' | 'postgres';
  let handle: SQLiteDatabase.Database | undefined;
  let checkpointer: SqliteCheckpointer | undefined;
  let pingServer: (() => Promise<boolean>) | undefined;
  let closeServerPing: (() => Promise<void>) | undefined;
  if (options.url) {
    dialect = 'postgres';
    // The PostgreSQL driver loads only when a PostgreSQL store is configured.
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: options.url, max: 10, connectionTimeoutMillis: 5_000 });
    // A client losing its server, idle or inside a transaction, must not crash the process: its query in flight
    // fails (the monitor retries its batch), data routes answer 503 STORE_UNAVAILABLE and health reports it.
    const { guardPostgresPool } = await import('./store/connection-loss.ts');
    guardPostgresPool(pool, options.onConnectionLost ?? (() => undefined));
    // Text is made storable in one place: every parameter bound on the store's connections (NUL -> U+FFFD).
    const { bindStorableText } = await import('./store/storable-text.ts');
    pool.on('connect', (client) => bindStorableText(client as unknown as Parameters<typeof bindStorableText>[0]));
    db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    // Health asks on a connection of its own, so a pool busy with a dashboard's queries never delays its answer.
    // A lost connection is dropped and the next ping connects again.
    const connectionString = options.url;
    let healthClient: Promise<InstanceType<typeof pg.Client>> | undefined;
    const dropHealthClient = () => {
      const dropped = healthClient;
      healthClient = undefined;
      void dropped?.then((client) => client.end()).catch(() => undefined);
    };
    pingServer = async () => {
      healthClient ??= (async () => {
        const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
        client.on('error', () => dropHealthClient());
        await client.connect();
        return client;
      })();
      try {
        await (await healthClient).query('select 1 as ok');
        return true;
      } catch (error) {
        dropHealthClient();
        throw error;
      }
    };
    closeServerPing = async () => {
      const client = healthClient;
      healthClient = undefined;
      await client?.then((c) => c.end()).catch(() => undefined);
    };
  } else {
    dialect = 'sqlite';
    // The store holds credentials' digests and message data: the folder is the user's alone (0700) and the file
    // is created 0600; SQLite gives its -wal and -shm files the database file's permissions.
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const file = join(options.dataDir, options.sqliteFile);
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    const database = new SQLiteDatabase(file);
    database.pragma('journal_mode = WAL');
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a commit is still atomic and survives the
    // process being killed (kill -9 loses nothing committed); only a power cut can lose the last commits, and what
    // is written together stays together (a file's ledger row and its messages come back, or neither does, and the
    // file is then read again). FULL would add an fsync to every commit of the ingest.
    database.pragma('synchronous = NORMAL');
    if (options.checkpointInThread) {
      database.pragma('wal_autocheckpoint = 0');
      checkpointer = new SqliteCheckpointer(file, CHECKPOINT_INTERVAL_MS, (message) => options.onCheckpointFailed?.(message));
    } else database.pragma('wal_autocheckpoint = 16384');
    // a log that grew in a burst is cut back to 64 MB when it starts again from its head
    database.pragma('journal_size_limit = 67108864');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    db = new Kysely({ dialect: new SqliteDialect({ database: cachingStatements(database) }) });
    handle = database;
  }
  let closed = false;
  let lastHealthyAt = Number.NEGATIVE_INFINITY;
  const direct = handle?.prepare('select 1 as ok');
  const pingDirect = direct ? async () => direct.get() !== undefined : pingServer;
  const PING_REUSE_MS = 1_000;
  let schemaName: string | undefined;
  /** The schema unqualified names resolve to (the connection's search_path), asked once. */
  const currentSchema = async (): Promise<string> => {
    schemaName ??= (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema ?? 'public';
    return schemaName;
  };
  const storage: Storage = {
    db,
    dialect,
    sqlite: handle,
    sql,
    async migrate(namespace, migrations) {
      const safe = namespace.replace(/[^a-z0-9]/gi, '_');
      const migrator = new Migrator({
        db,
        provider: new StaticMigrationProvider(migrations),
        migrationTableName: `migrations_${safe}`,
        migrationLockTableName: `migrations_${safe}_lock`,
        // on PostgreSQL the migrator looks for its tables in every schema unless told which: a database holding
        // another schema's migration tables (other test runs, other instances) would make it skip creating its own
        ...(dialect === 'postgres' ? { migrationTableSchema: await currentSchema() } : {}),
      });
      // Nodes of a team starting together migrate one after another: the first applies, the others find nothing
      // left to do. A session lock on a connection of its own (the migrator uses the others), released on return.
      const { error, results } =
        dialect === 'postgres'
          ? await db.connection().execute(async (connection) => {
              await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
              try {
                return await migrator.migrateToLatest();
              } finally {
                await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
              }
            })
          : await migrator.migrateToLatest();
      if (error) {
        const failed = results?.find((r) => r.status === 'Error')?.migrationName;
        throw new Error(
          `Migration ${failed ?? ''} of ${namespace} failed: ${(error as Error).message ?? String(error)}`,
        );
      }
    },
    async ping(timeoutMs = 2_000) {
      if (closed) return false;
      const now = performance.now();
      if (now - lastHealthyAt < PING_REUSE_MS) return true;
      let timer: NodeJS.Timeout | undefined;
      try {
        // Beside Kysely's connections, whose queue a busy dashboard fills: health must answer at once. On SQLite
        // better-sqlite3 runs the statement synchronously, so nothing runs in between on that connection.
        const probe = pingDirect ? pingDirect() : sql`select 1 as ok`.execute(db).then(() => true);
        const timeout = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        const ok = await Promise.race([probe, timeout]);
        lastHealthyAt = ok ? now : Number.NEGATIVE_INFINITY;
        return ok;
      } catch {
        lastHealthyAt = Number.NEGATIVE_INFINITY;
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await closeServerPing?.();
      // the checkpoint thread's connection goes first: the last connection to close folds the log into the file
      await checkpointer?.stop();
      await db.destroy();
    },
  };
  if (dialect === 'postgres' && !(await storage.ping(5_000))) {
    await storage.close();
    throw new Error('Cannot reach the PostgreSQL server given by storage.url (WORKBENCH_STORAGE_URL).');
  }
  return storage;
}
