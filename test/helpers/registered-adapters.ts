/**
 * The standard adapters of a started test Workbench, with a throw-away folder beside them: for tests that drive an
 * engine with the real adapters (files to read, content to judge) without going through HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import type { StandardAdapter } from '../../kernel/standards-registry.ts';
import { startTestWorkbench, type TestWorkbench } from './test-workbench.ts';

/** A started Workbench's adapters and a folder, both gone after `stop()`. */
export interface RegisteredAdapters {
  wb: TestWorkbench;
  adapters: StandardAdapter[];
  /** A fresh folder under the system's temp folder. */
  dir: string;
  stop(): Promise<void>;
}

/** Starts a test Workbench and makes a folder named after `prefix`. */
export async function startRegisteredAdapters(prefix: string): Promise<RegisteredAdapters> {
  const wb = await startTestWorkbench();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    wb,
    adapters: resolveService(wb.workbench.container, TOKENS.Standards).list(),
    dir,
    async stop() {
      await wb.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
