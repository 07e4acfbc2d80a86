/**
 * Contact details in free text: e-mail addresses, URLs (with a scheme or `www.`), IPv4 and IPv6 addresses and North
 * American phone and fax numbers (`(555) 555-2004`, `555.555.2004`, `+1 555 555 2004`, with an extension).
 */
import { type Recognised, spansOf } from './recognised.ts';

const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+/g;
const URL = /\b(?:https?|ftp):\/\/[^\s<>"'|^~\\]{1,500}|\bwww\.[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+(?:\/[^\s<>"'|^~\\]{0,500})?/gi;
const IPV4 = /\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b/g;
const IPV6 = /\b(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}\b|\b(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}\b)?/g;
const PHONE = /(?<![\w-])(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?:\s?(?:x|ext\.?)\s?\d{1,5})?(?![\w-])/gi;

/** E-mail addresses, URLs, IP addresses and phone numbers. */
export function recogniseContacts(text: string): Recognised[] {
  const found = spansOf(text, EMAIL, 'email');
  found.push(...spansOf(text, URL, 'url', (match) => !/[.,;:)]$/.test(match[0]) || match[0].length > 1));
  // A trailing full stop or bracket closes the sentence, not the URL.
  for (const span of found) if (span.kind === 'url') while (/[.,;:)]/.test(text[span.end - 1]!)) span.end--;
  found.push(...spansOf(text, IPV4, 'ipAddress'));
  found.push(...spansOf(text, IPV6, 'ipAddress', (match) => /[0-9a-f]{1,4}:[0-9a-f]{0,4}:/i.test(match[0]) && /\d/.test(match[0])));
  found.push(...spansOf(text, PHONE, 'phone'));
  return found;
}
