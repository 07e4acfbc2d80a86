/** The kernel's `workbench keys create|list|revoke` commands. */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import type { LoadedConfig } from '../config-loader.ts';
import type { Workbench } from '../workbench.ts';
import type { CliCommand } from '../plugin-api.ts';
import { resolveService } from '../service-ref.ts';
import { TOKENS } from '../tokens.ts';
import { MONITOR_ROLES, isMonitorRole } from '../auth/principal.ts';

/** Where the store is: the SQLite file in the data folder, or the configured PostgreSQL server (never its URL). */
export function describeStore(config: LoadedConfig): string {
  if (config.kernel.storage.url) return `PostgreSQL (storage.url); data folder ${config.dataDir}`;
  return join(config.dataDir, config.kernel.storage.sqliteFile);
}

/** Builds the key commands; `workbench` gives the booted Workbench when one runs (they load no plugin). */
export function createKeyCommands(workbench: () => Workbench): CliCommand[] {
  const store = () => resolveService(workbench().container, TOKENS.ApiKeys);
  return [
    {
      name: 'keys create',
      usage: 'keys create --role ROLE [--name NAME]',
      summary: 'make an API key (shown once; only its SHA-256 digest is stored)',
      async run(args, io) {
        const { values } = parseArgs({
          args,
          options: { role: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' } },
          strict: true,
        });
        if (!values.role) {
          io.err('keys create needs --role (for example --role MonitorAdmin).');
          return 2;
        }
        if (!isMonitorRole(values.role)) {
          io.err(`Unknown role "${values.role}"; valid roles: ${MONITOR_ROLES.join(', ')}.`);
          return 2;
        }
        const created = await store().create(values.role, values.name ?? 'api key');
        if (values.json) io.out(JSON.stringify(created));
        else {
          io.out(`Created API key ${created.prefix} (role ${created.role}) in ${describeStore(workbench().config)}.`);
          io.out('It is shown only this once:');
          io.out(created.key);
        }
        return 0;
      },
    },
    {
      name: 'keys list',
      usage: 'keys list [--json]',
      summary: 'list API keys (prefix, role, dates; never the secret)',
      async run(args, io) {
        const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true });
        const keys = await store().list();
        if (values.json) {
          io.out(JSON.stringify(keys));
          return 0;
        }
        io.out(`Keys in ${describeStore(workbench().config)}:`);
        if (keys.length === 0) io.out('No API keys.');
        for (const key of keys) {
          const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
          io.out(`${key.prefix}  ${key.role.padEnd(16)} ${key.name.padEnd(20)} created ${key.createdAt}  ${state}`);
        }
        return 0;
      },
    },
    {
      name: 'keys revoke',
      usage: 'keys revoke PREFIX',
      summary: 'revoke an API key by its prefix (wbk_...) or id',
      async run(args, io) {
        const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
        const target = positionals[0];
        if (!target) {
          io.err('keys revoke needs the key prefix, e.g. workbench keys revoke wbk_abc123def456.');
          return 2;
        }
        if (await store().revoke(target)) {
          io.out(`Revoked ${target}.`);
          return 0;
        }
        io.err(`No active API key ${target}.`);
        return 1;
      },
    },
  ];
}
