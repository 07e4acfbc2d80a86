/**
 * Entry of the NCPDP plugin: loads the NCPDP profile packs (reporting broken files by name), takes the synthetic
 * data service from the container and registers the `ncpdp` adapter and the plugin's error catalogue.
 */
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { SYNTHETIC_DATA, type SyntheticDataService } from '../synthetic-data/api.ts';
import { ncpdpErrors } from './errors.ts';
import { createNcpdpAdapter } from './ncpdp-adapter.ts';
import { loadNcpdpProfiles } from './ncpdp-profiles.ts';

/** The plugin module the kernel loads. */
export const plugin: PluginModule = {
  register(context) {
    context.registerErrors(ncpdpErrors.catalogue);
    const { profiles, problems } = loadNcpdpProfiles(context.profiles);
    for (const { file, problem } of problems) {
      context.logger.warn({ file, problem }, `NCPDP profile file ${file} was skipped: ${problem}`);
    }
    const synthetic = context.container.resolve<SyntheticDataService>(SYNTHETIC_DATA);
    context.standards.register(createNcpdpAdapter({ synthetic, profiles }));
  },
};
