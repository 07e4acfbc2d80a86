/**
 * Reads untrusted content into a FHIR JSON resource: JSON (a UTF-8 BOM tolerated) or FHIR XML (fhir-xml.ts).
 * Never throws: content that is not JSON/XML is a PARSE_ERROR, JSON that is not a FHIR resource (no or unknown
 * resourceType) is NOT_FHIR_RESOURCE. Size and nesting are bounded so hostile input cannot exhaust the process.
 */
import type { FhirDefinitions } from './fhir-definitions.ts';
import type { FhirFinding } from './fhir-issues.ts';
import { createFhirXmlConverter } from './fhir-xml.ts';
import { MAX_JSON_DEPTH, jsonNestingDepth } from '../../kernel/lib/input/json-depth.ts';

/** Largest content accepted, in characters (a resource with a 10 MB attachment still fits). */
export const MAX_CONTENT_CHARS = 32 * 1024 * 1024;
/** Deepest JSON nesting accepted: the service's one limit (R4 resources stay far below; deeper input is hostile or broken). */
export { MAX_JSON_DEPTH, jsonNestingDepth };

/** Outcome of parsing. */
export type FhirParseResult =
  | { ok: true; format: 'json' | 'xml'; resource: Record<string, unknown>; findings: FhirFinding[] }
  | { ok: false; format: 'json' | 'xml' | 'unknown'; finding: FhirFinding };

/** Removes a leading UTF-8 byte order mark and surrounding whitespace. */
export function stripBom(content: string): string {
  return (content.charCodeAt(0) === 0xfeff ? content.slice(1) : content).trim();
}

function failure(format: 'json' | 'xml' | 'unknown', code: 'PARSE_ERROR' | 'NOT_FHIR_RESOURCE', message: string): FhirParseResult {
  return { ok: false, format, finding: { field: '(content)', code, class: 'unreadable', message } };
}

/** Builds the parser over one set of definitions (needed to type XML values and check resource types). */
export function createFhirParser(definitions: FhirDefinitions) {
  const xml = createFhirXmlConverter(definitions);

  /** `findings`: what reading found without refusing the content (attributes FHIR XML does not define). */
  function checkResource(format: 'json' | 'xml', value: unknown, findings: FhirFinding[] = []): FhirParseResult {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return failure(format, 'NOT_FHIR_RESOURCE', 'The content is JSON but not a FHIR resource: a resource is a JSON object with a resourceType.');
    }
    const resource = value as Record<string, unknown>;
    const type = resource.resourceType;
    if (type === undefined) {
      return failure(format, 'NOT_FHIR_RESOURCE', 'The content is JSON but not a FHIR resource: it has no resourceType property.');
    }
    if (typeof type !== 'string' || !definitions.isResourceType(type)) {
      return failure(format, 'NOT_FHIR_RESOURCE', `The content is JSON but not a FHIR R4 resource: resourceType ${JSON.stringify(type)} is not defined by FHIR R4.`);
    }
    return { ok: true, format, resource, findings };
  }

  return {
    /** Parses content into a FHIR JSON resource, or a finding saying why not. */
    parse(content: string): FhirParseResult {
      if (typeof content !== 'string') return failure('unknown', 'PARSE_ERROR', 'The content must be a string.');
      if (content.length > MAX_CONTENT_CHARS) {
        return failure('unknown', 'PARSE_ERROR', `The content is ${content.length} characters long; the limit is ${MAX_CONTENT_CHARS}.`);
      }
      const text = stripBom(content);
      if (text.startsWith('<')) {
        const converted = xml.convert(text);
        if (!converted.ok) return failure('xml', converted.code, `The content is not a FHIR XML resource: ${converted.reason}`);
        return checkResource('xml', converted.resource, converted.findings);
      }
      if (!text.startsWith('{') && !text.startsWith('[')) {
        return failure('unknown', 'PARSE_ERROR', 'The content is neither JSON nor XML, so it cannot be a FHIR resource.');
      }
      if (jsonNestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
        return failure('json', 'PARSE_ERROR', `The JSON nests deeper than ${MAX_JSON_DEPTH} levels, which no FHIR resource needs.`);
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        return failure('json', 'PARSE_ERROR', `The content is not well-formed JSON: ${(error as Error).message}.`);
      }
      return checkResource('json', value);
    },
  };
}

/** The parser type. */
export type FhirParser = ReturnType<typeof createFhirParser>;
