// tsyringe needs the Reflect metadata polyfill loaded before any decorated class.
import 'reflect-metadata';
import { afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The default data folder is the user's own (env-paths): tests that leave dataDir unset write to a throw-away one.
const userDataHome = mkdtempSync(join(tmpdir(), 'wb-xdg-data-'));
process.env.XDG_DATA_HOME = userDataHome;
afterAll(() => rmSync(userDataHome, { recursive: true, force: true }));
