/**
 * De-identification of FHIR R4 JSON (a resource or a Bundle): names, telecom, addresses, identifiers, dates, photos,
 * narrative and the displayed names of references to people are replaced wherever they occur; codes, references and
 * structure stay, so the resource validates as the original did. Paths in the report are element paths without
 * indexes (`Patient.name.family`, `Bundle.entry.resource.Patient.birthDate`).
 */
import { scrubBase64 } from './attachments.ts';
import { looksLikeIsoDate, ninetyPlusBirthDate, shiftIsoDate } from '../replacement/date-shift.ts';
import { FreeTextScrubber } from '../replacement/free-text-scrubber.ts';
import { travelJson } from './fhir-travel.ts';
import { patientKey } from '../replacement/patient-key.ts';
import type { IdentifierKind, Pseudonymizer } from '../replacement/pseudonyms.ts';
import type { ReportBuilder } from '../deidentify-report.ts';
import { MAX_JSON_DEPTH } from '../../../kernel/lib/input/json-depth.ts';

/** Resource types that are people (their references' `display` is a person's name). */
const PEOPLE = new Set(['Patient', 'RelatedPerson', 'Practitioner', 'Person', 'PractitionerRole']);

/** Identifier systems with a known shape. */
const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
const SSN_SYSTEM = 'http://hl7.org/fhir/sid/us-ssn';

/** Keys whose string values never move as dates (versions and ids that happen to look like one). */
const KEPT_DATE_KEYS = new Set(['version', 'id', 'versionId']);

/** Keys whose string values are codes, URIs and structure: neither free text nor identifying. */
const STRUCTURAL_KEYS = new Set([
  'resourceType', 'system', 'code', 'url', 'status', 'use', 'gender', 'version', 'versionId', 'unit', 'contentType', 'language', 'profile',
  'mode', 'intent', 'priority', 'comparator', 'valueCode', 'valueUri', 'valueUrl', 'valueCanonical', 'valueId', 'valueOid', 'valueUuid',
  'valueBoolean', 'type', 'kind', 'method', 'div', 'fullUrl', 'reference', 'id', 'security', 'tag', 'source', 'valueBase64Binary', 'data',
  'birthDate', 'deceasedDateTime', 'lastUpdated', 'hash', 'xmlns',
]);

/** Keys whose string values are a person's name written out (an Annotation's author, a signature's who). */
const PERSON_TEXT_KEYS = new Set(['authorString', 'valueHumanName', 'onBehalfOfString']);

/** Extensions whose string value is a family name. */
const FAMILY_NAME_EXTENSIONS = new Set(['http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName']);

/** Extension URLs of the FHIR specification and its US Core and other HL7 guides: classified by their value's type. */
const KNOWN_EXTENSION_PREFIXES = ['http://hl7.org/fhir/', 'http://hl7.org/fhir/us/core/'];

/** Narrative that replaces a resource's own (well-formed XHTML, as txt-1 and txt-2 require). */
const NARRATIVE_DIV = '<div xmlns="http://www.w3.org/1999/xhtml"><p>Narrative removed by de-identification.</p></div>';

