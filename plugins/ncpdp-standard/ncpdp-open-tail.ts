/**
 * Where the whole messages of NCPDP content end. A batch file's records are each framed by STX and ETX: a last
 * record opened by STX and not closed by ETX is still being written, so the whole records end where it starts (the
 * trailer record is not waited for: a batch is read record by record). A SCRIPT XML message is whole once its root
 * element's end tag ends it. A single D.0 transmission has no end marker: it is whole as it is.
 */
import { xmlDocumentEnded } from '../../kernel/lib/xml/xml-document-end.ts';

const STX = 0x02;
const ETX = 0x03;
const LESS_THAN = 0x3c;

/** The length of the prefix of NCPDP content that ends with a whole message (0 when it holds none). */
export function ncpdpCompleteLength(content: Uint8Array): number {
  let first = 0;
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) first = 3;
  while (first < content.length && (content[first] === 0x20 || content[first] === 0x0a || content[first] === 0x0d || content[first] === 0x09)) first++;
  if (first === content.length) return content.length;
  if (content[first] === STX) {
    const lastStart = content.lastIndexOf(STX);
    return content.indexOf(ETX, lastStart) === -1 ? (lastStart === first ? 0 : lastStart) : content.length;
  }
  if (content[first] !== LESS_THAN) return content.length;
  return xmlDocumentEnded(content) ? content.length : 0;
}
