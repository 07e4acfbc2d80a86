/**
 * Entry of the FHIR plugin: builds the FHIR R4 adapter over the synthetic-data service and the FHIR profile packs,
 * and registers it in the standards registry (the main thread's and each pool worker's). Definitions load on first
 * FHIR use, not here.
 */
import type { PluginModule, WorkerPluginContext } from '../../kernel/plugin-api.ts';
import { syntheticDataOf } from '../synthetic-data/api.ts';
import { fhirErrors } from './errors.ts';
import { createFhirAdapter } from './fhir-adapter.ts';
import { createFhirReading } from './fhir-message-reading.ts';

function buildAdapter(context: WorkerPluginContext): ReturnType<typeof createFhirAdapter> {
  return createFhirAdapter({
    synthetic: syntheticDataOf(context.container),
    profilePacks: context.profiles,
  });
}

/** The adapter with its reading capability (received files), over its own validation. */
function withReading<T extends ReturnType<typeof buildAdapter>>(adapter: T): T {
  return Object.assign(adapter, { reading: createFhirReading((content, options) => adapter.validate(content, options)) });
}

/** The plugin module the kernel loads. */
export const plugin: PluginModule = {
  register(context) {
    context.registerErrors(fhirErrors.catalogue);
    const adapter = buildAdapter(context);
    for (const { file, problem } of adapter.profileProblems()) {
      context.logger.warn({ file, problem }, `FHIR profile file ${file} was not loaded: ${problem}`);
    }
    // received files are read on the main thread when short and in a pool worker when long
    context.standards.register(withReading(adapter));
    context.logger.info({ profiles: adapter.profiles().length }, 'FHIR R4 adapter registered');
  },
  registerWorker(context) {
    const adapter = buildAdapter(context);
    context.standards.register(withReading(adapter));
    // A pool worker exists to do heavy work: it loads the R4 definitions and terminology now, so a pooled
    // validation's time budget is spent on the message, not on the first-use load.
    adapter.validate('{"resourceType":"Patient","id":"warm-up","gender":"unknown"}', { mode: 'strict' });
  },
};
