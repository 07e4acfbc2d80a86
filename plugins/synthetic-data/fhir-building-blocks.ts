/**
 * Small FHIR R4 shapes every synthetic FHIR writer uses (the FHIR generator, the population's Bundles, the Patient
 * shape): one definition, so narratives stay valid XHTML and coded values keep one form everywhere.
 */
import { escapeXmlText } from '../../kernel/lib/xml/xml-escape.ts';

/** A plain JSON object of a FHIR resource or element. */
export type FhirJson = Record<string, unknown>;

/** Escapes the characters that XHTML text content may not hold as they are (`&`, `<`, `>`). */
export const escapeXhtml: (text: string) => string = escapeXmlText;

/**
 * The characters of a JSON string literal holding `text`, without the enclosing quotes: the text itself unless it
 * holds a quote, a backslash, a control character or a surrogate, in which case `JSON.stringify` escapes it.
 */
export function jsonStringBody(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text).slice(1, -1);
  }
  return text;
}

/** `text` as a JSON string literal, exactly as `JSON.stringify(text)` writes it. */
export function jsonString(text: string): string {
  return `"${jsonStringBody(text)}"`;
}

/** The JSON text of a generated Narrative up to its paragraph's text: `fhirNarrativeJson` is this, the text, the tail. */
export const NARRATIVE_JSON_HEAD = JSON.stringify({ status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml"><p>' }).slice(0, -2);
/** The JSON text that closes a generated Narrative after its paragraph's text. */
export const NARRATIVE_JSON_TAIL = JSON.stringify({ div: '</p></div>' }).slice(8);

/** A generated Narrative holding one paragraph of (escaped) text. */
export function fhirNarrative(text: string): FhirJson {
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${escapeXhtml(text)}</p></div>` };
}

/** A CodeableConcept of one coding, with the display as its text. */
export function fhirConcept(system: string, code: string, display: string): FhirJson {
  return { coding: [{ system, code, display }], text: display };
}

/**
 * `fhirNarrative(text)` as JSON text, the very characters `JSON.stringify` writes for it: writers of millions of
 * resources build their JSON directly and skip the object graph.
 */
export function fhirNarrativeJson(text: string): string {
  return `${NARRATIVE_JSON_HEAD}${jsonStringBody(escapeXhtml(text))}${NARRATIVE_JSON_TAIL}`;
}

/** `fhirConcept(system, code, display)` as JSON text, the very characters `JSON.stringify` writes for it. */
export function fhirConceptJson(system: string, code: string, display: string): string {
  const d = jsonString(display);
  return `{"coding":[{"system":${jsonString(system)},"code":${jsonString(code)},"display":${d}}],"text":${d}}`;
}
