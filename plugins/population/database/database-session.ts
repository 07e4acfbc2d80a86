/**
 * The connected database of the session: one at a time, replaced by the next connect, closed at shutdown. It holds
 * the schema analysed at connect (re-read on demand after a seed or cleanup changed row counts). The connection
 * string lives only in this process's memory: it is never stored, logged or returned.
 */
import { parseConnectionString } from './connection-string.ts';
import { type ConnectionTimeouts, type DatabaseConnection, openDatabaseConnection } from './database-connection.ts';
import { populationErrors } from '../errors.ts';
import { analyseSchema, type SchemaInfo } from './schema-analysis.ts';
import type { Provider } from '../output/sql-dialect.ts';

/** The session's connection and its analysed schema. */
export interface ConnectedDatabase {
  connection: DatabaseConnection;
  schema: SchemaInfo;
}

/** Creates the session holder. */
export function createDatabaseSession(timeouts: ConnectionTimeouts, now: () => Date) {
  let current: ConnectedDatabase | undefined;
  return {
    /** Opens, proves and analyses a database; it replaces the previous one only when all of that worked. */
    async connect(provider: Provider, connectionString: string): Promise<ConnectedDatabase> {
      const target = parseConnectionString(provider, connectionString);
      const connection = await openDatabaseConnection(target, timeouts);
      let schema: SchemaInfo;
      try {
        schema = await analyseSchema(connection.db, provider, target.database, now());
      } catch (error) {
        await connection.close().catch(() => undefined);
        throw populationErrors.create('DATABASE_UNREACHABLE', {
          provider,
          host: `${target.host}:${target.port}`,
          reason: `its schema could not be read (${(error as Error).message.split('\n')[0].slice(0, 200)})`,
        });
      }
      const previous = current;
      current = { connection, schema };
      await previous?.connection.close().catch(() => undefined);
      return current;
    },

    /** The connected database; 409 DATABASE_NOT_CONNECTED naming what the caller wanted to do. */
    require(action: string): ConnectedDatabase {
      if (!current) throw populationErrors.create('DATABASE_NOT_CONNECTED', { action });
      return current;
    },

    /** The connected database, if any. */
    peek(): ConnectedDatabase | undefined {
      return current;
    },

    /** Re-reads the schema (row counts change with every seed). */
    async refresh(): Promise<SchemaInfo> {
      const connected = this.require('read the schema');
      connected.schema = await analyseSchema(connected.connection.db, connected.schema.provider, connected.schema.database, now());
      return connected.schema;
    },

    /** Closes the connection (shutdown). */
    async close(): Promise<void> {
      await current?.connection.close().catch(() => undefined);
      current = undefined;
    },
  };
}

/** The session's type. */
export type DatabaseSession = ReturnType<typeof createDatabaseSession>;
