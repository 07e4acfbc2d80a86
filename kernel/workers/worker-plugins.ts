/**
 * Boots, inside one worker thread, the plugins whose manifest says `"worker": true`: their modules are imported
 * again (a thread shares no objects with the main thread) and each `registerWorker(context)` registers its adapters
 * in the thread's own standards registry. The main thread resolved which plugins are on and in what order; the
 * worker follows that list, so both sides always hold the same set.
 */
import 'reflect-metadata';
import { threadId } from 'node:worker_threads';
import { container as rootContainer } from 'tsyringe';
import { createLogger } from '../logger.ts';
import { loadPluginModules } from '../plugin-host/plugin-loader.ts';
import { StandardsRegistry } from '../standards-registry.ts';
import { systemClock } from '../clock.ts';
import type { WorkerBootData } from './pool-protocol.ts';

/** Registers the worker plugins of `boot` and returns the thread's standards registry. */
export async function bootWorkerPlugins(boot: WorkerBootData): Promise<StandardsRegistry> {
  const logger = createLogger({ level: boot.logLevel }).child({ workerThread: threadId });
  const loaded = await loadPluginModules(boot.plugins, boot.sections);
  const container = rootContainer.createChildContainer();
  const standards = new StandardsRegistry();
  for (const plugin of loaded) {
    const { id } = plugin.manifest;
    try {
      await plugin.module.registerWorker?.({
        manifest: plugin.manifest,
        config: plugin.config,
        container,
        logger: logger.child({ plugin: id }),
        standards,
        clock: systemClock,
        profiles: boot.profiles,
        directory: plugin.directory,
      });
    } catch (error) {
      throw new Error(`Plugin "${id}" failed to initialise in a worker thread: ${(error as Error).message}`, { cause: error });
    }
  }
  return standards;
}
