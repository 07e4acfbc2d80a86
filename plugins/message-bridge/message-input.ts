/**
 * What people send as a message: text (HL7 v2, FHIR JSON or XML, NCPDP), a FHIR resource as a JSON object, or the
 * message itself as the request body with the other parameters in the query string.
 */

/** Content types `POST /api/validate` accepts as the raw message (besides JSON bodies). */
export const RAW_MESSAGE_CONTENT_TYPES = [
  'text/plain',
  'x-application/hl7-v2+er7',
  'application/hl7-v2',
  'application/hl7-v2+er7',
  'application/fhir+json',
  'application/fhir+xml',
  'application/xml',
  'text/xml',
] as const;

/** A message given as text, or as a JSON object (a FHIR resource), as the text every adapter reads. */
export function messageText(value: string | Record<string, unknown>): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Drops the keys whose value is undefined (query parameters not given). */
export function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
