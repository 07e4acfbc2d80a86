/**
 * A PostgreSQL server of the test's own: a fresh cluster (initdb) in a temp folder, listening on a free loopback
 * port, that the test may stop and start again at will (an outage) without touching the machine's own server. The
 * server never runs as root: under root the binaries run as the `postgres` user (runuser). Found by
 * `WORKBENCH_TEST_PG_BIN` or the usual Debian folder; {@link ownPostgresMissing} says why not when it cannot run.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const binCandidates = [process.env.WORKBENCH_TEST_PG_BIN, '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];
const pgBin = binCandidates.find((folder): folder is string => !!folder && existsSync(join(folder, 'initdb')));

/** Why an own server cannot run here (no binaries, or root without a `postgres` user), or undefined when it can. */
export function ownPostgresMissing(): string | undefined {
  if (!pgBin) return 'no PostgreSQL server binaries (initdb, pg_ctl) were found; set WORKBENCH_TEST_PG_BIN';
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) {
    return 'running as root without runuser to start the server as the postgres user';
  }
  return undefined;
}

/** A running (or stopped) own server. */
export interface OwnPostgres {
  /** URL of its `postgres` database as the `postgres` superuser (trust authentication on loopback). */
  readonly url: string;
  readonly port: number;
  /** Stops the server: `fast` ends sessions cleanly, `immediate` drops them like a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediately) and removes its folder. */
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs one server binary, as the postgres user when this process is root (the server refuses root). */
async function pgCommand(binary: string, args: string[]): Promise<string> {
  const path = join(pgBin ?? '', binary);
  const [command, fullArgs] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  const { stdout } = await run(command, fullArgs, { timeout: 60_000 });
  return stdout;
}

/** Creates and starts a cluster of its own; the caller destroys it. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const missing = ownPostgresMissing();
  if (missing) throw new Error(missing);
  // The server's user must reach its folder: a test run's private temp folder (0700, root's) is out of its reach.
  const folder = mkdtempSync(join(process.getuid?.() === 0 ? '/tmp' : tmpdir(), 'wb-own-pg-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(folder, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(folder, 'data');
  // No fsync: the cluster is thrown away; what is tested is losing the connection, not the disk.
  await pgCommand('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  let running = false;
  const server: OwnPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await pgCommand('pg_ctl', ['-D', data, '-o', options, '-l', join(folder, 'server.log'), '-w', '-t', '60', 'start']);
      running = true;
    },
    async stop(mode = 'fast') {
      if (!running) return;
      await pgCommand('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async destroy() {
      await server.stop('immediate').catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await server.start();
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return server;
}
