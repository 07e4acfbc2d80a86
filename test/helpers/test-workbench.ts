/**
 * Boots a real Workbench on ephemeral loopback ports with a throw-away data directory, for tests that drive the
 * HTTP interface. Each call gets its own container, database and ports; `stop()` releases them.
 */
import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorkbench, type Workbench, type WorkbenchOptions } from '../../kernel/workbench.ts';
import type { BaseName } from '../../kernel/plugin-host/plugin-manifest.ts';
import { mergeConfig } from '../../kernel/config-loader.ts';
import { send, type TestRequest, type TestResponse } from './http-client.ts';

/** Folder of test fixtures. */
export const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** A running test instance. */
export interface TestWorkbench {
  workbench: Workbench;
  urls: Record<BaseName, string>;
  dataDir: string;
  /** Sends a request to one base. */
  call(base: BaseName, request: TestRequest): Promise<TestResponse>;
  stop(): Promise<void>;
}

/** Options: anything createWorkbench takes, plus config overrides merged over the test defaults. */
export interface TestWorkbenchOptions extends Omit<WorkbenchOptions, 'overrides'> {
  config?: Record<string, unknown>;
}

/**
 * Config every test instance starts from: ephemeral ports, silent logs, temp data dir, and pool workers booted only
 * when a test sends large input (most never do).
 */
function testConfig(dataDir: string): Record<string, unknown> {
  return {
    dataDir,
    logging: { level: 'silent' },
    work: { warmOnStart: false },
    servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
  };
}

/** Boots and starts a Workbench for a test. */
export async function startTestWorkbench(options: TestWorkbenchOptions = {}): Promise<TestWorkbench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'workbench-test-'));
  const { config, ...rest } = options;
  const workbench = await createWorkbench({
    env: {},
    // Every answer of every test is checked against its route's declared response schema.
    checkResponses: true,
    ...rest,
    overrides: mergeConfig(testConfig(dataDir), config ?? {}),
  });
  const urls = await workbench.start();
  return {
    workbench,
    urls,
    dataDir,
    call: (base, request) => send(urls[base], request),
    async stop() {
      await workbench.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One Workbench for the tests of a file (or of a `describe`, where it is called): started before them, stopped after
 * them. Call it where `beforeAll` may be called; the answer stands for the started Workbench once the tests run.
 */
export function useTestWorkbench(options: TestWorkbenchOptions = {}, startTimeoutMs?: number): TestWorkbench {
  let started: TestWorkbench | undefined;
  beforeAll(async () => {
    started = await startTestWorkbench(options);
  }, startTimeoutMs);
  afterAll(async () => {
    await started?.stop();
    started = undefined;
  });
  const current = (): TestWorkbench => {
    if (!started) throw new Error('useTestWorkbench(): the Workbench is used outside the tests it was started for');
    return started;
  };
  return {
    get workbench() {
      return current().workbench;
    },
    get urls() {
      return current().urls;
    },
    get dataDir() {
      return current().dataDir;
    },
    call: (base, request) => current().call(base, request),
    async stop() {
      await current().stop();
      started = undefined;
    },
  };
}
