/**
 * The one safe way untrusted XML is read (FHIR XML, NCPDP SCRIPT): before fast-xml-parser sees the text, it is
 * refused when it is larger than the caller's limit or declares a DOCTYPE or an ENTITY (external entities read files
 * or reach the network, nested entities expand to gigabytes), and it is checked for well-formedness and nesting
 * depth in one pass (kernel/lib/xml/xml-well-formedness.ts) that names the line and column of the first problem. Only then
 * does the caller parse it, with entity processing limited to what XML predefines. One pass of checking instead of
 * the parser's own validator halves the cost of reading.
 */
import { createRequire } from 'node:module';
import type { X2jOptions, XMLParser } from 'fast-xml-parser';
import { checkWellFormed } from './xml-well-formedness.ts';

/** Limits of one read. */
export interface SafeXmlLimits {
  /** Largest content accepted, in characters. */
  maxChars: number;
  /** Deepest element nesting accepted. */
  maxDepth: number;
}

/** Why XML was refused before parsing; `line` and `column` are 1-based. */
export type SafeXmlRefusal =
  | { kind: 'too-large'; chars: number; maxChars: number }
  | { kind: 'declaration'; declaration: 'DOCTYPE' | 'ENTITY'; line: number; column: number }
  | { kind: 'malformed'; reason: string; line: number; column: number };

/** The content without a byte-order mark, ready to parse, or why it must not be parsed. */
export type SafeXmlCheck = { ok: true; content: string } | { ok: false; refusal: SafeXmlRefusal };

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
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

/** Checks untrusted XML before it is parsed; never throws for bad content. */
export function checkXmlBeforeParsing(input: string, limits: SafeXmlLimits): SafeXmlCheck {
  const content = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (content.length > limits.maxChars) return { ok: false, refusal: { kind: 'too-large', chars: content.length, maxChars: limits.maxChars } };
  const declaration = /<!\s*(DOCTYPE|ENTITY)/i.exec(content);
  if (declaration) {
    const kind = (declaration[1] as string).toUpperCase() as 'DOCTYPE' | 'ENTITY';
    return { ok: false, refusal: { kind: 'declaration', declaration: kind, ...lineAndColumn(content, declaration.index) } };
  }
  const verdict = checkWellFormed(content, limits.maxDepth);
  if (!verdict.ok) return { ok: false, refusal: { kind: 'malformed', reason: verdict.reason, ...lineAndColumn(content, verdict.offset) } };
  return { ok: true, content };
}

let parserClass: typeof XMLParser | undefined;

/**
 * A fast-xml-parser parser with these options, made on its first use: the module loads only then, so commands and
 * services that read no XML never pay for it. Parse only what {@link checkXmlBeforeParsing} accepted.
 */
export function lazyXmlParser(options: Partial<X2jOptions>): { parse(content: string): unknown } {
  let parser: XMLParser | undefined;
  return {
    parse(content) {
      parserClass ??= (createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser')).XMLParser;
      parser ??= new parserClass(options);
      return parser.parse(content);
    },
  };
}
