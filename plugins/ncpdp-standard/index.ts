/**
 * Entry of the NCPDP plugin: loads the NCPDP profile packs (reporting broken files by name), takes the synthetic
 * data service from the container and registers the `ncpdp` adapter and the plugin's error catalogue. Pool workers
 * get the same adapter; broken profile files are reported once, by the main thread.
 */
import type { PluginModule, WorkerPluginContext } from '../../kernel/plugin-api.ts';
import { syntheticDataOf } from '../synthetic-data/api.ts';
import { ncpdpErrors } from './errors.ts';
import { createNcpdpReading } from './ncpdp-message-reading.ts';
import { createNcpdpAdapter } from './ncpdp-adapter.ts';
import { loadNcpdpProfiles } from './ncpdp-profiles.ts';

function registerAdapter(context: WorkerPluginContext, reportProblems: boolean): void {
  const { profiles, problems } = loadNcpdpProfiles(context.profiles);
  if (reportProblems) {
    for (const { file, problem } of problems) {
      context.logger.warn({ file, problem }, `NCPDP profile file ${file} was skipped: ${problem}`);
    }
  }
  const synthetic = syntheticDataOf(context.container);
  const adapter = createNcpdpAdapter({ synthetic, profiles });
  // received files are read on the main thread when short and in a pool worker when long
  context.standards.register({ ...adapter, reading: createNcpdpReading((content, options) => adapter.validate(content, options)) });
}

/** The plugin module the kernel loads. */
export const plugin: PluginModule = {
  register(context) {
    context.registerErrors(ncpdpErrors.catalogue);
    registerAdapter(context, true);
  },
  registerWorker: (context) => registerAdapter(context, false),
};
