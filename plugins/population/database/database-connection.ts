/**
 * Opens a connected database through the Kysely dialect of its engine (pg, mysql2, or tedious with a tarn pool for
 * SQL Server), with connect and statement timeouts, and proves the connection with a first query. Failures
 * become one clear error naming the host and the reason, never the password. The engine's own pool stays reachable
 * for the fast load paths Kysely does not wrap (PostgreSQL COPY, SQL Server bulk load).
 */
import type { Kysely } from 'kysely';
import type { Pool as MysqlPool } from 'mysql2';
import type pg from 'pg';
import type { ConnectionConfiguration as TediousConfiguration } from 'tedious';
import type { ParsedConnection } from './connection-string.ts';
import { populationErrors } from '../errors.ts';
import { guardPostgresPool } from '../../../kernel/store/connection-loss.ts';

/** Timeouts of a connection, in milliseconds. */
export interface ConnectionTimeouts {
  connectMs: number;
  statementMs: number;
}

/** An open connection. */
export interface DatabaseConnection {
  readonly target: ParsedConnection;
  // the connected schema is only known at run time
  readonly db: Kysely<any>;
  /** The engine's pool, for COPY (postgres). */
  readonly pgPool?: pg.Pool;
  /** The engine's pool (mysql). */
  readonly mysqlPool?: MysqlPool;
  /** How to open one more tedious connection to the same server (sqlserver), for bulk load. */
  readonly sqlServerConfig?: TediousConfiguration;
  close(): Promise<void>;
}

/** The reason of a driver error, in words, with the password masked (see {@link maskPassword}). */
export function describeConnectionError(error: unknown, target: ParsedConnection): string {
  const e = error as { code?: string; errno?: number; message?: string; number?: number };
  const code = e.code ?? '';
  let reason: string;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(e.message ?? '')) reason = 'connection refused (is the server running and listening on that port?)';
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') reason = 'the host name could not be resolved';
  else if (code === 'ETIMEDOUT' || code === 'ETIMEOUT' || /timeout|timed out/i.test(e.message ?? '')) reason = 'no answer before the connect timeout';
  else if (code === '28P01' || code === '28000' || code === 'ER_ACCESS_DENIED_ERROR' || code === 'ELOGIN' || e.number === 18456) {
    reason = `the server refused the credentials of user "${target.user}" (wrong user name or password)`;
  } else if (code === '3D000' || code === 'ER_BAD_DB_ERROR') reason = `database "${target.database}" does not exist on that server`;
  else reason = (e.message ?? String(error)).split('\n')[0].slice(0, 300);
  return maskPassword(reason, target.password);
}

/** True when `char` may be part of a word (so a password found next to it is part of a longer word, not itself). */
function isWordCharacter(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_]/u.test(char);
}

/**
 * The text with the password masked where it stands as a password: the password field of a connection string
 * (`scheme://user:***@`, `password=***`) and the password's text where it stands alone, not inside a longer word
 * (the password `p` must not turn "unexpectedly" into "unex***ectedly").
 */
export function maskPassword(text: string, password: string | undefined): string {
  let masked = text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/\s@]*:)[^@\s]*@/gi, '$1***@')
    .replace(/\b(password|pwd)(\s*=\s*)[^;\s]*/gi, '$1$2***');
  if (!password) return masked;
  let from = 0;
  for (;;) {
    const at = masked.indexOf(password, from);
    if (at < 0) return masked;
    const end = at + password.length;
    if (!isWordCharacter(masked[at - 1]) && !isWordCharacter(masked[end])) {
      masked = `${masked.slice(0, at)}***${masked.slice(end)}`;
      from = at + 3;
    } else {
      from = at + 1;
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Builds the connection of the target's engine; each driver loads with its first connection, never at start. */
async function createConnection(target: ParsedConnection, timeouts: ConnectionTimeouts): Promise<DatabaseConnection> {
  const { Kysely, MssqlDialect, MysqlDialect, PostgresDialect } = await import('kysely');
  switch (target.provider) {
    case 'postgres': {
      const { default: pg } = await import('pg');
      const pool = new pg.Pool({
        host: target.host,
        port: target.port,
        user: target.user || undefined,
        password: target.password || undefined,
        database: target.database,
        max: 4,
        connectionTimeoutMillis: timeouts.connectMs,
        statement_timeout: timeouts.statementMs,
        ssl: target.options.sslmode === 'require' ? { rejectUnauthorized: false } : undefined,
      });
      // A client losing its server, idle or checked out for a seed's COPY, must not crash the process: the query in
      // flight fails, so the seed run ends failed and its transaction is rolled back by the server.
      guardPostgresPool(pool, () => undefined);
      const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
      return { target, db, pgPool: pool, close: () => db.destroy() };
    }
    case 'mysql': {
      const { createPool: createMysqlPool } = await import('mysql2');
      const pool = createMysqlPool({
        host: target.host,
        port: target.port,
        user: target.user || undefined,
        password: target.password || undefined,
        database: target.database,
        connectionLimit: 4,
        connectTimeout: timeouts.connectMs,
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: true,
      });
      // mysql2 listens once for a connection's fatal error; a second one (or one on a fresh connection) would throw.
      pool.on('connection', (connection) => {
        connection.on('error', () => undefined);
      });
      const db = new Kysely<any>({ dialect: new MysqlDialect({ pool }) });
      return { target, db, mysqlPool: pool, close: () => db.destroy() };
    }
    case 'sqlserver': {
      const [tarn, tedious] = await Promise.all([import('tarn'), import('tedious')]);
      const sqlServerConfig: TediousConfiguration = {
        server: target.host,
        authentication: { type: 'default', options: { userName: target.user, password: target.password } },
        options: {
          port: target.port,
          database: target.database,
          encrypt: target.options.encrypt === 'true',
          trustServerCertificate: target.options.trustServerCertificate !== 'false',
          connectTimeout: timeouts.connectMs,
          requestTimeout: timeouts.statementMs,
        },
      };
      const db = new Kysely<any>({
        dialect: new MssqlDialect({
          tarn: { ...tarn, options: { min: 0, max: 4, acquireTimeoutMillis: timeouts.connectMs } },
          tedious: { ...tedious, connectionFactory: () => new tedious.Connection(sqlServerConfig) },
        }),
      });
      return { target, db, sqlServerConfig, close: () => db.destroy() };
    }
  }
}

/** Opens and proves a connection; 502 DATABASE_UNREACHABLE naming host and reason when it cannot. */
export async function openDatabaseConnection(target: ParsedConnection, timeouts: ConnectionTimeouts): Promise<DatabaseConnection> {
  const connection = await createConnection(target, timeouts);
  try {
    const { sql } = await import('kysely');
    await withTimeout(sql`select 1 as ok`.execute(connection.db), timeouts.connectMs + 1000);
    return connection;
  } catch (error) {
    await withTimeout(connection.close(), 2000).catch(() => undefined);
    throw populationErrors.create('DATABASE_UNREACHABLE', {
      provider: target.provider,
      host: `${target.host}:${target.port}`,
      reason: describeConnectionError(error, target),
    });
  }
}
