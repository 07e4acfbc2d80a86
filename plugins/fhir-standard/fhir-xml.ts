/**
 * FHIR XML -> FHIR JSON, per the R4 XML rules (https://hl7.org/fhir/R4/xml.html), well enough to validate: primitive
 * values from `value` attributes (typed by the element definition: booleans and numbers become JSON booleans and
 * numbers), `id` and extensions of primitives moved to `_name`, repeated elements as arrays when the element
 * definition's max cardinality is above 1, the `url` attribute of extensions, resources wrapped in their type
 * element (contained, Bundle.entry.resource), and the narrative `div` kept as an XHTML string.
 *
 * Parsing is safe by construction: the kernel's safe XML check (kernel/lib/xml/safe-xml.ts) refuses a DOCTYPE or ENTITY
 * declaration before the parser sees the text (no XXE, no billion laughs) and checks well-formedness and nesting in
 * one pass, with the line and column of the first problem; fast-xml-parser then runs with entity processing off (the
 * five predefined entities and numeric character references are decoded here, nothing else). Element names that are
 * members every JavaScript object inherits (`constructor`, `__proto__`) are set aside as findings, never used as
 * keys, and objects are filled by defining own properties, so no name in the document can reach a prototype.
 *
 * Attributes FHIR XML does not define are reported as findings (`value` on primitives, `id` on elements, `url` on
 * extensions, and namespace declarations are what it defines); the narrative's XHTML attributes are the
 * narrative check's concern.
 */
import { checkXmlBeforeParsing, lazyXmlParser } from '../../kernel/lib/xml/safe-xml.ts';
import type { FhirDefinitions, FhirPropertyInfo } from './fhir-definitions.ts';
import { isInheritedMemberName } from './fhir-content-scan.ts';
import type { FhirFinding } from './fhir-issues.ts';

/** The FHIR XML namespace. */
export const FHIR_XML_NAMESPACE = 'http://hl7.org/fhir';
/** Deepest element nesting accepted. */
export const MAX_XML_DEPTH = 100;
/** Largest FHIR XML document read, in characters, as for JSON (the request limit of the service is lower by default). */
export const MAX_XML_CHARS = 32 * 1024 * 1024;

/** Result of converting XML. */
export type FhirXmlResult =
  | { ok: true; resource: Record<string, unknown>; findings: FhirFinding[] }
  | { ok: false; code: 'PARSE_ERROR' | 'NOT_FHIR_RESOURCE'; reason: string };

type XmlNode = Record<string, unknown>;

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NUMERIC_TYPES = new Set(['integer', 'decimal', 'positiveInt', 'unsignedInt']);

/** Decodes the predefined XML entities and character references; any other `&name;` stays literal. */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return safeCodePoint(Number.parseInt(name.slice(2), 16), whole);
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10), whole);
    return PREDEFINED[name] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/** Marks an element name the parser must not use as a key (it would refuse or rename it). */
const INHERITED_MARK = '\u0001';

/** Most attribute and element-name findings listed per document; the count of the rest is added to the last. */
const MAX_XML_FINDINGS = 20;

/** Sets an own property whatever its name (`__proto__` included), as JSON.parse does. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Attributes of a parsed node, by name without the prefix (a map: attribute names are the sender's). */
function attributes(node: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!node || typeof node !== 'object') return out;
  for (const key of Object.keys(node as XmlNode)) {
    const value = (node as XmlNode)[key];
    if (key.startsWith('@_') && typeof value === 'string') out.set(key.slice(2), value);
  }
  return out;
}

function childKeys(node: unknown): string[] {
  if (!node || typeof node !== 'object') return [];
  return Object.keys(node as XmlNode).filter((k) => !k.startsWith('@_') && k !== '#text');
}

