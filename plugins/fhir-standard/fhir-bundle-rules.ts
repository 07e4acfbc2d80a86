/**
 * Rules of a Bundle that go beyond one element (R4 bundle.html): the Bundle's invariants bdl-1 to bdl-12, each at the
 * entry or element that breaks it (all of them: the structural validation stops at an element's first failing
 * invariant, so a document without identifier, date and Composition would hear of one), what a `fullUrl` must be, and
 * the resolution of references inside the Bundle (a document's Composition's by the fullUrl rules alone) to one entry
 * of the type the reference names and the element allows, and at most one `self` link.
 */
import type { CollectedReference } from './fhir-element-walk.ts';
import type { FhirFinding } from './fhir-issues.ts';
import { withArticle, wrongTargetType } from './fhir-reference-targets.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../kernel/standards/issue-detail.ts';

/** The Bundle invariants checked here, which the structural validation's report of must not repeat. */
export const BUNDLE_INVARIANTS: ReadonlySet<string> = new Set(['bdl-1', 'bdl-2', 'bdl-3', 'bdl-4', 'bdl-5', 'bdl-7', 'bdl-8', 'bdl-9', 'bdl-10', 'bdl-11', 'bdl-12']);

/** The entry parts a Bundle's type requires or forbids: `request` (bdl-3) and `response` (bdl-4). */
const ENTRY_PARTS = [
  { part: 'request', invariant: 'bdl-3', types: new Set(['batch', 'transaction', 'history']), allowedIn: 'batch, transaction and history' },
  { part: 'response', invariant: 'bdl-4', types: new Set(['batch-response', 'transaction-response', 'history']), allowedIn: 'batch-response, transaction-response and history' },
] as const;
/** Bundle types meant to be self-contained, where an unresolved relative reference deserves a warning. */
const SELF_CONTAINED_TYPES = new Set(['document', 'message', 'collection']);

/**
 * The Composition elements that make up a document's content (R4 documents.html: the subject, authors, encounter,
 * custodian, attesters, event details and the sections' authors, focus and entries), which must resolve inside it.
 */
const DOCUMENT_CONTENTS = new Set([
  'Composition.subject', 'Composition.author', 'Composition.encounter', 'Composition.custodian', 'Composition.attester.party', 'Composition.event.detail',
  'Composition.section.author', 'Composition.section.focus', 'Composition.section.entry',
]);

/** A URL with a scheme (`https:`, `urn:`): absolute. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** R4's `uuid` and `oid` types (UUIDs of either case: senders differ, and the case carries no meaning). */
const URN_UUID = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URN_OID = /^urn:oid:[0-2](\.(0|[1-9][0-9]*))+$/;

interface EntryLike {
  fullUrl?: unknown;
  resource?: { resourceType?: unknown; id?: unknown; meta?: { versionId?: unknown } };
  request?: unknown;
  response?: unknown;
  search?: unknown;
}

/** One entry of a Bundle, as reference resolution sees it. */
interface Entry {
  index: number;
  fullUrl?: string;
  resource?: Record<string, unknown>;
}

/** What the Bundle rules need of the definitions. */
export interface BundleDefinitions {
  isResourceType(name: string): boolean;
}

function invariantFailure(field: string, key: string, human: string, detail?: string): FhirFinding {
  return { field, code: 'CONSTRAINT_FAILED', class: 'nonconformant', message: `${field} fails invariant ${key}: ${human}${detail ? ` (${detail})` : ''}` };
}

/** The `Type/id` a RESTful URL ends with (`https://example.org/fhir/Patient/1`), when Type is a resource type. */
function restfulTail(url: string, definitions: BundleDefinitions): { type: string; id: string; base: string } | undefined {
  const parts = url.split('/');
  if (parts.length < 2) return undefined;
  const type = parts[parts.length - 2] as string;
  const id = parts[parts.length - 1] as string;
  if (!id || !definitions.isResourceType(type)) return undefined;
  return { type, id, base: parts.slice(0, -2).join('/') };
}

