/**
 * Entry of the synthetic-data plugin: registers the shared synthetic person/clinician service in the container so
 * every generator draws from the same never-real sources, on the main thread and in each pool worker.
 */
import type { PluginModule, WorkerPluginContext } from '../../kernel/plugin-api.ts';
import { provideService } from '../../kernel/service-ref.ts';
import { SYNTHETIC_DATA, syntheticDataErrors } from './api.ts';
import { createSyntheticDataService } from './synthetic-random.ts';

function registerService(context: WorkerPluginContext): void {
  provideService(context.container, SYNTHETIC_DATA, createSyntheticDataService());
}

/** The plugin module the kernel loads. */
export const plugin: PluginModule = {
  register(context) {
    context.registerErrors(syntheticDataErrors.catalogue);
    registerService(context);
  },
  registerWorker: registerService,
};
