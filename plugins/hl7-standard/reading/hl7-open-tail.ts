/**
 * Where the whole messages of HL7 v2 content end. Every segment ends with its terminator (CR; LF and CRLF are read
 * too), so content whose last byte (trailing blanks aside) is no terminator nor an MLLP frame end stops inside its
 * last segment: that last message is still open. Its start is the last `MSH` (or batch header `FHS`, `BHS`) at the
 * start of a segment; the whole messages end there. Content with no such header is no HL7 message being written: it
 * is whole as it is (the reading says what it is). Looks at the content's end only: linear in the length of the last
 * message.
 */

const CR = 0x0d;
const LF = 0x0a;
/** MLLP frame end. */
const FS = 0x1c;
/** MLLP frame start. */
const VT = 0x0b;
const SPACE = 0x20;
const TAB = 0x09;
const M = 0x4d;
const F = 0x46;
const B = 0x42;
const S = 0x53;
const H = 0x48;

function isBlank(byte: number): boolean {
  return byte === SPACE || byte === TAB;
}

/** Whether a message or batch header's name (`MSH`, `FHS`, `BHS`) starts at `i`. */
function isHeaderAt(content: Uint8Array, i: number): boolean {
  const first = content[i];
  return (first === M || first === F || first === B) && content[i + 1] === S && content[i + 2] === H;
}

/** The length of the prefix of `content` that ends with a whole message (0 when its first message is open). */
export function hl7CompleteLength(content: Uint8Array): number {
  let end = content.length;
  while (end > 0 && isBlank(content[end - 1])) end--;
  if (end === 0) return content.length;
  const last = content[end - 1];
  if (last === CR || last === LF || last === FS) return content.length;
  // the open message starts at the last header that begins a segment (after a terminator, a frame start or blanks)
  for (let i = end - 3; i >= 0; i--) {
    if (!isHeaderAt(content, i)) continue;
    let start = i;
    while (start > 0 && (isBlank(content[start - 1]) || content[start - 1] === VT)) start--;
    if (start === 0) return 0;
    const before = content[start - 1];
    if (before === CR || before === LF || before === FS) return start;
  }
  return content.length;
}
