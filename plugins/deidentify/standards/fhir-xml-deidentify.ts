/**
 * De-identification of FHIR R4 XML (a resource or a Bundle) with the very rules of FHIR JSON (fhir-deidentify.ts):
 * the document is read safely (the kernel's check refuses DOCTYPE and ENTITY declarations, too large or too deep
 * input and malformed XML before fast-xml-parser sees it), viewed as the FHIR JSON it stands for (primitives are
 * their `value` attributes, a resource element becomes an object with its `resourceType`, the narrative `div` a
 * string), that view is de-identified by the JSON engine, and each replaced value is written back into its `value`
 * attribute. Element order, attributes, extensions, namespaces and the XML declaration stay; a removed `photo` is
 * removed; the narrative is replaced by the same well-formed XHTML as in JSON.
 */
import { createRequire } from 'node:module';
import type { XMLBuilder } from 'fast-xml-parser';
import { checkXmlBeforeParsing, lazyXmlParser, type SafeXmlRefusal } from '../../../kernel/lib/xml/safe-xml.ts';
import type { ReportBuilder } from '../deidentify-report.ts';
import type { FhirDeidentifier } from './fhir-deidentify.ts';
import type { Pseudonymizer } from '../replacement/pseudonyms.ts';
import { travelXmlWithNeedles } from './xml-travel.ts';

/** Largest FHIR XML document read, in characters. */
const MAX_XML_CHARS = 32 * 1024 * 1024;
/** Deepest element nesting accepted. */
const MAX_XML_DEPTH = 100;

/**
 * Elements the JSON engine reads as arrays even when they occur once (as FHIR JSON writes them): identifying lists of
 * people and their parts; any other element is an array only when it repeats.
 */
const ALWAYS_ARRAYS = new Set(['identifier', 'name', 'telecom', 'address', 'given', 'prefix', 'suffix', 'line']);

/** Why a FHIR XML document could not be read (the caller turns it into a 400). */
export class FhirXmlUnreadableError extends Error {}

/** A node of fast-xml-parser's ordered tree: `{ tag: children, ':@': attributes }` or `{ '#text': text }`. */
type OrderedNode = Record<string, unknown>;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const XML_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  preserveOrder: true,
  parseTagValue: false,
  parseAttributeValue: false,
  // Safe once the check refused DOCTYPE and ENTITY: only the predefined entities and character references remain.
  processEntities: true,
  htmlEntities: false,
  trimValues: false,
  maxNestedTags: MAX_XML_DEPTH,
} as const;

const parser = lazyXmlParser(XML_OPTIONS);
let builder: XMLBuilder | undefined;

function build(tree: unknown): string {
  if (!builder) {
    // The class gets a name of its own before it is constructed: written as one expression, with the require call in
    // parentheses after the keyword, the compiled code loses those parentheses and constructs the require call.
    const { XMLBuilder: Builder } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
    builder = new Builder({ ...XML_OPTIONS, suppressEmptyNode: true });
  }
  return builder.build(tree) as string;
}

/** The narrative that replaces a resource's own, as an ordered node (the JSON engine's text, as XHTML). */
function narrativeNode(): OrderedNode {
  return {
    div: [{ p: [{ '#text': 'Narrative removed by de-identification.' }] }],
    ':@': { '@_xmlns': 'http://www.w3.org/1999/xhtml' },
  };
}

function describeRefusal(refusal: SafeXmlRefusal): string {
  if (refusal.kind === 'too-large') return `it has ${refusal.chars} characters, more than ${refusal.maxChars}`;
  if (refusal.kind === 'declaration') return `it declares a ${refusal.declaration} (line ${refusal.line}, column ${refusal.column}), which is refused`;
  return `${refusal.reason} (line ${refusal.line}, column ${refusal.column})`;
}

function tagOf(node: OrderedNode): string | undefined {
  return Object.keys(node).find((key) => key !== ':@');
}

function childrenOf(node: OrderedNode, tag: string): OrderedNode[] {
  const children = node[tag];
  return Array.isArray(children) ? (children as OrderedNode[]) : [];
}

function attributesOf(node: OrderedNode): Record<string, string> {
  const attributes = node[':@'];
  return attributes && typeof attributes === 'object' ? (attributes as Record<string, string>) : {};
}

/** One object of the JSON view and the XML element whose child elements are its keys. */
interface Binding {
  object: { [key: string]: Json };
  element: OrderedNode;
  tag: string;
  /** The narrative `div` as the view showed it, to tell whether the engine replaced it. */
  div?: string;
}

/** De-identifies FHIR XML documents with the FHIR JSON engine's rules. */
export class FhirXmlDeidentifier {
  constructor(
    private readonly json: FhirDeidentifier,
    private readonly pseudonyms: Pseudonymizer,
  ) {}

