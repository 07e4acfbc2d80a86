/**
 * Entry of the FHIR plugin: builds the FHIR R4 adapter over the synthetic-data service and the FHIR profile packs,
 * and registers it in the standards registry. Definitions load on first FHIR use, not here.
 */
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { SYNTHETIC_DATA, type SyntheticDataService } from '../synthetic-data/api.ts';
import { fhirErrors } from './errors.ts';
import { createFhirAdapter } from './fhir-adapter.ts';

/** The plugin module the kernel loads. */
export const plugin: PluginModule = {
  register(context) {
    context.registerErrors(fhirErrors.catalogue);
    const adapter = createFhirAdapter({
      synthetic: context.container.resolve<SyntheticDataService>(SYNTHETIC_DATA),
      profilePacks: context.profiles,
    });
    for (const { file, problem } of adapter.profileProblems()) {
      context.logger.warn({ file, problem }, `FHIR profile file ${file} was not loaded: ${problem}`);
    }
    context.standards.register(adapter);
    context.logger.info({ profiles: adapter.profiles().length }, 'FHIR R4 adapter registered');
  },
};
