/**
 * FHIR XML -> FHIR JSON, per the R4 XML rules (https://hl7.org/fhir/R4/xml.html), well enough to validate: primitive
 * values from `value` attributes (typed by the element definition: booleans and numbers become JSON booleans and
 * numbers), `id` and extensions of primitives moved to `_name`, repeated elements as arrays when the element
 * definition's max cardinality is above 1, the `url` attribute of extensions, resources wrapped in their type
 * element (contained, Bundle.entry.resource), and the narrative `div` kept as an XHTML string.
 *
 * Parsing is safe by construction: a DOCTYPE or ENTITY declaration is refused before the parser sees the text
 * (no XXE, no billion laughs), fast-xml-parser runs with entity processing off (the five predefined entities and
 * numeric character references are decoded here, nothing else), and nesting is limited.
 */
import { XMLParser } from 'fast-xml-parser';
import type { FhirDefinitions, FhirPropertyInfo } from './fhir-definitions.ts';

/** The FHIR XML namespace. */
export const FHIR_XML_NAMESPACE = 'http://hl7.org/fhir';
/** Deepest element nesting accepted. */
export const MAX_XML_DEPTH = 100;

/** Result of converting XML. */
export type FhirXmlResult =
  | { ok: true; resource: Record<string, unknown> }
  | { ok: false; code: 'PARSE_ERROR' | 'NOT_FHIR_RESOURCE'; reason: string };

type XmlNode = Record<string, unknown>;

const DECLARATION = /<!\s*(DOCTYPE|ENTITY)/i;
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

function attributes(node: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!node || typeof node !== 'object') return out;
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key.startsWith('@_') && typeof value === 'string') out[key.slice(2)] = value;
  }
  return out;
}

function childKeys(node: unknown): string[] {
  if (!node || typeof node !== 'object') return [];
  return Object.keys(node as XmlNode).filter((k) => !k.startsWith('@_') && k !== '#text');
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
  const attrs = attributes(node);
  const attrText = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('');
  const inner = typeof node === 'string' ? node : typeof (node as XmlNode)?.['#text'] === 'string' ? ((node as XmlNode)['#text'] as string) : '';
  return `<div${attrText}>${inner}</div>`;
}

/** Converts XML for one set of definitions. */
export function createFhirXmlConverter(definitions: FhirDefinitions) {
  const parser = new XMLParser({
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
  });

  /** Generic conversion for elements the definitions do not know, so the validator can name them. */
  function convertUnknown(node: unknown): unknown {
    const attrs = attributes(node);
    const keys = childKeys(node);
    if (keys.length === 0 && attrs.value !== undefined) return decodeXmlText(attrs.value);
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const list = asList((node as XmlNode)[key]).map(convertUnknown);
      out[key] = list.length === 1 ? list[0] : list;
    }
    return out;
  }

  function convertResource(wrapper: unknown): unknown {
    const keys = childKeys(wrapper);
    if (keys.length !== 1) return convertUnknown(wrapper);
    const [type] = keys;
    const node = (wrapper as XmlNode)[type];
    if (Array.isArray(node)) return convertUnknown(wrapper);
    const out: Record<string, unknown> = { resourceType: type };
    convertInto(node, definitions.isResourceType(type) ? type : '', out);
    return out;
  }

  function convertComplex(node: unknown, info: FhirPropertyInfo): Record<string, unknown> {
    const attrs = attributes(node);
    const out: Record<string, unknown> = {};
    if (attrs.id !== undefined) out.id = decodeXmlText(attrs.id);
    if (attrs.url !== undefined) out.url = decodeXmlText(attrs.url);
    convertInto(node, info.type, out);
    return out;
  }

  function convertInto(node: unknown, typeName: string, out: Record<string, unknown>): void {
    for (const key of childKeys(node)) {
      const children = asList((node as XmlNode)[key]);
      const info = typeName ? definitions.property(typeName, key) : undefined;
      if (!info) {
        const list = children.map(convertUnknown);
        out[key] = list.length === 1 ? list[0] : list;
        continue;
      }
      const values: unknown[] = [];
      const extras: Array<Record<string, unknown> | null> = [];
      for (const child of children) {
        if (info.type === 'xhtml') {
          values.push(serializeDiv(child));
          extras.push(null);
        } else if (info.type === 'Resource') {
          values.push(convertResource(child));
          extras.push(null);
        } else if (info.isPrimitive) {
          const attrs = attributes(child);
          values.push(attrs.value === undefined ? null : typedPrimitive(info.type, attrs.value));
          const extra: Record<string, unknown> = {};
          if (attrs.id !== undefined) extra.id = decodeXmlText(attrs.id);
          convertInto(child, 'Element', extra);
          extras.push(Object.keys(extra).length > 0 ? extra : null);
        } else {
          values.push(convertComplex(child, info));
          extras.push(null);
        }
      }
      // More than one occurrence of a single-valued element stays an array so validation reports it.
      const many = info.isArray || values.length > 1;
      if (values.some((v) => v !== null)) out[key] = many ? values : values[0];
      if (extras.some((e) => e !== null)) out[`_${key}`] = many ? extras : extras[0];
    }
  }

  return {
    /** Converts a FHIR XML document to FHIR JSON. */
    convert(xml: string): FhirXmlResult {
      if (DECLARATION.test(xml)) {
        return { ok: false, code: 'PARSE_ERROR', reason: 'XML with a DOCTYPE or ENTITY declaration is refused (FHIR XML never needs one).' };
      }
      let document: XmlNode;
      try {
        document = parser.parse(xml, true) as XmlNode;
      } catch (error) {
        return { ok: false, code: 'PARSE_ERROR', reason: `the XML is not well-formed: ${(error as Error).message}` };
      }
      const roots = childKeys(document);
      if (roots.length !== 1 || Array.isArray(document[roots[0]])) {
        return { ok: false, code: 'PARSE_ERROR', reason: 'the XML must have exactly one root element.' };
      }
      const [rootName] = roots;
      const root = document[rootName];
      const namespace = attributes(root).xmlns;
      if (namespace !== FHIR_XML_NAMESPACE) {
        return {
          ok: false,
          code: 'NOT_FHIR_RESOURCE',
          reason: `the root element <${rootName}> is not in the FHIR namespace ${FHIR_XML_NAMESPACE}.`,
        };
      }
      if (!definitions.isResourceType(rootName)) {
        return { ok: false, code: 'NOT_FHIR_RESOURCE', reason: `<${rootName}> is not a FHIR R4 resource type.` };
      }
      const resource: Record<string, unknown> = { resourceType: rootName };
      convertInto(root, rootName, resource);
      return { ok: true, resource };
    },
  };
}

/** The converter type. */
export type FhirXmlConverter = ReturnType<typeof createFhirXmlConverter>;
