/**
 * How tests start the `workbench` command as a child process: from the TypeScript sources (through tsx), so a test
 * always runs the code of the working tree, never a stale build. The compiled build has its own test
 * (test/kernel/compiled-build.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../kernel/project-root.ts';
import { serviceV8Flags } from '../../kernel/v8-flags.ts';
import { kernelConfigSchema } from '../../kernel/config-schema.ts';

// By absolute address, so the child may run in any working directory.
const tsxLoader = pathToFileURL(join(projectRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** Node arguments that run the CLI from source; append the command's own arguments. */
export const sourceCliArgs: readonly string[] = ['--import', tsxLoader, join(projectRoot, 'kernel', 'cli-main.ts')];

/**
 * Node arguments that run the CLI from source with the service's V8 flags given (the default heap growth), so
 * `start` serves in this very process instead of starting a child with them (kernel/v8-flags.ts): for callers that
 * measure the service's process or kill it with SIGKILL, which a starting process could not pass on.
 */
export const serviceCliArgs: readonly string[] = [...serviceV8Flags(kernelConfigSchema.parse({}).work.heapGrowthPercent), ...sourceCliArgs];

/** One finished run of the CLI: its exit code (null when it was killed) and what it wrote to each stream. */
export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/**
 * Runs the CLI from source to its end with `dataDir` as its data folder and logging silenced. A run over a minute is
 * killed (its code is then null), so a command that hangs fails its test instead of holding the suite.
 */
export function runCli(dataDir: string, ...args: string[]): CliRun {
  const result = spawnSync(process.execPath, [...sourceCliArgs, ...args], {
    env: { ...process.env, WORKBENCH_DATA_DIR: dataDir, WORKBENCH_LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** Writes `content` to the file `name` in `dir` and answers its path (the input files of CLI tests). */
export function writeInputFile(dir: string, name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
