/**
 * Process entry of the `workbench` command: runs the CLI with the process arguments and sets the exit code.
 * `bin/workbench.js` imports its compiled form; development and tests run it from source
 * (`node --import tsx kernel/cli-main.ts ...`). `start` serves requests, which wants V8 flags given at process start
 * (kernel/v8-flags.ts): a process started without them runs `start` again in a child started with them.
 */
import { extractConfigFlag, runCli } from './cli.ts';
import { loadConfig } from './config-loader.ts';
import { missingV8Flags, runAgainWithV8Flags, serviceV8Flags, startedWithV8Flags } from './v8-flags.ts';

/** The V8 flags `start` wants and this process lacks; none for other commands, or when the config does not load. */
function flagsToAdd(argv: string[]): string[] {
  const { configPath, rest } = extractConfigFlag(argv);
  if (rest[0] !== 'start' || rest.length !== 1) return [];
  try {
    return missingV8Flags(serviceV8Flags(loadConfig({ configPath }).kernel.work.heapGrowthPercent));
  } catch {
    return []; // the CLI reports the config's problems itself
  }
}

const argv = process.argv.slice(2);
const flags = startedWithV8Flags() ? [] : flagsToAdd(argv);
process.exitCode = flags.length > 0 ? await runAgainWithV8Flags(flags) : await runCli(argv);
