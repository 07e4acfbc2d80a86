/**
 * Entry of the HL7 v2 plugin: loads the HL7 profiles of the discovered packs (logging broken files, which never
 * stop the others from loading), registers the error catalogue, the adapter in the standards registry and the
 * message reader (HL7_MESSAGE_READER) in the container. Pool workers get the same adapter; broken profile files are
 * reported once, by the main thread.
 */
import type { PluginModule, WorkerPluginContext } from '../../kernel/plugin-api.ts';
import { provideService } from '../../kernel/service-ref.ts';
import { syntheticDataOf } from '../synthetic-data/api.ts';
import { hl7Errors } from './errors.ts';
import { createHl7Adapter } from './hl7-adapter.ts';
import { createHl7MessageReader, HL7_MESSAGE_READER } from './reading/hl7-message-reader.ts';
import { createHl7Reading } from './reading/hl7-message-reading.ts';
import { type Hl7ProfileSet, loadHl7Profiles } from './profiles/hl7-profiles.ts';

function registerAdapter(context: WorkerPluginContext, reportProblems: boolean): Hl7ProfileSet {
  const profiles = loadHl7Profiles(context.profiles);
  if (reportProblems) {
    for (const problem of profiles.problems) {
      context.logger.warn({ file: problem.file }, `HL7 profile file ${problem.file} was skipped: it ${problem.problem}.`);
    }
  }
  const synthetic = syntheticDataOf(context.container);
  const adapter = createHl7Adapter({ synthetic, profiles });
  // received files are read on the main thread when short and in a pool worker when long (a large batch file)
  context.standards.register({ ...adapter, reading: createHl7Reading(createHl7MessageReader(profiles)) });
  return profiles;
}

/** The plugin module the kernel loads. */
export const plugin: PluginModule = {
  register(context) {
    context.registerErrors(hl7Errors.catalogue);
    const profiles = registerAdapter(context, true);
    provideService(context.container, HL7_MESSAGE_READER, createHl7MessageReader(profiles));
  },
  registerWorker: (context) => {
    registerAdapter(context, false);
  },
};
