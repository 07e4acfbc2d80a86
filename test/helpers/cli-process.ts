/**
 * How tests start the `workbench` command as a child process: from the TypeScript sources (through tsx), so a test
 * always runs the code of the working tree, never a stale build. The compiled build has its own test
 * (test/kernel/compiled-build.test.ts).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../kernel/project-root.ts';

// By absolute address, so the child may run in any working directory.
const tsxLoader = pathToFileURL(join(projectRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** Node arguments that run the CLI from source; append the command's own arguments. */
export const sourceCliArgs: readonly string[] = ['--import', tsxLoader, join(projectRoot, 'kernel', 'cli-main.ts')];
