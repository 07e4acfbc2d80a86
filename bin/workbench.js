#!/usr/bin/env node
// Entry of the `workbench` command: runs the compiled CLI (`npm install` builds it; `npm run build` rebuilds it).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/kernel/cli-main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('The Workbench is not built yet: run `npm run build` (npm install does it) in its folder.\n');
  process.exit(2);
}
await import(entry.href);
