/**
 * Adapters and a de-identifier for engine tests, without a server: the shipped standard adapters (the same the
 * service registers) and a service keyed by a fixed test key.
 */
import { resolve } from 'node:path';
import { StandardsRegistry } from '../../kernel/standards-registry.ts';
import { discoverProfilePacks } from '../../kernel/standards/profile-packs.ts';
import { createHl7Adapter } from '../../plugins/hl7-standard/hl7-adapter.ts';
import { loadHl7Profiles } from '../../plugins/hl7-standard/profiles/hl7-profiles.ts';
import { createFhirAdapter } from '../../plugins/fhir-standard/fhir-adapter.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { loadNcpdpProfiles } from '../../plugins/ncpdp-standard/ncpdp-profiles.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { createDeidentifier } from '../../plugins/deidentify/deidentifier.ts';
import type { DeidentifyService } from '../../plugins/deidentify/api.ts';
import { loadZSegmentTypes } from '../../plugins/deidentify/standards/z-segment-types.ts';

/** A registry with the HL7, FHIR and NCPDP adapters and the shipped profile packs. */
export function createStandards(): StandardsRegistry {
  const packs = discoverProfilePacks([resolve(import.meta.dirname, '..', '..', 'profiles')]).packs;
  const synthetic = createSyntheticDataService();
  const registry = new StandardsRegistry();
  registry.register(createHl7Adapter({ synthetic, profiles: loadHl7Profiles(packs) }));
  registry.register(createFhirAdapter({ profilePacks: packs, synthetic }));
  registry.register(createNcpdpAdapter({ synthetic, profiles: loadNcpdpProfiles(packs).profiles }));
  return registry;
}

/** A de-identifier with a fixed key (or the given one) and the shipped packs' Z-segment definitions. */
export function createTestDeidentifier(standards: StandardsRegistry, key = Buffer.alloc(32, 7)): DeidentifyService {
  const packs = discoverProfilePacks([resolve(import.meta.dirname, '..', '..', 'profiles')]).packs;
  return createDeidentifier(standards, () => key, loadZSegmentTypes(packs));
}
