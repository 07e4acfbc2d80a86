/**
 * Picks the adapter for a request: the one named by `standard`, or the one that detects the content. The bridge
 * branches on nothing else: every standard is reached through the same adapter contract.
 */
import type { StandardAdapter, StandardsRegistry } from '../../kernel/standards-registry.ts';
import { bridgeErrors } from './errors.ts';

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
