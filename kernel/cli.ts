/**
 * The `workbench` command line: `start`, `keys create|list|revoke`, and every subcommand plugins add
 * (`validate`, `diff`, `generate`, ...). `--config PATH` works with every command.
 */
import type { Workbench, WorkbenchOptions } from './workbench.ts';
import { createKeyCommands, describeStore } from './commands/cli-keys.ts';
import { createErrorsCommand } from './commands/cli-errors.ts';
import type { CliCommand, CliIo } from './plugin-api.ts';
import { ConfigError } from './config-loader.ts';
import { PluginSetError } from './plugin-host/plugin-manifest.ts';
import { readPluginSet, type PluginSet } from './plugin-host/plugin-set.ts';

/** Shutdown budget: everything closes within this, or the process exits anyway. */
const SHUTDOWN_BUDGET_MS = 5_000;

const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** Splits `--config PATH` (or `--config=PATH`) out of the arguments. */
export function extractConfigFlag(args: string[]): { configPath?: string; rest: string[] } {
  const rest: string[] = [];
  let configPath: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--config') configPath = args[++i];
    else if (arg.startsWith('--config=')) configPath = arg.slice('--config='.length);
    else rest.push(arg);
  }
  return { configPath, rest };
}

/** Longest usage that still shares a line with its summary; longer ones put the summary on the next line. */
const HELP_USAGE_WIDTH = 46;

/** The help text: every command, usage and summary in two aligned columns. */
export function helpText(commands: Iterable<CliCommand>): string {
  const rows = [
    { usage: 'start', summary: 'serve bridge, monitor and population on loopback (prints the data folder)' },
    { usage: 'help', summary: 'list every command (this text); `workbench COMMAND --help` for one' },
    ...[...commands].sort((a, b) => a.name.localeCompare(b.name)),
  ];
  const width = Math.max(...rows.map((row) => row.usage.length).filter((length) => length <= HELP_USAGE_WIDTH));
  const lines = ['Healthcare Integration Workbench', '', 'Usage: workbench <command> [options] [--config PATH]', '', 'Commands:'];
  for (const { usage, summary } of rows) {
    if (usage.length <= width) lines.push(`  ${usage.padEnd(width)}  ${summary}`);
    else lines.push(`  ${usage}`, `  ${' '.repeat(width)}  ${summary}`);
  }
  lines.push(
    '',
    'Environment: WORKBENCH_CONFIG, WORKBENCH_DATA_DIR, WORKBENCH_*_PORT, WORKBENCH_TIER, WORKBENCH_STORAGE_URL,',
    '             WORKBENCH_LOG_LEVEL, WORKBENCH_JWT_SECRET',
  );
  return lines.join('\n');
}

/** Boots a Workbench; the kernel (and the web framework with it) loads only when a command needs it. */
async function boot(options: WorkbenchOptions): Promise<Workbench> {
  await import('reflect-metadata');
  const { createWorkbench } = await import('./workbench.ts');
  return createWorkbench(options);
}

