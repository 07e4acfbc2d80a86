/**
 * The guard of what leaves toward a model: before a request body is sent, every string in it (and every member
 * name) is searched for the needles of the original message and of the caller's own texts, and so is the body as
 * it will be serialised. A hit names the JSON path that carried it, never the value: the caller refuses the call.
 */

/** Finds needles in a text (the de-identification service's `findNeedles`). */
export type NeedleFinder = (text: string, needles: readonly string[]) => ReadonlyArray<{ start: number; end: number }>;

/** Most carrier paths a verdict names. */
const MAX_CARRIERS = 20;

/** JSON path of a member: `$.messages[1].content`; names that are not identifiers are quoted (by length only). */
function memberPath(parent: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${parent}.${name}` : `${parent}[<name of ${name.length} characters>]`;
}

/**
 * The JSON paths in `body` whose string (or member name) holds a needle, at most {@link MAX_CARRIERS}; `$` when only
 * the serialised body as a whole holds one. Empty when the body is clean or there are no needles.
 */
export function needleCarriers(body: unknown, serialised: string, needles: readonly string[], find: NeedleFinder): string[] {
  if (needles.length === 0) return [];
  const carriers: string[] = [];
  const visit = (value: unknown, path: string): void => {
    if (carriers.length >= MAX_CARRIERS) return;
    if (typeof value === 'string') {
      if (find(value, needles).length > 0) carriers.push(path);
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, `${path}[${index}]`));
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [name, member] of Object.entries(value)) {
        const at = memberPath(path, name);
        if (find(name, needles).length > 0) carriers.push(`${at} (member name)`);
        visit(member, at);
      }
    }
  };
  visit(body, '$');
  if (carriers.length === 0 && find(serialised, needles).length > 0) carriers.push('$');
  return carriers;
}
