/**
 * Parsing of database connection strings. The parsed form keeps the password apart so that everything else (the
 * label used in messages, the key naming the database in stored manifests) is built without it. Accepted forms:
 * URLs (`postgres://user:pass@host:5432/db`, `mysql://…`, `mariadb://…`, `sqlserver://…`, `mssql://…`) and, for
 * SQL Server, the ADO.NET form (`Server=host,1433;Database=db;User Id=sa;Password=…`).
 */
import { createHash } from 'node:crypto';
import { populationErrors } from '../errors.ts';
import type { Provider } from '../output/sql-dialect.ts';

/** A parsed connection string. */
export interface ParsedConnection {
  provider: Provider;
  host: string;
  port: number;
  database: string;
  user: string;
  /** Kept only in memory, for the driver. */
  password: string;
  /** Extra options (SQL Server `encrypt`, `trustServerCertificate`). */
  options: Record<string, string>;
  /** `provider://host:port/database`: safe to show and log. */
  label: string;
  /** SHA-256 of provider, host, port and database: names the database in stored manifests. */
  key: string;
}

const SCHEMES: Record<Provider, string[]> = {
  postgres: ['postgres:', 'postgresql:'],
  mysql: ['mysql:', 'mariadb:'],
  sqlserver: ['sqlserver:', 'mssql:'],
};
const DEFAULT_PORTS: Record<Provider, number> = { postgres: 5432, mysql: 3306, sqlserver: 1433 };

function invalid(provider: Provider, reason: string): never {
  throw populationErrors.create('CONNECTION_STRING_INVALID', { provider, reason });
}

function finish(provider: Provider, fields: Omit<ParsedConnection, 'label' | 'key' | 'provider'>): ParsedConnection {
  if (!fields.host) invalid(provider, 'it names no host');
  if (!fields.database) invalid(provider, 'it names no database');
  if (!Number.isInteger(fields.port) || fields.port < 1 || fields.port > 65_535) invalid(provider, 'its port is not a number from 1 to 65535');
  const label = `${provider}://${fields.host}:${fields.port}/${fields.database}`;
  const key = createHash('sha256').update(`${provider}|${fields.host.toLowerCase()}|${fields.port}|${fields.database}`).digest('hex');
  return { provider, ...fields, label, key };
}

function parseAdo(text: string): ParsedConnection {
  const pairs = new Map<string, string>();
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    pairs.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  const server = (pairs.get('server') ?? pairs.get('data source') ?? '').replace(/^tcp:/i, '');
  const [host, port] = server.split(',');
  return finish('sqlserver', {
    host: host ?? '',
    port: port ? Number(port) : DEFAULT_PORTS.sqlserver,
    database: pairs.get('database') ?? pairs.get('initial catalog') ?? '',
    user: pairs.get('user id') ?? pairs.get('uid') ?? pairs.get('user') ?? '',
    password: pairs.get('password') ?? pairs.get('pwd') ?? '',
    options: {
      encrypt: pairs.get('encrypt') ?? 'false',
      trustServerCertificate: pairs.get('trustservercertificate') ?? 'true',
    },
  });
}

/** Parses a connection string for a provider; 400 CONNECTION_STRING_INVALID naming what is wrong (never echoing it). */
export function parseConnectionString(provider: Provider, text: string): ParsedConnection {
  const trimmed = text.trim();
  if (provider === 'sqlserver' && !/^[a-z]+:\/\//i.test(trimmed) && /server\s*=|data source\s*=/i.test(trimmed)) return parseAdo(trimmed);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return invalid(provider, `it is not a URL such as ${SCHEMES[provider][0]}//user:password@host:${DEFAULT_PORTS[provider]}/database`);
  }
  if (!SCHEMES[provider].includes(url.protocol)) {
    invalid(provider, `its scheme "${url.protocol}" does not match provider ${provider} (expected ${SCHEMES[provider].join(' or ')})`);
  }
  const options: Record<string, string> = {};
  for (const [name, value] of url.searchParams) options[name] = value;
  return finish(provider, {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : DEFAULT_PORTS[provider],
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    options,
  });
}
