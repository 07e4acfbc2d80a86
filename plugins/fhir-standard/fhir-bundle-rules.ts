/**
 * Rules of a Bundle that go beyond one element (R4 bundle.html, invariants bdl-3, bdl-4, bdl-7 and the reference
 * resolution rules): per entry, with the entry's path, so a reader sees which entry breaks which rule.
 */
import type { CollectedReference } from './fhir-element-walk.ts';
import type { FhirFinding } from './fhir-issues.ts';
import { excerpt } from '../../kernel/text-excerpt.ts';

/** Bundle types whose entries carry `request` (bdl-3). */
const REQUEST_TYPES = new Set(['batch', 'transaction', 'history']);
/** Bundle types whose entries carry `response` (bdl-4). */
const RESPONSE_TYPES = new Set(['batch-response', 'transaction-response', 'history']);
/** Bundle types meant to be self-contained, where an unresolved relative reference deserves a warning. */
const SELF_CONTAINED_TYPES = new Set(['document', 'message', 'collection']);

interface EntryLike {
  fullUrl?: unknown;
  resource?: { resourceType?: unknown; id?: unknown; meta?: { versionId?: unknown } };
  request?: unknown;
  response?: unknown;
  search?: unknown;
}

const ENTRY_PATH = /^Bundle\.entry\[(\d+)\]\.resource\./;

/** Checks the Bundle-level rules; `references` are those the element walk collected. */
export function checkBundleRules(bundle: Record<string, unknown>, references: readonly CollectedReference[]): FhirFinding[] {
  const findings: FhirFinding[] = [];
  const type = typeof bundle.type === 'string' ? bundle.type : undefined;
  const entries = Array.isArray(bundle.entry) ? (bundle.entry as unknown[]) : [];
  const fullUrls = new Map<string, number>();
  const localIds = new Set<string>();

  entries.forEach((raw, index) => {
    if (!raw || typeof raw !== 'object') return;
    const entry = raw as EntryLike;
    const path = `Bundle.entry[${index}]`;
    if (type && REQUEST_TYPES.has(type) && entry.request === undefined) {
      findings.push({
        field: `${path}.request`,
        code: 'REQUIRED_FIELD_MISSING',
        class: 'nonconformant',
        message: `${path}.request (Bundle.entry.request) is required in a ${type} Bundle (bdl-3) but missing.`,
      });
    } else if (type && !REQUEST_TYPES.has(type) && entry.request !== undefined) {
      findings.push({
        field: `${path}.request`,
        code: 'BUNDLE_RULE_VIOLATED',
        class: 'nonconformant',
        message: `${path}.request is only allowed in batch, transaction and history Bundles, not in a ${type} Bundle (bdl-3).`,
      });
    }
    if (type && RESPONSE_TYPES.has(type) && entry.response === undefined) {
      findings.push({
        field: `${path}.response`,
        code: 'REQUIRED_FIELD_MISSING',
        class: 'nonconformant',
        message: `${path}.response (Bundle.entry.response) is required in a ${type} Bundle (bdl-4) but missing.`,
      });
    } else if (type && !RESPONSE_TYPES.has(type) && entry.response !== undefined) {
      findings.push({
        field: `${path}.response`,
        code: 'BUNDLE_RULE_VIOLATED',
        class: 'nonconformant',
        message: `${path}.response is only allowed in batch-response, transaction-response and history Bundles, not in a ${type} Bundle (bdl-4).`,
      });
    }
    if (type === 'searchset' && entry.search === undefined) {
      findings.push({
        field: `${path}.search`,
        code: 'RECOMMENDED_FIELD_EMPTY',
        class: 'advisory',
        message: `${path}.search (Bundle.entry.search) should say whether the entry is a match or an include in a searchset Bundle.`,
      });
    }
    if (typeof entry.fullUrl === 'string') {
      // History Bundles legitimately repeat a fullUrl, once per version (bdl-7).
      const version = type === 'history' ? `|${String(entry.resource?.meta?.versionId ?? '')}` : '';
      const key = entry.fullUrl + version;
      const first = fullUrls.get(key);
      if (first !== undefined) {
        findings.push({
          field: `${path}.fullUrl`,
          code: 'BUNDLE_RULE_VIOLATED',
          class: 'nonconformant',
          message: `${path}.fullUrl "${excerpt(entry.fullUrl)}" repeats Bundle.entry[${first}].fullUrl; fullUrls must be unique in a Bundle (bdl-7).`,
        });
      } else {
        fullUrls.set(key, index);
      }
    }
    const resource = entry.resource;
    if (resource && typeof resource.resourceType === 'string' && typeof resource.id === 'string') {
      localIds.add(`${resource.resourceType}/${resource.id}`);
    }
  });

  const urls = new Set([...fullUrls.keys()].map((key) => key.split('|')[0]));
  // `Type/id` tails of absolute fullUrls, so a relative reference finds its entry in constant time.
  for (const url of urls) {
    const parts = url.split('/');
    if (parts.length >= 2 && !url.startsWith('urn:')) localIds.add(parts.slice(-2).join('/'));
  }
  for (const { field, reference } of references) {
    if (!ENTRY_PATH.test(field) || reference.startsWith('#')) continue;
    if (reference.startsWith('urn:uuid:') || reference.startsWith('urn:oid:')) {
      if (!urls.has(reference)) {
        findings.push({
          field: `${field}.reference`,
          code: 'INVALID_REFERENCE',
          class: 'nonconformant',
          message: `${field}.reference "${excerpt(reference)}" does not resolve: no entry of the Bundle has that fullUrl.`,
        });
      }
      continue;
    }
    // Absolute URLs may point outside the Bundle; only relative references are expected to resolve inside it.
    if (!type || !SELF_CONTAINED_TYPES.has(type) || /^[a-z][a-z0-9+.-]*:/i.test(reference)) continue;
    if (!localIds.has(reference.split('/_history/')[0])) {
      findings.push({
        field: `${field}.reference`,
        code: 'INVALID_REFERENCE',
        class: 'advisory',
        message: `${field}.reference "${excerpt(reference)}" does not resolve inside this ${type} Bundle.`,
      });
    }
  }
  return findings;
}
