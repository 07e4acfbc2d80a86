/**
 * A Workbench for a bench: booted in a throw-away folder with every base server on an ephemeral port and logging at
 * errors only (a bench measures the work, not the log), removed again with its folder by `stop()`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench, type Workbench } from '../kernel/workbench.ts';
import { send } from '../test/helpers/http-client.ts';

/** A started bench Workbench, its base URLs and its folder (the data folder is `data` below it). */
export interface BenchWorkbench {
  workbench: Workbench;
  urls: Awaited<ReturnType<Workbench['start']>>;
  /** The throw-away folder: room for watched folders beside the data folder. */
  dir: string;
  /** Stops the Workbench and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Boots and starts a Workbench in a new folder under the system's temp folder named after `prefix`; `plugins` are
 * the plugin config sections of the bench (the monitor's timings, mostly).
 */
export async function startBenchWorkbench(prefix: string, plugins: Record<string, unknown>): Promise<BenchWorkbench> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  let workbench: Workbench;
  try {
    workbench = await createWorkbench({
      env: {},
      overrides: {
        dataDir: join(dir, 'data'),
        logging: { level: 'error' },
        servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
        plugins,
      },
    });
  } catch (error) {
    remove();
    throw error;
  }
  const stop = async () => {
    try {
      await workbench.stop();
    } finally {
      remove();
    }
  };
  try {
    const urls = await workbench.start();
    return { workbench, urls, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Creates `count` monitor interfaces named `Feed 00`, `Feed 01`, ... over empty folders under the bench's folder,
 * watching a pattern no file matches (the benches store their messages directly); answers their ids in order.
 */
export async function createIdleInterfaces(bench: BenchWorkbench, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const folder = join(bench.dir, `feed-${i}`);
    mkdirSync(folder);
    const response = await send(bench.urls.monitor, {
      method: 'POST',
      path: '/api/monitor/interfaces',
      body: { name: `Feed ${String(i).padStart(2, '0')}`, directoryPath: folder, filePattern: '*.none' },
    });
    const created = response.json as { data: { id: string } | null; error: unknown };
    if (!created.data) throw new Error(`interface not created: ${JSON.stringify(created.error)}`);
    ids.push(created.data.id);
  }
  return ids;
}
