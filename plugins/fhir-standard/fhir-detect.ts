/**
 * Quick, definition-free guess whether content is FHIR, for automatic standard detection. It looks only at the
 * start of the text: detection runs on every message of every standard and must not parse megabytes.
 */
import { FHIR_XML_NAMESPACE } from './fhir-xml.ts';

const HEAD_CHARS = 4096;
const RESOURCE_TYPE_PROPERTY = /"resourceType"\s*:\s*"([A-Z][A-Za-z]+)"/;

/** Confidence 0..1 that the content is a FHIR resource (JSON with resourceType, or XML in the FHIR namespace). */
export function detectFhir(content: string): number {
  if (typeof content !== 'string') return 0;
  const text = (content.charCodeAt(0) === 0xfeff ? content.slice(1) : content).trimStart();
  if (text.startsWith('{')) {
    const head = text.slice(0, HEAD_CHARS);
    if (RESOURCE_TYPE_PROPERTY.test(head)) return 0.95;
    // resourceType may come after a large first property; look at the whole text only then.
    if (RESOURCE_TYPE_PROPERTY.test(text)) return 0.9;
    // JSON is FHIR's alone among the standards: claim it weakly so a JSON object without resourceType reaches this
    // adapter and is answered "not a FHIR resource" rather than "unknown standard".
    return 0.5;
  }
  if (text.startsWith('<')) {
    const head = text.slice(0, HEAD_CHARS);
    return head.includes(`xmlns="${FHIR_XML_NAMESPACE}"`) || head.includes(`xmlns='${FHIR_XML_NAMESPACE}'`) ? 0.95 : 0;
  }
  return 0;
}
