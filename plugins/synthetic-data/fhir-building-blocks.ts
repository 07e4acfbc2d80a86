/**
 * Small FHIR R4 shapes every synthetic FHIR writer uses (the FHIR generator, the population's Bundles, the Patient
 * shape): one definition, so narratives stay valid XHTML and coded values keep one form everywhere.
 */

/** A plain JSON object of a FHIR resource or element. */
export type FhirJson = Record<string, unknown>;

/** Escapes the characters that XHTML text content may not hold as they are. */
function escapeXhtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A generated Narrative holding one paragraph of (escaped) text. */
export function fhirNarrative(text: string): FhirJson {
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${escapeXhtml(text)}</p></div>` };
}

/** A CodeableConcept of one coding, with the display as its text. */
export function fhirConcept(system: string, code: string, display: string): FhirJson {
  return { coding: [{ system, code, display }], text: display };
}
