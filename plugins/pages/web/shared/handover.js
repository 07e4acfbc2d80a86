// Handing a message to the bridge's page: `<bridge>/#message=<base64url of the UTF-8 text>` (and `&standard=hl7`
// when known) opens it in the bridge's Validate view and validates it. The text travels in the address's fragment,
// which browsers never send to a server, so it is in no request line and no log. The monitor's message view links to
// the bridge with `bridgeHandoverLink`; the bridge reads it with `readHandover`.
import { baseLink } from './bases.js';

/** The text as base64url (RFC 4648 §5, no padding) of its UTF-8 bytes. */
export function encodeHandover(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text back from base64url; undefined when it is not base64url of UTF-8. */
export function decodeHandover(encoded) {
  try {
    const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The link that opens `text` in the bridge's Validate view (its real address), with the standard when known. */
export function bridgeHandoverLink(text, { standard } = {}) {
  const fragment = new URLSearchParams({ message: encodeHandover(text), ...(standard ? { standard } : {}) });
  return `${baseLink('bridge', '/')}#${fragment}`;
}

/** The message handed over in this page's fragment: {message, standard?}, or undefined. */
export function readHandover(hash = location.hash) {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const encoded = fragment.get('message');
  if (!encoded) return undefined;
  const message = decodeHandover(encoded);
  if (message === undefined) return { problem: 'The message in the address (#message=...) is not base64url of UTF-8 text.' };
  return { message, standard: fragment.get('standard') || undefined };
}
