/**
 * The service's XML escaper and decoder, for XML written or rewritten as text (SCRIPT messages, FHIR narratives,
 * de-identified XML): text content escapes `&`, `<` and `>`; attribute values escape the quotes too; decoding reads
 * the five entities XML predefines. Character references (`&#38;`) are left as they are.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const DECODED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Text safe as XML (or XHTML) element content. */
export function escapeXmlText(text: string): string {
  // Most text holds none of them: a plain scan spares a regular-expression pass per value.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 38 || c === 60 || c === 62) return text.replace(/[&<>]/g, (m) => ENTITIES[m] ?? m);
  }
  return text;
}

/** Text safe inside a quoted XML attribute value (either quote), and as element content. */
export function escapeXmlAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (m) => ENTITIES[m] ?? m);
}

/** XML text with the five predefined entities decoded. */
export function decodeXmlEntities(text: string): string {
  return text.includes('&') ? text.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => DECODED[name] ?? '') : text;
}