/** The fullUrl rules of one entry: absolute, not version-specific (bdl-8), and naming the resource it holds. */
function checkFullUrl(entry: EntryLike, fullUrl: string, path: string, definitions: BundleDefinitions, findings: FhirFinding[]): void {
  const field = `${path}.fullUrl`;
  if (fullUrl.includes('/_history/')) {
    findings.push(invariantFailure(path, 'bdl-8', 'fullUrl cannot be a version specific reference', `"${excerpt(fullUrl)}"`));
    return;
  }
  if (!HAS_SCHEME.test(fullUrl)) {
    findings.push({
      field,
      code: 'BUNDLE_RULE_VIOLATED',
      class: 'nonconformant',
      message: `${field} "${excerpt(fullUrl)}" is not an absolute URL; a fullUrl is an absolute URL (ending in Type/id for a RESTful resource), a urn:uuid: or a urn:oid:.`,
      expected: 'an absolute URL, urn:uuid:<uuid> or urn:oid:<oid>',
      actual: actualValue(fullUrl),
    });
    return;
  }
  if (/^urn:uuid:/i.test(fullUrl) || fullUrl.startsWith('urn:oid:')) {
    const uuid = /^urn:uuid:/i.test(fullUrl);
    if ((uuid ? URN_UUID : URN_OID).test(fullUrl)) return;
    findings.push({
      field,
      code: 'INVALID_DATA_TYPE',
      class: 'nonconformant',
      message: `${field} "${excerpt(fullUrl)}" is not a valid ${uuid ? 'urn:uuid: (a UUID is 8-4-4-4-12 hexadecimal digits)' : 'urn:oid: (an OID is numbers separated by dots, the first 0, 1 or 2)'}.`,
      expected: uuid ? 'urn:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx' : 'urn:oid:[0-2](.number)+',
      actual: actualValue(fullUrl),
    });
    return;
  }
  const resource = entry.resource;
  const tail = restfulTail(fullUrl.split(/[?#]/)[0] as string, definitions);
  if (!tail || !resource || typeof resource.resourceType !== 'string') return;
  if (resource.id === undefined) {
    findings.push({
      field,
      code: 'BUNDLE_RULE_VIOLATED',
      class: 'nonconformant',
      message: `${field} "${excerpt(fullUrl)}" is a RESTful URL, but the resource has no id; a RESTful fullUrl ends in the resource's Type/id.`,
      expected: `a resource with the id "${excerpt(tail.id)}", or a urn:uuid: fullUrl`,
      actual: 'no id',
    });
  } else if (resource.resourceType !== tail.type) {
    findings.push({
      field,
      code: 'BUNDLE_RULE_VIOLATED',
      class: 'nonconformant',
      message: `${field} "${excerpt(fullUrl)}" names ${withArticle(tail.type)}, but the entry holds ${withArticle(resource.resourceType)}.`,
      expected: `a fullUrl ending in ${excerpt(resource.resourceType)}/${typeof resource.id === 'string' ? excerpt(resource.id) : '<id>'}`,
      actual: actualValue(fullUrl),
    });
  } else if (typeof resource.id === 'string' && resource.id !== tail.id) {
    findings.push({
      field,
      code: 'BUNDLE_RULE_VIOLATED',
      class: 'nonconformant',
      message: `${field} "${excerpt(fullUrl)}" names the id "${excerpt(tail.id)}", but the resource's id is "${excerpt(resource.id)}"; they must agree.`,
      expected: `a fullUrl ending in ${tail.type}/${excerpt(resource.id)}`,
      actual: actualValue(fullUrl),
    });
  }
}

/** Checks bdl-3, bdl-4 and the search of one entry. */
function checkEntryKind(entry: EntryLike, path: string, type: string | undefined, findings: FhirFinding[]): void {
  for (const { part, invariant, types, allowedIn } of ENTRY_PARTS) {
    if (!type) continue;
    const present = entry[part] !== undefined;
    if (types.has(type) && !present) {
      findings.push({
        field: `${path}.${part}`,
        code: 'REQUIRED_FIELD_MISSING',
        class: 'nonconformant',
        message: `${path}.${part} (Bundle.entry.${part}) is required in a ${type} Bundle (${invariant}) but missing.`,
      });
    } else if (!types.has(type) && present) {
      findings.push({
        field: `${path}.${part}`,
        code: 'BUNDLE_RULE_VIOLATED',
        class: 'nonconformant',
        message: `${path}.${part} is only allowed in ${allowedIn} Bundles, not in a ${type} Bundle (${invariant}).`,
      });
    }
  }
  if (type === 'searchset' && entry.search === undefined) {
    findings.push({
      field: `${path}.search`,
      code: 'RECOMMENDED_FIELD_EMPTY',
      class: 'advisory',
      message: `${path}.search (Bundle.entry.search) should say whether the entry is a match or an include in a searchset Bundle.`,
    });
  } else if (type !== 'searchset' && entry.search !== undefined) {
    findings.push(invariantFailure(`${path}.search`, 'bdl-2', 'entry.search only when a search', `this is a ${type ?? 'Bundle without type'}`));
  }
  if (entry.resource === undefined && entry.request === undefined && entry.response === undefined) {
    findings.push(invariantFailure(path, 'bdl-5', "must be a resource unless there's a request or response"));
  }
}

/** bdl-1 and the document (bdl-9, bdl-10, bdl-11) and message (bdl-12) rules on the Bundle itself. */
function checkBundleKind(bundle: Record<string, unknown>, path: string, type: string | undefined, entries: unknown[], findings: FhirFinding[]): void {
  if (bundle.total !== undefined && type !== 'searchset' && type !== 'history') {
    findings.push(invariantFailure(`${path}.total`, 'bdl-1', 'total only when a search or history', `this is a ${type ?? 'Bundle without type'}`));
  }
  const links = Array.isArray(bundle.link) ? (bundle.link as unknown[]) : [];
  const selves = links.flatMap((link, index) => ((link as { relation?: unknown } | null)?.relation === 'self' ? [index] : []));
  for (const index of selves.slice(1)) {
    findings.push({
      field: `${path}.link[${index}].relation`,
      code: 'BUNDLE_RULE_VIOLATED',
      class: 'nonconformant',
      message: `${path}.link[${index}] repeats the relation "self" of ${path}.link[${selves[0]}]; a Bundle has at most one self link.`,
      expected: 'one link with relation self',
      actual: actualValue('self'),
    });
  }
  const first = (entries[0] as EntryLike | undefined)?.resource?.resourceType;
  const firstField = entries.length > 0 ? `${path}.entry[0].resource` : `${path}.entry`;
  const firstFound = typeof first === 'string' ? `the first entry holds ${withArticle(first)}` : 'there is no first resource';
  if (type === 'document') {
    const identifier = bundle.identifier as { system?: unknown; value?: unknown } | undefined;
    if (identifier?.system === undefined || identifier?.value === undefined) {
      findings.push(invariantFailure(`${path}.identifier`, 'bdl-9', 'A document must have an identifier with a system and a value'));
    }
    if (typeof bundle.timestamp !== 'string' || bundle.timestamp === '') {
      findings.push(invariantFailure(`${path}.timestamp`, 'bdl-10', 'A document must have a date'));
    }
    if (first !== 'Composition') {
      findings.push({ ...invariantFailure(firstField, 'bdl-11', 'A document must have a Composition as the first resource', firstFound), expected: 'Composition', actual: typeof first === 'string' ? actualValue(first) : 'none' });
    }
  } else if (type === 'message' && first !== 'MessageHeader') {
    findings.push({ ...invariantFailure(firstField, 'bdl-12', 'A message must have a MessageHeader as the first resource', firstFound), expected: 'MessageHeader', actual: typeof first === 'string' ? actualValue(first) : 'none' });
  }
}

/**
 * Checks the rules of a Bundle at `path` (`Bundle`, or `Bundle.entry[2].resource` for a Bundle inside one);
 * `references` are those the element walk collected beneath it (a nested Bundle's own are left to it).
 */
export function checkBundleRules(bundle: Record<string, unknown>, path: string, references: readonly CollectedReference[], definitions: BundleDefinitions): FhirFinding[] {
  const findings: FhirFinding[] = [];
  const type = typeof bundle.type === 'string' ? bundle.type : undefined;
  const entries = Array.isArray(bundle.entry) ? (bundle.entry as unknown[]) : [];
  checkBundleKind(bundle, path, type, entries, findings);
  const byFullUrl = new Map<string, Entry>();
  // fullUrl plus version: bdl-7 allows two versions of one resource, and exempts history Bundles.
  const versions = new Map<string, number>();
  const byTail = new Map<string, Entry>();
  const byIndex = new Map<number, Entry>();
  const fullUrlCount = new Map<string, number>();

  entries.forEach((raw, index) => {
    if (!raw || typeof raw !== 'object') return;
    const entry = raw as EntryLike;
    const entryPath = `${path}.entry[${index}]`;
    checkEntryKind(entry, entryPath, type, findings);
    const resource = entry.resource && typeof entry.resource === 'object' ? (entry.resource as Record<string, unknown>) : undefined;
    const item: Entry = { index, resource };
    byIndex.set(index, item);
    if (typeof entry.fullUrl === 'string') {
      item.fullUrl = entry.fullUrl;
      checkFullUrl(entry, entry.fullUrl, entryPath, definitions, findings);
      const versionId = entry.resource?.meta?.versionId;
      const key = `${entry.fullUrl}|${typeof versionId === 'string' ? versionId : ''}`;
      const first = versions.get(key);
      if (first !== undefined && type !== 'history') {
        findings.push({
          field: `${entryPath}.fullUrl`,
          code: 'BUNDLE_RULE_VIOLATED',
          class: 'nonconformant',
          message: `${entryPath}.fullUrl "${excerpt(entry.fullUrl)}" repeats ${path}.entry[${first}].fullUrl${typeof versionId === 'string' ? ` with the same meta.versionId "${excerpt(versionId)}"` : ''}; fullUrls must be unique in a Bundle, unless the entries are different versions of the resource (bdl-7).`,
        });
      } else if (first === undefined) {
        versions.set(key, index);
      }
      fullUrlCount.set(entry.fullUrl, (fullUrlCount.get(entry.fullUrl) ?? 0) + 1);
      if (!byFullUrl.has(entry.fullUrl)) byFullUrl.set(entry.fullUrl, item);
      const tail = HAS_SCHEME.test(entry.fullUrl) && !entry.fullUrl.startsWith('urn:') ? restfulTail(entry.fullUrl, definitions) : undefined;
      if (tail && !byTail.has(`${tail.type}/${tail.id}`)) byTail.set(`${tail.type}/${tail.id}`, item);
    }
    if (resource && typeof resource.resourceType === 'string' && typeof resource.id === 'string') {
      const local = `${resource.resourceType}/${resource.id}`;
      if (!byTail.has(local)) byTail.set(local, item);
    }
  });

  const entryOf = new RegExp(`^${path.replace(/[.[\]]/g, '\\$&')}\\.entry\\[(\\d+)\\]\\.`);
  for (const ref of references) {
    const reference = ref.reference;
    if (reference.startsWith('#')) continue;
    const at = entryOf.exec(ref.field);
    if (!at) continue;
    const from = byIndex.get(Number(at[1]));
    // A document's Composition is its table of contents: its references must resolve by the fullUrl rules alone.
    const composition = type === 'document' && from?.index === 0 && !HAS_SCHEME.test(reference);
    const target = composition ? resolveStrictly(reference, from, byFullUrl, byTail, definitions) : resolve(reference, from, byFullUrl, byTail, definitions);
    if (target) {
      const finding = resolvedTargetFinding(ref, target, path, definitions) ?? (type !== 'history' ? multipleMatches(ref, target, fullUrlCount) : undefined);
      if (finding) findings.push(finding);
      continue;
    }
    if (composition) {
      findings.push({
        field: `${ref.field}.reference`,
        code: 'INVALID_REFERENCE',
        class: 'nonconformant',
        message: `${ref.field}.reference "${excerpt(reference)}" does not resolve to an entry of this document: a relative reference resolves against the base of the Composition's RESTful fullUrl.`,
        expected: 'a reference to an entry of this document',
        actual: actualValue(reference),
      });
      continue;
    }
    if (/^urn:(uuid|oid):/i.test(reference)) {
      // A document's table of contents and a message's focus must be in the Bundle; elsewhere a urn: that no entry
      // carries may name a resource the sender keeps apart, as HL7's validator has it (a warning).
      const required = from?.index === 0 && ((type === 'document' && DOCUMENT_CONTENTS.has(ref.elementPath)) || (type === 'message' && ref.elementPath === 'MessageHeader.focus'));
      findings.push({
        field: `${ref.field}.reference`,
        code: 'INVALID_REFERENCE',
        class: required ? 'nonconformant' : 'advisory',
        message: required
          ? `${ref.field}.reference "${excerpt(reference)}" does not resolve: no entry of the ${type} Bundle has that fullUrl, and its ${type === 'document' ? 'Composition' : 'MessageHeader.focus'} must refer inside it.`
          : `${ref.field}.reference "${excerpt(reference)}" does not resolve: no entry of the Bundle has that fullUrl.`,
        expected: 'the fullUrl of an entry of this Bundle',
        actual: actualValue(reference),
      });
      continue;
    }
    // Absolute URLs may point outside the Bundle; only relative references are expected to resolve inside it.
    if (!type || !SELF_CONTAINED_TYPES.has(type) || HAS_SCHEME.test(reference)) continue;
    findings.push({
      field: `${ref.field}.reference`,
      code: 'INVALID_REFERENCE',
      class: 'advisory',
      message: `${ref.field}.reference "${excerpt(reference)}" does not resolve inside this ${type} Bundle.`,
    });
  }
  return findings;
}

/**
 * The entry a reference resolves to (R4 bundle.html, "Resolving references in Bundles"): an absolute reference by an
 * entry's fullUrl; a relative one against the base of the referring entry's RESTful fullUrl, else by `Type/id`.
 */
function resolve(reference: string, from: Entry | undefined, byFullUrl: Map<string, Entry>, byTail: Map<string, Entry>, definitions: BundleDefinitions): Entry | undefined {
  const unversioned = reference.split('/_history/')[0] as string;
  if (HAS_SCHEME.test(reference)) return byFullUrl.get(reference) ?? byFullUrl.get(unversioned);
  const base = from?.fullUrl && HAS_SCHEME.test(from.fullUrl) ? restfulTail(from.fullUrl, definitions)?.base : undefined;
  const found = (base !== undefined ? byFullUrl.get(`${base}/${unversioned}`) : undefined) ?? byTail.get(unversioned);
  if (found || !from?.fullUrl || !/^urn:uuid:/i.test(from.fullUrl)) return found;
  // From an entry whose fullUrl is a urn:uuid:, `Type/id` also names the entry whose fullUrl is urn:uuid:<id>, as
  // HL7's validator resolves it: the entry found must then hold a Type.
  const named = restfulTail(unversioned, definitions);
  return named && named.base === '' ? byFullUrl.get(`urn:uuid:${named.id}`) : undefined;
}

/**
 * {@link resolve} by the fullUrl rules only: from an entry without a RESTful fullUrl, `Type/id` finds an entry only
 * when the referring entry has no fullUrl at all.
 */
function resolveStrictly(reference: string, from: Entry | undefined, byFullUrl: Map<string, Entry>, byTail: Map<string, Entry>, definitions: BundleDefinitions): Entry | undefined {
  if (from?.fullUrl === undefined) return resolve(reference, from, byFullUrl, byTail, definitions);
  const base = HAS_SCHEME.test(from.fullUrl) ? restfulTail(from.fullUrl, definitions)?.base : undefined;
  return base !== undefined ? byFullUrl.get(`${base}/${reference.split('/_history/')[0] as string}`) : undefined;
}

/** A target of a type the element does not allow, or (for `Type/id`) not of the type the reference names. */
function resolvedTargetFinding(ref: CollectedReference, target: Entry, path: string, definitions: BundleDefinitions): FhirFinding | undefined {
  const where = `${path}.entry[${target.index}]`;
  const actual = target.resource?.resourceType;
  // A reference that names its type (`Organization/1`) had that type judged by the element walk already.
  const named = restfulTail(ref.reference.split('/_history/')[0] as string, definitions);
  if (!named) return wrongTargetType(ref, actual, where);
  if (typeof actual !== 'string' || actual === named.type) return undefined;
  return {
    field: `${ref.field}.reference`,
    code: 'INVALID_REFERENCE',
    class: 'nonconformant',
    message: `${ref.field}.reference "${excerpt(ref.reference)}" names ${withArticle(named.type)}, but resolves to ${where}, ${withArticle(actual)}.`,
    expected: withArticle(named.type),
    actual: actualValue(actual),
  };
}

/** A reference without a version that matches entries of several versions of one resource cannot say which it means. */
function multipleMatches(ref: CollectedReference, target: Entry, fullUrlCount: Map<string, number>): FhirFinding | undefined {
  if (ref.reference.includes('/_history/') || target.fullUrl === undefined || (fullUrlCount.get(target.fullUrl) ?? 0) < 2) return undefined;
  return {
    field: `${ref.field}.reference`,
    code: 'INVALID_REFERENCE',
    class: 'nonconformant',
    message: `${ref.field}.reference "${excerpt(ref.reference)}" matches ${fullUrlCount.get(target.fullUrl)} entries of the Bundle (versions of ${excerpt(target.fullUrl)}); a reference to one of them names its version (/_history/).`,
    expected: 'a reference that matches one entry',
    actual: actualValue(ref.reference),
  };
}
