/**
 * Process entry of the `workbench` command: runs the CLI with the process arguments and sets the exit code.
 * `bin/workbench.js` imports its compiled form; development and tests run it from source
 * (`node --import tsx kernel/cli-main.ts ...`).
 */
import { runCli } from './cli.ts';

process.exitCode = await runCli(process.argv.slice(2));
