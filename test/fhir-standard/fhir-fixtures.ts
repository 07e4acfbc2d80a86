/**
 * Shared fixtures of the FHIR tests: one adapter per test file (the R4 definitions load once per process), the
 * shipped us-core-lite pack, and small resources to mutate.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverProfilePacks } from '../../kernel/standards/profile-packs.ts';
import { type FhirAdapter, createFhirAdapter } from '../../plugins/fhir-standard/fhir-adapter.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';

/** Root of the project. */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

let adapter: FhirAdapter | undefined;

/** The adapter over the shipped profile packs and the real synthetic-data service. */
export function testAdapter(): FhirAdapter {
  if (!adapter) {
    const { packs } = discoverProfilePacks([resolve(projectRoot, 'profiles')]);
    adapter = createFhirAdapter({ synthetic: createSyntheticDataService(), profilePacks: packs });
  }
  return adapter;
}

/** A small valid Patient. */
export function patient(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resourceType: 'Patient',
    id: 'p1',
    identifier: [{ system: 'urn:oid:2.16.840.1.113883.3.9999.1', value: 'MRN123' }],
    name: [{ family: 'Testperson', given: ['Alex', 'J'] }],
    gender: 'female',
    birthDate: '1980-02-29',
    ...overrides,
  };
}

/** JSON text of a resource. */
export function json(resource: unknown): string {
  return JSON.stringify(resource);
}
