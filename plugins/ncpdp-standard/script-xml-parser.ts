/**
 * Safe reading of SCRIPT XML. Untrusted XML is refused before parsing when it declares a DOCTYPE or an ENTITY
 * (external entities read files or reach the network, nested entities expand to gigabytes), when it is larger
 * than the size limit or nested deeper than the depth limit. Well-formedness is checked by fast-xml-parser's
 * validator, which gives the line and column of the first problem; the parser then keeps element order
 * (`preserveOrder`), because SCRIPT validates order.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ValidationIssue } from '../../kernel/standards-registry.ts';
import type { ScriptDocument, ScriptElement } from './ncpdp-model.ts';
import { parseErrorIssue } from './ncpdp-issues.ts';

/** Largest SCRIPT message accepted, in characters (real messages are a few kilobytes). */
export const SCRIPT_MAX_CHARS = 2_000_000;
/** Deepest element nesting accepted (real SCRIPT messages nest about 10 levels). */
export const SCRIPT_MAX_DEPTH = 64;

/** Outcome of reading SCRIPT XML: the document, or the PARSE_ERROR finding that stopped it. */
export type ScriptParseOutcome = { ok: true; document: ScriptDocument } | { ok: false; issue: ValidationIssue };

const parser = new XMLParser({
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
});

/** 1-based line and column of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Deepest element nesting, counted on the raw text without building anything (so a deeply nested bomb is refused
 * before any recursive code sees it). Comments, CDATA and declarations are skipped; quotes inside tags are honoured.
 */
function nestingDepth(text: string, limit: number): { depth: number; offset: number } {
  let depth = 0;
  let max = 0;
  let i = text.indexOf('<');
  while (i !== -1 && i < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next === 33 /* ! */) {
      const close = text.startsWith('<!--', i) ? text.indexOf('-->', i + 4) : text.startsWith('<![CDATA[', i) ? text.indexOf(']]>', i + 9) : text.indexOf('>', i);
      if (close === -1) break;
      i = text.indexOf('<', close + 1);
      continue;
    }
    if (next === 63 /* ? */) {
      const close = text.indexOf('?>', i);
      if (close === -1) break;
      i = text.indexOf('<', close + 2);
      continue;
    }
    // Find the tag end, skipping quoted attribute values.
    let j = i + 1;
    let quote = 0;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (quote) {
        if (c === quote) quote = 0;
      } else if (c === 34 || c === 39) quote = c;
      else if (c === 62 /* > */) break;
    }
    if (next === 47 /* / */) depth--;
    else if (text.charCodeAt(j - 1) !== 47) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return { depth: max, offset: i };
      }
    }
    i = text.indexOf('<', j + 1);
  }
  return { depth: max, offset: -1 };
}

type OrderedNode = Record<string, unknown>;

/** Local part of a possibly prefixed name. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** Converts one preserveOrder node (`{Tag: [...children], ':@': {attrs}}`) to a {@link ScriptElement}. */
function toElement(node: OrderedNode): ScriptElement | undefined {
  let tag: string | undefined;
  for (const key of Object.keys(node)) {
    if (key !== ':@' && key !== '#text') {
      tag = key;
      break;
    }
  }
  if (tag === undefined) return undefined;
  const attributes: Record<string, string> = {};
  const rawAttributes = node[':@'] as Record<string, unknown> | undefined;
  if (rawAttributes) for (const [k, v] of Object.entries(rawAttributes)) attributes[k] = String(v);
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
  return { name: localName(tag), attributes: { ...attributes, ...(tag.includes(':') ? { '#prefix': tag.slice(0, tag.indexOf(':')) } : {}) }, children, text: text.trim() };
}

/** Reads SCRIPT XML safely; never throws for bad content. */
export function parseScriptXml(input: string): ScriptParseOutcome {
  const content = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (content.length > SCRIPT_MAX_CHARS) {
    return { ok: false, issue: parseErrorIssue('Message', `The message is ${content.length} characters long, above the limit of ${SCRIPT_MAX_CHARS}; it was not read.`) };
  }
  const declaration = /<!(DOCTYPE|ENTITY)/i.exec(content);
  if (declaration) {
    const { line, column } = lineAndColumn(content, declaration.index);
    return {
      ok: false,
      issue: parseErrorIssue(
        'Message',
        `Line ${line}, column ${column}: a <!${declaration[1].toUpperCase()} declaration was refused; SCRIPT messages never carry one and it could expand entities or read external files.`,
      ),
    };
  }
  const depth = nestingDepth(content, SCRIPT_MAX_DEPTH);
  if (depth.depth > SCRIPT_MAX_DEPTH) {
    const { line, column } = lineAndColumn(content, depth.offset);
    return { ok: false, issue: parseErrorIssue('Message', `Line ${line}, column ${column}: elements are nested deeper than ${SCRIPT_MAX_DEPTH} levels; the message was not read.`) };
  }
  let verdict: ReturnType<typeof XMLValidator.validate>;
  try {
    verdict = XMLValidator.validate(content);
  } catch (error) {
    return { ok: false, issue: parseErrorIssue('Message', `The XML could not be read: ${(error as Error).message}`) };
  }
  if (verdict !== true) {
    const { line, col, msg } = verdict.err;
    return { ok: false, issue: parseErrorIssue('Message', `The XML is not well-formed at line ${line}, column ${col}: ${msg}`) };
  }
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(content) as OrderedNode[];
  } catch (error) {
    return { ok: false, issue: parseErrorIssue('Message', `The XML could not be read: ${(error as Error).message}`) };
  }
  const root = nodes.map(toElement).find((element) => element !== undefined);
  if (!root) return { ok: false, issue: parseErrorIssue('Message', 'The content holds no XML element.') };
  const prefix = root.attributes['#prefix'];
  const namespace = root.attributes[prefix ? `xmlns:${prefix}` : 'xmlns'];
  return { ok: true, document: { format: 'script', root, ...(namespace !== undefined ? { namespace } : {}) } };
}
