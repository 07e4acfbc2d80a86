/**
 * Safe reading of SCRIPT XML: the kernel's safe XML check (kernel/lib/xml/safe-xml.ts: size limit, DOCTYPE and ENTITY
 * refused, well-formedness and depth in one pass, with line and column) runs first; fast-xml-parser then builds the
 * tree keeping element order (`preserveOrder`), because SCRIPT validates order.
 */
import type { ValidationIssue } from '../../../kernel/standards-registry.ts';
import type { ScriptDocument, ScriptElement } from '../ncpdp-model.ts';
import { parseErrorIssue } from '../ncpdp-issues.ts';
import { checkXmlBeforeParsing, lazyXmlParser } from '../../../kernel/lib/xml/safe-xml.ts';

/** Largest SCRIPT message accepted, in characters (real messages are a few kilobytes). */
export const SCRIPT_MAX_CHARS = 2_000_000;
/** Deepest element nesting accepted (real SCRIPT messages nest about 10 levels). */
export const SCRIPT_MAX_DEPTH = 64;

/** Outcome of reading SCRIPT XML: the document, or the PARSE_ERROR finding that stopped it. */
export type ScriptParseOutcome = { ok: true; document: ScriptDocument } | { ok: false; issue: ValidationIssue };

/** Options of the fast-xml-parser step (exported so the benchmark's ceiling runs the very same parse). */
export const SCRIPT_XML_PARSER_OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
} as const;

const parser = lazyXmlParser(SCRIPT_XML_PARSER_OPTIONS);

type OrderedNode = Record<string, unknown>;

/** Converts one preserveOrder node (`{Tag: [...children], ':@': {attrs}}`) to a {@link ScriptElement}. */
function toElement(node: OrderedNode): ScriptElement | undefined {
  let tag: string | undefined;
  for (const key in node) {
    if (key !== ':@' && key !== '#text') {
      tag = key;
      break;
    }
  }
  if (tag === undefined) return undefined;
  const attributes: Record<string, string> = {};
  const rawAttributes = node[':@'] as Record<string, unknown> | undefined;
  if (rawAttributes) for (const key in rawAttributes) attributes[key] = String(rawAttributes[key]);
  const colon = tag.indexOf(':');
  if (colon !== -1) attributes['#prefix'] = tag.slice(0, colon);
  const children: ScriptElement[] = [];
  let text = '';
  for (const child of node[tag] as OrderedNode[]) {
    if ('#text' in child) {
      text += String(child['#text']);
      continue;
    }
    const element = toElement(child);
    if (element) children.push(element);
  }
  return { name: colon === -1 ? tag : tag.slice(colon + 1), attributes, children, text: text.trim() };
}

/** Reads SCRIPT XML safely; never throws for bad content. */
export function parseScriptXml(input: string): ScriptParseOutcome {
  const checked = checkXmlBeforeParsing(input, { maxChars: SCRIPT_MAX_CHARS, maxDepth: SCRIPT_MAX_DEPTH });
  if (!checked.ok) {
    const refusal = checked.refusal;
    const message =
      refusal.kind === 'too-large'
        ? `The message is ${refusal.chars} characters long, above the limit of ${refusal.maxChars}; it was not read.`
        : refusal.kind === 'declaration'
          ? `Line ${refusal.line}, column ${refusal.column}: a <!${refusal.declaration} declaration was refused; SCRIPT messages never carry one and it could expand entities or read external files.`
          : `The XML is not well-formed at line ${refusal.line}, column ${refusal.column}: ${refusal.reason}.`;
    return { ok: false, issue: parseErrorIssue('Message', message) };
  }
  const content = checked.content;
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(content) as OrderedNode[];
  } catch (error) {
    // The parser refuses names that every JavaScript object inherits (`constructor`, `__proto__`): say why plainly.
    const refused = /Invalid name: "([^"]{1,40})" is a reserved/.exec((error as Error).message)?.[1];
    const reason = refused
      ? `an element or attribute is named "${refused}", a member every JavaScript object inherits, which no SCRIPT message uses`
      : (error as Error).message;
    return { ok: false, issue: parseErrorIssue('Message', `The XML could not be read: ${reason}.`) };
  }
  const root = nodes.map(toElement).find((element) => element !== undefined);
  if (!root) return { ok: false, issue: parseErrorIssue('Message', 'The content holds no XML element.') };
  const prefix = root.attributes['#prefix'];
  const namespace = root.attributes[prefix ? `xmlns:${prefix}` : 'xmlns'];
  return { ok: true, document: { format: 'script', root, ...(namespace !== undefined ? { namespace } : {}) } };
}
