/**
 * De-identification of FHIR R4 JSON (a resource or a Bundle): names, telecom, addresses, identifiers, dates, photos,
 * narrative and the displayed names of references to people are replaced wherever they occur; codes, references and
 * structure stay, so the resource validates as the original did. Paths in the report are element paths without
 * indexes (`Patient.name.family`, `Bundle.entry.resource.Patient.birthDate`).
 */
import { looksLikeIsoDate, shiftIsoDate } from './date-shift.ts';
import type { IdentifierKind, Pseudonymizer } from './pseudonyms.ts';
import type { ReportBuilder } from './deidentify-report.ts';
import { MAX_JSON_DEPTH } from '../../kernel/json-depth.ts';

/** Resource types that are people (their references' `display` is a person's name). */
const PEOPLE = new Set(['Patient', 'RelatedPerson', 'Practitioner', 'Person', 'PractitionerRole']);

/** Identifier systems with a known shape. */
const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
const SSN_SYSTEM = 'http://hl7.org/fhir/sid/us-ssn';

/** Keys whose string values are dates that must not move (they describe the record, not the patient). */
const KEPT_DATE_KEYS = new Set(['lastUpdated', 'version', 'id']);

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

/** De-identifies FHIR JSON resources. */
export class FhirDeidentifier {
  constructor(private readonly pseudonyms: Pseudonymizer) {}

  /** Rewrites a parsed resource in place and returns it; `report` receives what was replaced. */
  deidentify(resource: Json, report: ReportBuilder): Json {
    const offsetDays = this.pseudonyms.dateOffsetDays(this.patientKey(resource));
    return this.walk(resource, '', '', { report, offsetDays, depth: 0 });
  }

  /** The first Patient's first identifier value, else its name and birth date, else the first patient reference. */
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
        if (isObject(first)) found = `id:${String(first.value)}`;
        else found = `name:${JSON.stringify(node.name ?? null)}|${String(node.birthDate ?? '')}`;
        return;
      }
      for (const value of Object.values(node)) visit(value, depth + 1);
    };
    visit(resource, 0);
    if (found !== undefined) return found;
    const text = JSON.stringify(resource);
    return /"reference"\s*:\s*"((?:[^"]*\/)?Patient\/[^"]+)"/.exec(text)?.[1] ?? '';
  }

  private walk(node: Json, path: string, key: string, context: { report: ReportBuilder; offsetDays: number; depth: number }): Json {
    if (context.depth > MAX_DEPTH) throw new TooDeepError();
    const deeper = { ...context, depth: context.depth + 1 };
    if (Array.isArray(node)) return node.map((item) => this.walk(item, path, key, deeper));
    if (typeof node === 'string') {
      if (!KEPT_DATE_KEYS.has(key) && looksLikeIsoDate(node)) {
        const shifted = shiftIsoDate(node, context.offsetDays);
        if (shifted !== undefined && shifted !== node) {
          this.pseudonyms.noteDate(node, shifted);
          context.report.add(path, 'date');
          return shifted;
        }
      }
      return node;
    }
    if (!isObject(node)) return node;
    const base = typeof node.resourceType === 'string' ? (path ? `${path}.${node.resourceType}` : node.resourceType) : path;
    const { report } = context;
    const { pseudonyms } = this;
    for (const [name, value] of Object.entries(node)) {
      const childPath = `${base}.${name}`;
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
      if (name === 'name' && value !== null && typeof value === 'object') {
        this.names(value, childPath, report);
        continue;
      }
      if (name === 'telecom') {
        this.telecoms(value, childPath, report);
        continue;
      }
      if (name === 'address' && value !== null && typeof value === 'object') {
        this.addresses(value, childPath, report);
        continue;
      }
      if (name === 'identifier' && value !== null && typeof value === 'object') {
        this.identifiers(value, childPath, report);
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
