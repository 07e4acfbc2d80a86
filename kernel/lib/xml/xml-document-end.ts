/**
 * Whether XML content is a whole document as far as its ends show: after the prolog (declaration, comments, doctype)
 * comes a root element, and the content ends (trailing whitespace and comments aside) with that element's end tag,
 * or the root is an empty-element tag that ends it. A writer still writing the document has not written that yet.
 * A look at the first and last few kilobytes, not a well-formedness check (kernel/lib/xml/xml-well-formedness.ts does that).
 */

/** Bytes of each end of the content looked at. */
const END_BYTES = 4096;

/** The root element's name, skipping the declaration, processing instructions, comments and a doctype. */
function rootName(head: string): string | undefined {
  let at = 0;
  for (;;) {
    at = head.indexOf('<', at);
    if (at < 0) return undefined;
    if (head.startsWith('<?', at)) at = head.indexOf('?>', at);
    else if (head.startsWith('<!--', at)) at = head.indexOf('-->', at);
    else if (head.startsWith('<!', at)) at = head.indexOf('>', at);
    else return /^<([A-Za-z_][\w.:-]*)/.exec(head.slice(at, at + 200))?.[1];
    if (at < 0) return undefined;
    at++;
  }
}

/** Whether XML content ends with the end of its root element (see the module's comment). */
export function xmlDocumentEnded(content: Uint8Array): boolean {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const name = rootName(bytes.subarray(0, END_BYTES).toString('utf8'));
  if (name === undefined) return false;
  let end = bytes.subarray(Math.max(0, bytes.length - END_BYTES)).toString('utf8').trimEnd();
  while (end.endsWith('-->')) {
    const open = end.lastIndexOf('<!--');
    if (open < 0) break;
    end = end.slice(0, open).trimEnd();
  }
  if (!end.endsWith('>')) return false;
  const escaped = name.replace(/[.]/g, '\\.');
  if (new RegExp(`</\\s*${escaped}\\s*>$`).test(end.slice(-(name.length + 64)))) return true;
  // an empty root element (`<Root ... />`) is the whole document when it is the last tag
  const lastTag = end.lastIndexOf('<');
  return end.endsWith('/>') && new RegExp(`^<${escaped}[\\s/]`).test(end.slice(lastTag));
}
