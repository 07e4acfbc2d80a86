/**
 * Picks the adapter for a request: the one named by `standard`, or the one that detects the content. The bridge
 * branches on nothing else: every standard is reached through the same adapter contract.
 */
import type { StandardAdapter, StandardsRegistry } from '../../kernel/standards-registry.ts';
import { bridgeErrors } from './errors.ts';
import { kernelErrors } from '../../kernel/errors.ts';

function registeredIds(registry: StandardsRegistry): string {
  return registry.list().map((adapter) => adapter.id).join(', ') || 'none';
}

/** The adapter named `standard`; 400 UNKNOWN_STANDARD when none has that id. */
export function adapterById(registry: StandardsRegistry, standard: string): StandardAdapter {
  const adapter = registry.get(standard);
  if (!adapter) throw bridgeErrors.create('UNKNOWN_STANDARD', { standard, standards: registeredIds(registry) });
  return adapter;
}

/** The adapter for content: named, else detected; 400 STANDARD_NOT_DETECTED naming the field otherwise. */
export function selectAdapter(
  registry: StandardsRegistry,
  standard: string | undefined,
  content: string,
  field: string,
): StandardAdapter {
  if (standard) return adapterById(registry, standard);
  const detected = registry.detect(content);
  if (!detected) throw bridgeErrors.create('STANDARD_NOT_DETECTED', { field, standards: registeredIds(registry) });
  return detected;
}

/**
 * The adapter for a diff: named, else detected from both sides; 400 STANDARDS_DIFFER when the two sides look like
 * different standards. The API and the CLI both use it, so they answer a diff alike; each names the two sides its
 * own way (`leftMessage` in the API, `LEFT (a.hl7)` in the CLI).
 */
export function selectDiffAdapter(
  registry: StandardsRegistry,
  standard: string | undefined,
  left: string,
  right: string,
  names: { left: string; right: string } = { left: 'leftMessage', right: 'rightMessage' },
): StandardAdapter {
  const adapter = selectAdapter(registry, standard, left, names.left);
  if (standard) return adapter;
  const other = selectAdapter(registry, undefined, right, names.right);
  if (other.id !== adapter.id) {
    throw bridgeErrors.create('STANDARDS_DIFFER', { left: adapter.displayName, right: other.displayName, leftName: names.left, rightName: names.right });
  }
  return adapter;
}

/** The standard generated when a request names neither a standard nor a message type another standard owns. */
export const DEFAULT_GENERATION_STANDARD = 'hl7';

/**
 * The adapter that generates `messageType`: the one named by `standard`; else the one registered standard whose
 * message types include it (`Patient` is FHIR's, `NewRx` and `B1` NCPDP's); else hl7.
 */
export function adapterForGeneration(
  registry: StandardsRegistry,
  standard: string | undefined,
  messageType: string | undefined,
): StandardAdapter {
  if (standard !== undefined) return adapterById(registry, standard);
  if (messageType !== undefined) {
    const owners = registry.list().filter((adapter) => adapter.messageTypes.includes(messageType));
    if (owners.length === 1) return owners[0] as StandardAdapter;
  }
  return adapterById(registry, DEFAULT_GENERATION_STANDARD);
}

/** A version as the adapter names it (`D.0` -> `D0`), or as given when the adapter has no other spelling for it. */
export function canonicalVersion(adapter: StandardAdapter, version: string): string {
  return adapter.versionAliases?.[version] ?? version;
}

/** The HL7 version generated when none is named (the contract's default). */
export const HL7_DEFAULT_VERSION = '2.3';

/**
 * The version to generate: `version` or `hl7Version` (they must agree when both are given: 400 otherwise), else
 * 2.3 for an adapter that has it (the contract's HL7 default), else undefined: the adapter picks the version that
 * fits the message type (NCPDP B1 is Telecommunication D.0, NewRx a SCRIPT version).
 */
export function generationVersion(
  adapter: StandardAdapter,
  version: string | undefined,
  hl7Version: string | undefined,
): string | undefined {
  if (version !== undefined && hl7Version !== undefined && canonicalVersion(adapter, version) !== hl7Version) {
    throw kernelErrors.create(
      'VALIDATION_FAILED',
      { summary: `hl7Version "${hl7Version}" and version "${version}" disagree; give one of them` },
      [{ location: 'body', path: 'version', message: `disagrees with hl7Version "${hl7Version}"` }],
    );
  }
  const named = version ?? hl7Version;
  if (named !== undefined) return canonicalVersion(adapter, named);
  return adapter.versions.includes(HL7_DEFAULT_VERSION) ? HL7_DEFAULT_VERSION : undefined;
}
