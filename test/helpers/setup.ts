// tsyringe needs the Reflect metadata polyfill loaded before any decorated class.
import 'reflect-metadata';
import { afterAll } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Every temporary folder a test file (or a process it starts) makes goes under one folder of its own, removed when
// the file's tests are done: os.tmpdir() follows TMPDIR, so tests need no clean-up code of their own to leave nothing.
const originalTmpdir = process.env.TMPDIR;
const fileTemp = mkdtempSync(join(tmpdir(), 'wb-test-'));
process.env.TMPDIR = fileTemp;

// The default data folder is the user's own (env-paths): tests that leave dataDir unset write to a throw-away one.
process.env.XDG_DATA_HOME = join(fileTemp, 'xdg-data');
mkdirSync(process.env.XDG_DATA_HOME);

afterAll(() => {
  if (originalTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmpdir;
  rmSync(fileTemp, { recursive: true, force: true });
});
