/**
 * Base64 attachments (HL7 ED values, FHIR `Attachment.data`, `Binary.data`): decoded, and when they hold text
 * (valid UTF-8, mostly printable) scrubbed like any free text and encoded again; anything else (images, PDFs, scans,
 * which may show a face or a signature) is replaced by a short text saying it was removed, encoded the same way.
 */

/** Largest attachment decoded, in base64 characters (larger ones are replaced unread). */
const MAX_BASE64_CHARS = 8 * 1024 * 1024;

/** What replaces an attachment that is not text. */
export const REMOVED_ATTACHMENT = 'attachment removed by de-identification';

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/;

function isText(bytes: Buffer, text: string): boolean {
  if (!Buffer.from(text, 'utf8').equals(bytes)) return false;
  let control = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) control++;
  }
  return control <= text.length / 100;
}

/**
 * The attachment `data` with its text scrubbed, or the removal text when it is not text; `binary` says which. An
 * empty value stays empty.
 */
export function scrubBase64(data: string, scrub: (text: string) => string): { data: string; binary: boolean } {
  if (data.trim() === '') return { data, binary: false };
  if (data.length > MAX_BASE64_CHARS || !BASE64.test(data)) return { data: Buffer.from(REMOVED_ATTACHMENT).toString('base64'), binary: true };
  const bytes = Buffer.from(data, 'base64');
  const text = bytes.toString('utf8');
  if (!isText(bytes, text)) return { data: Buffer.from(REMOVED_ATTACHMENT).toString('base64'), binary: true };
  return { data: Buffer.from(scrub(text), 'utf8').toString('base64'), binary: false };
}
