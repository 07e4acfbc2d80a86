/**
 * How tests start the `workbench` command as a child process: from the TypeScript sources (through tsx), so a test
 * always runs the code of the working tree, never a stale build. The compiled build has its own test
 * (test/kernel/compiled-build.test.ts).
 */
import { join } from 'node:path';
import { projectRoot } from '../../kernel/project-root.ts';

/** Node arguments that run the CLI from source; append the command's own arguments. */
export const sourceCliArgs: readonly string[] = ['--import', 'tsx', join(projectRoot, 'kernel', 'cli-main.ts')];
