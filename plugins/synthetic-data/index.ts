/**
 * Entry of the synthetic-data plugin: registers the shared synthetic person/clinician service in the container so
 * every generator draws from the same never-real sources.
 */
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { SYNTHETIC_DATA } from './api.ts';
import { createSyntheticDataService } from './synthetic-random.ts';

/** The plugin module the kernel loads. */
export const plugin: PluginModule = {
  register(context) {
    context.container.registerInstance(SYNTHETIC_DATA, createSyntheticDataService());
  },
};
