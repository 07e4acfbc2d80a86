/**
 * Writes SCRIPT XML from a small element tree: two-space indentation, attributes in the order given, text
 * escaped. Output is byte-stable for the same tree (generation is seedable and byte-identical).
 */
import { escapeXmlAttribute } from '../../../kernel/lib/xml/xml-escape.ts';

/** An element to write: text content or children, never both. */
export interface XmlNode {
  name: string;
  attributes?: Record<string, string>;
  text?: string;
  children?: XmlNode[];
}

/** Escapes text and attribute values alike (quotes too, so a value may move between them unchanged). */
export const escapeXml: (value: string) => string = escapeXmlAttribute;

/** Shorthand for a text element. */
export function el(name: string, text: string, attributes?: Record<string, string>): XmlNode {
  return { name, text, ...(attributes ? { attributes } : {}) };
}

/** Shorthand for a container element (undefined children are skipped, for optional parts). */
export function group(name: string, children: Array<XmlNode | undefined>, attributes?: Record<string, string>): XmlNode {
  return { name, children: children.filter((c): c is XmlNode => c !== undefined), ...(attributes ? { attributes } : {}) };
}

function render(node: XmlNode, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  const attrs = Object.entries(node.attributes ?? {})
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  if (node.children && node.children.length > 0) {
    out.push(`${pad}<${node.name}${attrs}>`);
    for (const child of node.children) render(child, depth + 1, out);
    out.push(`${pad}</${node.name}>`);
  } else {
    out.push(`${pad}<${node.name}${attrs}>${escapeXml(node.text ?? '')}</${node.name}>`);
  }
}

/** The document as text, with the XML declaration and a final newline. */
export function renderXmlDocument(root: XmlNode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  render(root, 0, out);
  return `${out.join('\n')}\n`;
}