async function runStart(configPath: string | undefined, io: CliIo): Promise<number> {
  const workbench = await boot({ configPath });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    workbench.logger.info(`${signal} received, shutting down`);
    const force = setTimeout(() => {
      io.err(`Shutdown took over ${SHUTDOWN_BUDGET_MS} ms; exiting.`);
      process.exit(1);
    }, SHUTDOWN_BUDGET_MS);
    force.unref();
    workbench
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        io.err(`Shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      });
  };
  // Handlers go in before anything is printed: whoever reads the addresses may signal at once.
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  const urls = await workbench.start();
  for (const [base, url] of Object.entries(urls)) io.out(`${base.padEnd(10)} ${url}  docs ${url}/docs`);
  io.out(`${'data'.padEnd(10)} ${workbench.config.dataDir}  ${workbench.config.kernel.storage.url ? 'database PostgreSQL (storage.url)' : `database ${describeStore(workbench.config)}`}`);
  io.out('Press Ctrl+C to stop.');
  return new Promise<number>(() => {});
}

/** A command as the catalogue knows it before anything boots, with the plugin that supplies it. */
interface CatalogueEntry {
  command: CliCommand;
  /** Id of the plugin that declares it; undefined for the kernel's own commands. */
  owner?: string;
}

/**
 * Every command: the kernel's and those the enabled plugins' manifests declare. Nothing is imported for it, so
 * `help` is instant; a plugin's command gets its `run` once its plugin is booted.
 */
function commandCatalogue(set: PluginSet, booted: () => Workbench): Map<string, CatalogueEntry> {
  const catalogue = new Map<string, CatalogueEntry>();
  for (const command of [...createKeyCommands(booted), createErrorsCommand(booted)]) catalogue.set(command.name, { command });
  for (const plugin of set.ordered) {
    for (const declared of plugin.manifest.commands) {
      const run: CliCommand['run'] = (args, io) => {
        const supplied = booted().commands.get(declared.name);
        if (!supplied) throw new Error(`Plugin "${plugin.manifest.id}" did not supply the command "${declared.name}".`);
        return supplied.run(args, io);
      };
      catalogue.set(declared.name, { command: { ...declared, run }, owner: plugin.manifest.id });
    }
  }
  return catalogue;
}

/**
 * The plugins a command loads: for a plugin's command, that plugin, the plugins its manifest says it loads too, and
 * the engine plugins (`worker: true`: the standards and the synthetic-data source) with what they require; every
 * plugin for the kernel's commands (`errors` lists every catalogue, and plugins such as the audit trail record what
 * `keys` changes).
 */
function pluginsFor(entry: CatalogueEntry, set: PluginSet): ReadonlySet<string> | undefined {
  if (entry.owner === undefined) return undefined;
  return new Set([
    entry.owner,
    ...(entry.command.loads ?? []),
    ...set.ordered.filter((plugin) => plugin.manifest.worker).map((plugin) => plugin.manifest.id),
  ]);
}

/** Runs the CLI with the given arguments; resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const { configPath, rest } = extractConfigFlag(argv);
  const [first, second] = rest;
  let workbench: Workbench | undefined;
  try {
    if (first === 'start') return await runStart(configPath, io);
    const set = await readPluginSet({ configPath });
    const catalogue = commandCatalogue(set, () => {
      if (!workbench) throw new Error('The Workbench is not booted.');
      return workbench;
    });
    const commands = [...catalogue.values()].map((entry) => entry.command);
    if (!first || first === 'help' || first === '--help' || first === '-h') {
      io.out(helpText(commands));
      return first ? 0 : 2;
    }
    const entry = (second ? catalogue.get(`${first} ${second}`) : undefined) ?? catalogue.get(first);
    if (!entry) {
      io.err(`Unknown command "${rest.slice(0, 2).join(' ')}".\n\n${helpText(commands)}`);
      return 2;
    }
    const { command } = entry;
    const args = rest.slice(command.name.split(' ').length);
    if (args.includes('--help') || args.includes('-h')) {
      io.out(`Usage: workbench ${command.usage}\n${command.summary}`);
      return 0;
    }
    // One-shot commands log only warnings and errors (to stderr), so their output stays readable and pipeable.
    const { default: pino } = await import('pino');
    workbench = await boot({
      configPath,
      serve: false,
      onlyPlugins: pluginsFor(entry, set),
      logDestination: pino.destination(2),
      overrides: { logging: { level: process.env.WORKBENCH_LOG_LEVEL ?? 'warn' } },
    });
    if (command.usesStorage !== false) await workbench.openStorage();
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PluginSetError) io.err(error.message);
    else io.err(`Error: ${(error as Error).message}`);
    return error instanceof ConfigError || error instanceof PluginSetError ? 78 : 1;
  } finally {
    await workbench?.stop();
  }
}