  /** The de-identified document; throws {@link FhirXmlUnreadableError} for XML that is refused or is no FHIR resource. */
  deidentify(content: string, report: ReportBuilder): string {
    const checked = checkXmlBeforeParsing(content, { maxChars: MAX_XML_CHARS, maxDepth: MAX_XML_DEPTH });
    if (!checked.ok) throw new FhirXmlUnreadableError(describeRefusal(checked.refusal));
    const tree = parser.parse(checked.content) as OrderedNode[];
    const root = tree.find((node) => {
      const tag = tagOf(node);
      return tag !== undefined && !tag.startsWith('?') && tag !== '#text';
    });
    const rootTag = root ? tagOf(root) : undefined;
    if (!root || !rootTag || !/^[A-Z][A-Za-z]+$/.test(rootTag)) throw new FhirXmlUnreadableError('its root element is not a FHIR resource');
    const bindings: Binding[] = [];
    const view = this.resourceView(root, rootTag, bindings);
    this.json.deidentify(view, report, false);
    for (const binding of bindings) this.writeBack(binding);
    const output = this.travel(build(tree), report);
    // The builder writes the declaration and the root on one line; the original's line break after it is kept.
    const declaration = /^<\?xml[^>]*\?>(\r?\n)/.exec(checked.content);
    return declaration ? output.replace(/^(<\?xml[^>]*\?>)/, `$1${declaration[1]}`) : output;
  }

  /** Known identifiers in comments, element names and any value the view did not hold; comments scrubbed as free text. */
  private travel(xml: string, report: ReportBuilder): string {
    return travelXmlWithNeedles(xml, this.pseudonyms.currentNeedles(), (value) => this.json.scrubText(value), report);
  }

  /** The JSON view of a resource element. */
  private resourceView(element: OrderedNode, tag: string, bindings: Binding[]): { [key: string]: Json } {
    const object: { [key: string]: Json } = { resourceType: tag };
    this.fill(object, element, tag, bindings);
    return object;
  }

  /** Fills `object` with the child elements of `element`, grouped by name. */
  private fill(object: { [key: string]: Json }, element: OrderedNode, tag: string, bindings: Binding[]): void {
    const binding: Binding = { object, element, tag };
    bindings.push(binding);
    // An extension's URL is an attribute in XML: the engine needs it to classify the extension.
    const url = attributesOf(element)['@_url'];
    if (url !== undefined && tag !== 'div') object.url = url;
    const groups = new Map<string, Json[]>();
    for (const child of childrenOf(element, tag)) {
      const name = tagOf(child);
      if (!name || name === '#text' || name.startsWith('?')) continue;
      let value: Json;
      if (name === 'div') {
        value = '<div/>';
        binding.div = value;
      } else value = this.elementView(child, name, bindings);
      const list = groups.get(name);
      if (list) list.push(value);
      else groups.set(name, [value]);
    }
    for (const [name, values] of groups) object[name] = values.length > 1 || ALWAYS_ARRAYS.has(name) ? values : values[0]!;
    // Extensions of primitives, as FHIR JSON holds them (`_birthDate`): the engine walks them (a birth time moves too).
    for (const child of childrenOf(element, tag)) {
      const name = tagOf(child);
      if (!name || attributesOf(child)['@_value'] === undefined || !childrenOf(child, name).some((inner) => tagOf(inner) === 'extension')) continue;
      const extensions: { [key: string]: Json } = {};
      this.fill(extensions, child, name, bindings);
      const list = object[`_${name}`];
      if (Array.isArray(list)) list.push(extensions);
      else object[`_${name}`] = [extensions];
    }
  }

  /** The JSON view of one element: a primitive's value, a contained resource, or an object of its children. */
  private elementView(element: OrderedNode, tag: string, bindings: Binding[]): Json {
    const children = childrenOf(element, tag).filter((child) => {
      const name = tagOf(child);
      return name !== undefined && name !== '#text';
    });
    const inner = children.length === 1 ? tagOf(children[0]!) : undefined;
    if (inner && /^[A-Z][A-Za-z]+$/.test(inner)) return this.resourceView(children[0]!, inner, bindings);
    const value = attributesOf(element)['@_value'];
    if (value !== undefined && children.every((child) => tagOf(child) === 'extension')) return value;
    const object: { [key: string]: Json } = {};
    this.fill(object, element, tag, bindings);
    return object;
  }

  /** Writes the engine's replacements back into the element's children. */
  private writeBack(binding: Binding): void {
    const { object, element, tag } = binding;
    const children = childrenOf(element, tag);
    const seen = new Map<string, number>();
    const kept: OrderedNode[] = [];
    for (const child of children) {
      const name = tagOf(child);
      if (!name || name === '#text' || name.startsWith('?')) {
        kept.push(child);
        continue;
      }
      const value = object[name];
      // The engine removed the element (a photo).
      if (value === undefined) continue;
      const position = seen.get(name) ?? 0;
      seen.set(name, position + 1);
      if (name === 'div') {
        kept.push(value !== binding.div ? narrativeNode() : child);
        continue;
      }
      const item = Array.isArray(value) ? value[position] : position === 0 ? value : undefined;
      if (typeof item === 'string') {
        const attributes = attributesOf(child);
        if (attributes['@_value'] !== undefined && attributes['@_value'] !== item) attributes['@_value'] = item;
      }
      kept.push(child);
    }
    element[tag] = kept;
  }
}
