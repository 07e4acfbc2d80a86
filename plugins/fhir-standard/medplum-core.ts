/**
 * @medplum/core, loaded on the first FHIR use rather than at boot (it is the largest module a command would otherwise
 * load for nothing). Everything in this plugin, and the FHIR benchmark, reaches it through this one accessor so all
 * share one module instance: the indexed StructureDefinitions live in that instance's state.
 */
import { createRequire } from 'node:module';

type MedplumCore = typeof import('@medplum/core');

const require = createRequire(import.meta.url);
let loaded: MedplumCore | undefined;

/** The @medplum/core module (CommonJS build), loaded once on first call. */
export function medplumCore(): MedplumCore {
  loaded ??= require('@medplum/core') as MedplumCore;
  return loaded;
}
