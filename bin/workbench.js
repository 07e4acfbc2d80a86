#!/usr/bin/env node
// Entry of the `workbench` command: registers the TypeScript loader, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../kernel/cli.ts');
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