/** Namespace declarations and schema hints may sit on any element: they are XML's, not FHIR's. */
function isNamespaceAttribute(name: string): boolean {
  return name === 'xmlns' || name.startsWith('xmlns:') || name.startsWith('xsi:');
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function typedPrimitive(type: string, raw: string): string | number | boolean {
  const value = decodeXmlText(raw);
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if (NUMERIC_TYPES.has(type) && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

function serializeDiv(node: unknown): string {
  let attrText = '';
  for (const [name, value] of attributes(node)) attrText += ` ${name}="${value}"`;
  const inner = typeof node === 'string' ? node : typeof (node as XmlNode)?.['#text'] === 'string' ? ((node as XmlNode)['#text'] as string) : '';
  return `<div${attrText}>${inner}</div>`;
}

/** Attributes each kind of element may carry in FHIR XML (besides namespace declarations). */
const PRIMITIVE_ATTRIBUTES: ReadonlySet<string> = new Set(['value', 'id']);
const ELEMENT_ATTRIBUTES: ReadonlySet<string> = new Set(['id']);
const EXTENSION_ATTRIBUTES: ReadonlySet<string> = new Set(['id', 'url']);
const NO_ATTRIBUTES: ReadonlySet<string> = new Set();

/** Findings of one conversion. */
class XmlFindings {
  readonly list: FhirFinding[] = [];
  private count = 0;

  add(field: string, message: string): void {
    this.count++;
    if (this.count <= MAX_XML_FINDINGS) this.list.push({ field, code: 'UNKNOWN_ELEMENT', class: 'nonconformant', message });
  }

  done(): FhirFinding[] {
    const last = this.list[this.list.length - 1];
    if (last && this.count > MAX_XML_FINDINGS) last.message += ` ${this.count - MAX_XML_FINDINGS} more such finding(s) were not listed.`;
    return this.list;
  }
}

/** Excerpt of a sender's name or value for sentences. */
function shown(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/** Converts XML for one set of definitions. */
export function createFhirXmlConverter(definitions: FhirDefinitions) {
  const parser = lazyXmlParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    stopNodes: ['*.div'],
    maxNestedTags: MAX_XML_DEPTH,
    // The parser refuses (or renames) such names; marked, they reach the conversion, which reports them.
    transformTagName: (name: string) => (isInheritedMemberName(name) ? `${INHERITED_MARK}${name}` : name),
  });

  /** Reports attributes outside `allowed` on the element at `path`. */
  function checkAttributes(node: unknown, allowed: ReadonlySet<string>, path: string, findings: XmlFindings): void {
    for (const name of attributes(node).keys()) {
      if (allowed.has(name) || isNamespaceAttribute(name)) continue;
      findings.add(`${path}@${shown(name)}`, `${path} carries the attribute ${shown(name)}, which FHIR XML does not define there (it defines value on primitives, id on elements and url on extensions).`);
    }
  }

  /** Reports an element named like an inherited member; true when the key was one (it is then left out). */
  function setAsideInherited(key: string, path: string, findings: XmlFindings): boolean {
    if (!key.startsWith(INHERITED_MARK)) return false;
    const name = key.slice(INHERITED_MARK.length);
    findings.add(`${path}.${name}`, `${path}.${name} is not an element of FHIR R4: "${name}" names a member every JavaScript object inherits, never a FHIR element; it was not read.`);
    return true;
  }

  /** Generic conversion for elements the definitions do not know, so the validator can name them. */
  function convertUnknown(node: unknown, path: string, findings: XmlFindings): unknown {
    const attrs = attributes(node);
    const keys = childKeys(node);
    const value = attrs.get('value');
    if (keys.length === 0 && value !== undefined) return decodeXmlText(value);
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      if (setAsideInherited(key, path, findings)) continue;
      const list = asList((node as XmlNode)[key]).map((child) => convertUnknown(child, `${path}.${key}`, findings));
      defineOwn(out, key, list.length === 1 ? list[0] : list);
    }
    return out;
  }

  function convertResource(wrapper: unknown, path: string, findings: XmlFindings): unknown {
    checkAttributes(wrapper, NO_ATTRIBUTES, path, findings);
    const keys = childKeys(wrapper);
    if (keys.length !== 1) return convertUnknown(wrapper, path, findings);
    const [type] = keys as [string];
    const node = (wrapper as XmlNode)[type];
    if (Array.isArray(node) || type.startsWith(INHERITED_MARK)) return convertUnknown(wrapper, path, findings);
    const out: Record<string, unknown> = { resourceType: type };
    const known = definitions.isResourceType(type);
    if (known) checkAttributes(node, NO_ATTRIBUTES, path, findings);
    convertInto(node, known ? type : '', out, path, findings);
    return out;
  }

  function convertComplex(node: unknown, info: FhirPropertyInfo, path: string, findings: XmlFindings): Record<string, unknown> {
    const attrs = attributes(node);
    const extension = info.type === 'Extension';
    checkAttributes(node, extension ? EXTENSION_ATTRIBUTES : ELEMENT_ATTRIBUTES, path, findings);
    const out: Record<string, unknown> = {};
    const id = attrs.get('id');
    const url = attrs.get('url');
    if (id !== undefined) out.id = decodeXmlText(id);
    if (url !== undefined && extension) out.url = decodeXmlText(url);
    convertInto(node, info.type, out, path, findings);
    return out;
  }

  function convertInto(node: unknown, typeName: string, out: Record<string, unknown>, path: string, findings: XmlFindings): void {
    for (const key of childKeys(node)) {
      if (setAsideInherited(key, path, findings)) continue;
      const children = asList((node as XmlNode)[key]);
      const info = typeName ? definitions.property(typeName, key) : undefined;
      if (!info) {
        const list = children.map((child) => convertUnknown(child, `${path}.${key}`, findings));
        defineOwn(out, key, list.length === 1 ? list[0] : list);
        continue;
      }
      // More than one occurrence of a single-valued element stays an array so validation reports it.
      const many = info.isArray || children.length > 1;
      const values: unknown[] = [];
      const extras: Array<Record<string, unknown> | null> = [];
      for (let i = 0; i < children.length; i++) {
        const child = children[i];
        const childPath = many ? `${path}.${key}[${i}]` : `${path}.${key}`;
        if (info.type === 'xhtml') {
          values.push(serializeDiv(child));
          extras.push(null);
        } else if (info.type === 'Resource') {
          values.push(convertResource(child, childPath, findings));
          extras.push(null);
        } else if (info.isPrimitive) {
          const attrs = attributes(child);
          checkAttributes(child, PRIMITIVE_ATTRIBUTES, childPath, findings);
          const value = attrs.get('value');
          const id = attrs.get('id');
          values.push(value === undefined ? null : typedPrimitive(info.type, value));
          const extra: Record<string, unknown> = {};
          if (id !== undefined) extra.id = decodeXmlText(id);
          convertInto(child, 'Element', extra, childPath, findings);
          extras.push(Object.keys(extra).length > 0 ? extra : null);
        } else {
          values.push(convertComplex(child, info, childPath, findings));
          extras.push(null);
        }
      }
      if (values.some((v) => v !== null)) defineOwn(out, key, many ? values : values[0]);
      if (extras.some((e) => e !== null)) defineOwn(out, `_${key}`, many ? extras : extras[0]);
    }
  }

  return {
    /** Converts a FHIR XML document to FHIR JSON. */
    convert(xml: string): FhirXmlResult {
      const checked = checkXmlBeforeParsing(xml, { maxChars: MAX_XML_CHARS, maxDepth: MAX_XML_DEPTH });
      if (!checked.ok) {
        const refusal = checked.refusal;
        const reason =
          refusal.kind === 'too-large'
            ? `the XML is ${refusal.chars} characters long, above the limit of ${refusal.maxChars}.`
            : refusal.kind === 'declaration'
              ? `XML with a DOCTYPE or ENTITY declaration is refused (a ${refusal.declaration} at line ${refusal.line}, column ${refusal.column}; FHIR XML never needs one).`
              : `the XML is not well-formed at line ${refusal.line}, column ${refusal.column}: ${refusal.reason}.`;
        return { ok: false, code: 'PARSE_ERROR', reason };
      }
      let document: XmlNode;
      try {
        document = parser.parse(checked.content) as XmlNode;
      } catch (error) {
        return { ok: false, code: 'PARSE_ERROR', reason: `the XML is not well-formed: ${(error as Error).message}` };
      }
      const roots = childKeys(document);
      if (roots.length !== 1 || Array.isArray(document[roots[0]])) {
        return { ok: false, code: 'PARSE_ERROR', reason: 'the XML must have exactly one root element.' };
      }
      const [rootName] = roots as [string];
      const root = document[rootName];
      const namespace = attributes(root).get('xmlns');
      if (namespace !== FHIR_XML_NAMESPACE) {
        return {
          ok: false,
          code: 'NOT_FHIR_RESOURCE',
          reason: `the root element <${shown(rootName.replace(INHERITED_MARK, ''))}> is not in the FHIR namespace ${FHIR_XML_NAMESPACE}.`,
        };
      }
      if (!definitions.isResourceType(rootName)) {
        return { ok: false, code: 'NOT_FHIR_RESOURCE', reason: `<${shown(rootName.replace(INHERITED_MARK, ''))}> is not a FHIR R4 resource type.` };
      }
      const findings = new XmlFindings();
      checkAttributes(root, NO_ATTRIBUTES, rootName, findings);
      const resource: Record<string, unknown> = { resourceType: rootName };
      convertInto(root, rootName, resource, rootName, findings);
      return { ok: true, resource, findings: findings.done() };
    },
  };
}