const UUID = /^(urn:uuid:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Deepest nesting walked (FHIR resources are far shallower; deeper input is refused instead of exhausting the stack). */
const MAX_DEPTH = MAX_JSON_DEPTH;

/** Thrown for JSON nested deeper than {@link MAX_DEPTH}. */
export class TooDeepError extends Error {
  constructor() {
    super(`it is nested deeper than ${MAX_DEPTH} levels`);
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface WalkContext {
  report: ReportBuilder;
  offsetDays: number;
  depth: number;
}

/** De-identifies FHIR JSON resources. */
export class FhirDeidentifier {
  private readonly scrubber: FreeTextScrubber;

  /** @param safePaths extension URLs and element paths kept when they cannot be classified */
  constructor(
    private readonly pseudonyms: Pseudonymizer,
    private readonly safePaths: ReadonlySet<string> = new Set(),
  ) {
    this.scrubber = new FreeTextScrubber(pseudonyms);
  }

  /**
   * Rewrites a parsed resource in place and returns it; `report` receives what was replaced. `renameKeys` false
   * leaves element names to the caller (FHIR XML rewrites them in the document).
   */
  deidentify(resource: Json, report: ReportBuilder, renameKeys = true): Json {
    const offsetDays = this.pseudonyms.dateOffsetDays(this.patientKey(resource));
    const walked = this.walk(resource, '', '', { report, offsetDays, depth: 0 });
    const needles = this.pseudonyms.currentNeedles();
    return needles ? travelJson(walked, needles, report, '', renameKeys) : walked;
  }

  /** Free text of a document around the resource (XML comments), with its identifiers replaced. */
  scrubText(text: string): string {
    return this.scrubber.scrub(text, 0);
  }

  /** The first Patient's name and birth date (patient-key.ts), else its first identifier, else the first patient reference. */
  private patientKey(resource: Json): string {
    let found: string | undefined;
    const visit = (node: Json, depth: number): void => {
      if (found !== undefined || depth > MAX_DEPTH) return;
      if (Array.isArray(node)) {
        for (const item of node) visit(item, depth + 1);
        return;
      }
      if (!isObject(node)) return;
      if (node.resourceType === 'Patient') {
        const identifiers = Array.isArray(node.identifier) ? node.identifier : [];
        const first = identifiers.find((item) => isObject(item) && typeof item.value === 'string');
        const name = Array.isArray(node.name) ? node.name.find(isObject) : undefined;
        const given = name && Array.isArray(name.given) && typeof name.given[0] === 'string' ? name.given[0] : undefined;
        const family = name && typeof name.family === 'string' ? name.family : undefined;
        const birth = typeof node.birthDate === 'string' ? node.birthDate : undefined;
        found = patientKey(family, given, birth, isObject(first) ? `id:${String(first.value)}` : `name:${JSON.stringify(node.name ?? null)}`);
        return;
      }
      for (const value of Object.values(node)) visit(value, depth + 1);
    };
    visit(resource, 0);
    if (found !== undefined) return found;
    const text = JSON.stringify(resource);
    return /"reference"\s*:\s*"((?:[^"]*\/)?Patient\/[^"]+)"/.exec(text)?.[1] ?? '';
  }

  private walk(node: Json, path: string, key: string, context: WalkContext): Json {
    if (context.depth > MAX_DEPTH) throw new TooDeepError();
    const deeper = { ...context, depth: context.depth + 1 };
    if (Array.isArray(node)) return node.map((item) => this.walk(item, path, key, deeper));
    if (typeof node === 'string') {
      if (key === 'birthDate') {
        const old = ninetyPlusBirthDate(node);
        if (old !== undefined) {
          this.pseudonyms.noteDate(node, old, true);
          context.report.add(path, 'date');
          return old;
        }
      }
      if (!KEPT_DATE_KEYS.has(key) && looksLikeIsoDate(node)) {
        const shifted = shiftIsoDate(node, context.offsetDays);
        if (shifted !== undefined && shifted !== node) {
          this.pseudonyms.noteDate(node, shifted, key === 'birthDate');
          context.report.add(path, 'date');
          return shifted;
        }
      }
      if (STRUCTURAL_KEYS.has(key)) return node;
      if (PERSON_TEXT_KEYS.has(key)) {
        context.report.add(path, 'name');
        return this.personText(node);
      }
      return this.scrub(node, path, context);
    }
    if (!isObject(node)) return node;
    if (typeof node.url === 'string' && ('extension' in node || Object.keys(node).some((name) => name.startsWith('value')))) {
      const handled = this.extension(node, path, context);
      if (handled) return node;
    }
    const base = typeof node.resourceType === 'string' ? (path ? `${path}.${node.resourceType}` : node.resourceType) : path;
    const { report } = context;
    const { pseudonyms } = this;
    for (const [name, value] of Object.entries(node)) {
      const childPath = `${base}.${name}`;
      if (name === 'id' && typeof value === 'string' && typeof node.resourceType === 'string') {
        node[name] = this.resourceId(value);
        report.add(childPath, 'otherIdentifier');
        continue;
      }
      if ((name === 'reference' || name === 'fullUrl') && typeof value === 'string') {
        node[name] = this.referenceText(value);
        if (node[name] !== value) report.add(childPath, 'otherIdentifier');
        continue;
      }
      if (name === 'data' && typeof value === 'string' && (typeof node.contentType === 'string' || node.resourceType === 'Binary')) {
        const result = scrubBase64(value, (text) => this.scrubber.scrub(text, context.offsetDays));
        if (result.data !== value) report.add(childPath, result.binary ? 'photo' : 'freeText');
        node[name] = result.data;
        continue;
      }
      if (name === 'text' && isObject(value) && typeof value.div === 'string') {
        value.div = NARRATIVE_DIV;
        report.add(`${childPath}.div`, 'freeText');
        continue;
      }
      if (name === 'photo') {
        delete node[name];
        report.add(childPath, 'photo');
        continue;
      }
      if ((name === 'name' || name === 'valueHumanName') && value !== null && typeof value === 'object') {
        this.names(value, childPath, report);
        continue;
      }
      if (name === 'telecom' || name === 'valueContactPoint') {
        this.telecoms(value, childPath, report);
        continue;
      }
      if ((name === 'address' || name === 'valueAddress') && value !== null && typeof value === 'object') {
        this.addresses(value, childPath, report);
        this.walkRest(value, childPath, deeper);
        continue;
      }
      if ((name === 'identifier' || name === 'valueIdentifier') && value !== null && typeof value === 'object') {
        this.identifiers(value, childPath, report);
        this.walkRest(value, childPath, deeper);
        continue;
      }
      if (name === 'display' && typeof value === 'string' && this.isPersonReference(node)) {
        node[name] = value.split(/\s+/).map((word, index, words) => (index === words.length - 1 ? pseudonyms.familyName(word) : pseudonyms.givenName(word))).join(' ');
        report.add(childPath, 'name');
        continue;
      }
      node[name] = this.walk(value, childPath, name, deeper);
    }
    return node;
  }

  /** Walks what the typed rewrites leave (an address's period, an identifier's assigner) for dates and free text. */
  private walkRest(value: Json, path: string, context: WalkContext): void {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isObject(item)) continue;
      for (const name of ['period', 'assigner', 'type', 'extension']) if (name in item) item[name] = this.walk(item[name]!, `${path}.${name}`, name, context);
    }
  }

  /** Free text with its identifiers replaced (free-text-scrubber.ts). */
  private scrub(text: string, path: string, context: WalkContext): string {
    let count = 0;
    const out = this.scrubber.scrub(text, context.offsetDays, undefined, () => count++);
    if (count > 0) context.report.add(path, 'freeText');
    return out;
  }

  /** A person's name written out: the last word a family name, the others given names. */
  private personText(value: string): string {
    const words = value.split(/\s+/);
    return words.map((word, index) => (word === '' ? word : index === words.length - 1 ? this.pseudonyms.familyName(word) : this.pseudonyms.givenName(word))).join(' ');
  }

  /** A resource id: a UUID for a UUID, a keyed id of the same shape otherwise (ids built from an MRN leave no trace). */
  private resourceId(id: string): string {
    return UUID.test(id) ? this.pseudonyms.uuid(id) : this.pseudonyms.shaped('resourceId', id);
  }

  /** A reference or fullUrl with its id (and a `urn:uuid:`) replaced as {@link resourceId} replaces the resource's id. */
  private referenceText(value: string): string {
    if (UUID.test(value)) return this.pseudonyms.uuid(value);
    if (value.startsWith('#')) return value;
    const match = /^(.*?\b[A-Z][A-Za-z]+\/)([A-Za-z0-9\-.]{1,200})(\/_history\/[A-Za-z0-9\-.]{1,64})?$/.exec(value);
    if (!match) return value.startsWith('urn:oid:') ? value : this.pseudonyms.url(value);
    return `${match[1]}${this.resourceId(match[2]!)}${match[3] ?? ''}`;
  }

  /**
   * An extension: one of the FHIR specification's or its HL7 guides' is walked by its value's type (a mother's
   * maiden name is a family name); any other, unless its URL is marked safe, has every string value replaced by a
   * same-shape placeholder and is listed in the report's `redacted`. Returns false when the node is walked normally.
   */
  private extension(node: { [key: string]: Json }, path: string, context: WalkContext): boolean {
    const url = node.url as string;
    if (FAMILY_NAME_EXTENSIONS.has(url) && typeof node.valueString === 'string') {
      node.valueString = this.pseudonyms.familyName(node.valueString);
      context.report.add(`${path}.valueString`, 'name');
      return true;
    }
    if (KNOWN_EXTENSION_PREFIXES.some((prefix) => url.startsWith(prefix)) || this.safePaths.has(url)) return false;
    const needles = this.pseudonyms.currentNeedles();
    context.report.redact(`${path}(${needles ? url.replace(/[^/:.]+/g, (part) => (needles.scan(part).length > 0 ? 'redacted' : part)) : url})`);
    const redact = (value: Json, depth: number): Json => {
      if (depth > MAX_DEPTH) throw new TooDeepError();
      if (typeof value === 'string') return looksLikeIsoDate(value) ? (shiftIsoDate(value, context.offsetDays) ?? this.pseudonyms.placeholder(value)) : this.pseudonyms.placeholder(value);
      if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
      if (isObject(value)) {
        for (const [name, inner] of Object.entries(value)) if (name !== 'url') value[name] = redact(inner, depth + 1);
      }
      return value;
    };
    for (const [name, value] of Object.entries(node)) {
      if (name === 'url') continue;
      node[name] = redact(value, context.depth + 1);
      context.report.add(`${path}.${name}`, 'otherIdentifier');
    }
    return true;
  }

  private isPersonReference(node: { [key: string]: Json }): boolean {
    const reference = typeof node.reference === 'string' ? node.reference : '';
    const type = /(?:^|\/)([A-Z][A-Za-z]+)\/[^/]+$/.exec(reference)?.[1] ?? (typeof node.type === 'string' ? node.type : '');
    return PEOPLE.has(type);
  }

  private names(value: Json, path: string, report: ReportBuilder): void {
    for (const name of Array.isArray(value) ? value : [value]) {
      if (!isObject(name) || (!('family' in name) && !('given' in name) && !('text' in name))) continue;
      if (typeof name.family === 'string') {
        name.family = this.pseudonyms.familyName(name.family);
        report.add(`${path}.family`, 'name');
      }
      if (Array.isArray(name.given)) {
        name.given = name.given.map((given) => (typeof given === 'string' ? this.pseudonyms.givenName(given) : given));
        report.add(`${path}.given`, 'name');
      }
      if (typeof name.text === 'string') {
        const given = Array.isArray(name.given) ? name.given.filter((item): item is string => typeof item === 'string') : [];
        name.text = [...given, typeof name.family === 'string' ? name.family : ''].filter(Boolean).join(' ') || this.pseudonyms.familyName(name.text);
        report.add(`${path}.text`, 'name');
      }
    }
  }

  private telecoms(value: Json, path: string, report: ReportBuilder): void {
    for (const point of Array.isArray(value) ? value : [value]) {
      if (!isObject(point) || typeof point.value !== 'string') continue;
      const system = typeof point.system === 'string' ? point.system : point.value.includes('@') ? 'email' : 'phone';
      const kind: IdentifierKind = system === 'email' ? 'email' : system === 'fax' ? 'fax' : system === 'url' ? 'url' : 'phone';
      point.value =
        kind === 'email' ? this.pseudonyms.email(point.value) : kind === 'url' ? this.pseudonyms.url(point.value) : this.pseudonyms.phone(point.value);
      report.add(`${path}.value`, kind);
    }
  }

  private addresses(value: Json, path: string, report: ReportBuilder): void {
    for (const address of Array.isArray(value) ? value : [value]) {
      if (!isObject(address)) continue;
      if (Array.isArray(address.line)) {
        address.line = address.line.map((line, index) =>
          typeof line === 'string' ? (index === 0 ? this.pseudonyms.streetLine(line) : this.pseudonyms.shaped('address', line)) : line,
        );
        report.add(`${path}.line`, 'address');
      }
      if (typeof address.city === 'string') {
        address.city = this.pseudonyms.city(address.city);
        report.add(`${path}.city`, 'city');
      }
      if (typeof address.district === 'string') {
        address.district = this.pseudonyms.county(address.district);
        report.add(`${path}.district`, 'county');
      }
      if (typeof address.postalCode === 'string') {
        address.postalCode = this.pseudonyms.postalCode(address.postalCode);
        report.add(`${path}.postalCode`, 'postalCode');
      }
      if (typeof address.text === 'string') {
        address.text = [...(Array.isArray(address.line) ? address.line : []), address.city ?? ''].filter((part) => typeof part === 'string' && part).join(', ');
        report.add(`${path}.text`, 'address');
      }
    }
  }

  private identifiers(value: Json, path: string, report: ReportBuilder): void {
    for (const identifier of Array.isArray(value) ? value : [value]) {
      if (!isObject(identifier) || typeof identifier.value !== 'string') continue;
      const system = typeof identifier.system === 'string' ? identifier.system : '';
      const typeCode = JSON.stringify(identifier.type ?? '');
      const kind: IdentifierKind = system === SSN_SYSTEM || typeCode.includes('"SS"')
        ? 'ssn'
        : typeCode.includes('"MR"')
          ? 'medicalRecordNumber'
          : 'otherIdentifier';
      const original = identifier.value;
      identifier.value =
        system === NPI_SYSTEM && /^\d{10}$/.test(original)
          ? this.pseudonyms.npi(original)
          : kind === 'ssn'
            ? this.pseudonyms.ssn(original)
            : UUID.test(original)
              ? this.pseudonyms.uuid(original)
              : this.pseudonyms.shaped(kind, original);
      report.add(`${path}.value`, kind);
    }
  }
}
