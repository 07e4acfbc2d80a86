/**
 * The guard of what leaves toward a model: before a request body is sent, every string in it (and every member
 * name) is searched for the needles of the original message and of the caller's own texts, and so is the body as
 * it will be serialised. A hit names the JSON path that carried it, never the value: the caller refuses the call.
 * The needles are prepared once per check: every piece is searched in one pass over their concatenation.
 */

/** Finds needles in a text (the de-identification service's `findNeedles`). */
export type NeedleFinder = (text: string, needles: readonly string[]) => ReadonlyArray<{ start: number; end: number }>;

/** Most carrier paths a verdict names. */
const MAX_CARRIERS = 20;

/** Between two pieces: a line end, which ends every occurrence of a needle, so no match spans two pieces. */
const PIECE_BREAK = '\n|\n';

/** JSON path of a member: `$.messages[1].content`; names that are not identifiers are named by length only. */
function memberPath(parent: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${parent}.${name}` : `${parent}[<name of ${name.length} characters>]`;
}

/** Every string and member name of a JSON value, each with its path. */
function piecesOf(body: unknown): Array<{ path: string; text: string }> {
  const pieces: Array<{ path: string; text: string }> = [];
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') pieces.push({ path, text: value });
    else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${path}[${index}]`));
    else if (value !== null && typeof value === 'object') {
      for (const [name, member] of Object.entries(value)) {
        const at = memberPath(path, name);
        pieces.push({ path: `${at} (member name)`, text: name });
        visit(member, at);
      }
    }
  };
  visit(body, '$');
  return pieces;
}

/**
 * The JSON paths in `body` whose string (or member name) holds a needle, at most {@link MAX_CARRIERS}; `$` when only
 * the serialised body as a whole holds one. Empty when the body is clean or there are no needles.
 */
export function needleCarriers(body: unknown, serialised: string, needles: readonly string[], find: NeedleFinder): string[] {
  if (needles.length === 0) return [];
  const pieces = [...piecesOf(body), { path: '$', text: serialised }];
  const starts: number[] = [];
  let text = '';
  for (const piece of pieces) {
    if (text !== '') text += PIECE_BREAK;
    starts.push(text.length);
    text += piece.text;
  }
  const carriers = new Set<string>();
  for (const hit of find(text, needles)) {
    // The piece a hit lies in: the last one starting at or before it.
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= hit.start) low = middle;
      else high = middle - 1;
    }
    carriers.add(pieces[low]!.path);
  }
  // The serialised body counts only when no string of it holds the needle (an escape joined it to a word).
  if (carriers.size > 1) carriers.delete('$');
  return [...carriers].slice(0, MAX_CARRIERS);
}
