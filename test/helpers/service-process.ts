/**
 * Helpers of tests that run the service as a real process (`workbench start`, `npm start`): a config file on
 * ephemeral ports with a throw-away data folder, the base addresses the service prints, and whether a port is free
 * again after it stopped.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A config file for a service process, in a temp folder that also holds its data folder. */
export function writeServiceConfig(extra: Record<string, unknown> = {}): { folder: string; configPath: string } {
  const folder = mkdtempSync(join(tmpdir(), 'wb-service-'));
  const configPath = join(folder, 'config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      dataDir: join(folder, 'data'),
      logging: { level: 'warn' },
      servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
      ...extra,
    }),
  );
  return { folder, configPath };
}

/** The base addresses a started service printed (`bridge   http://127.0.0.1:PORT  docs ...`). */
export function printedAddresses(output: string): Record<string, string> {
  return Object.fromEntries(
    [...output.matchAll(/^(bridge|monitor|population)\s+(http:\/\/\S+)/gm)].map((match) => [match[1], match[2]]),
  );
}

/** True when nothing listens on the loopback port any more. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
