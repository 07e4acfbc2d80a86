/**
 * One depth limit for every JSON the service accepts: a request body, a message given as JSON text or as a JSON object
 * inside a body, a line of NDJSON. Depth is counted by one scan of the text before anything parses or walks it, so
 * no JSON.parse, JSON.stringify or recursive walk ever meets hostile nesting (which would end in a RangeError and a
 * 500); deeper input is refused with 400 `JSON_TOO_DEEP` naming where and the limit.
 */
import { kernelErrors, type WorkbenchError } from '../../errors.ts';

/** Deepest `{`/`[` nesting accepted anywhere (FHIR resources and every request body stay far below it). */
export const MAX_JSON_DEPTH = 128;

/**
 * Deepest `{`/`[` nesting of JSON text, counted by one scan of the characters (strings skipped): no allocation.
 * Stops counting once `limit` is exceeded.
 */
export function jsonNestingDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return deepest;
}

/** The 400 for JSON nested deeper than the limit; `where` names it (`the request body`, `messageContent`). */
export function jsonTooDeep(where: string): WorkbenchError {
  return kernelErrors.create('JSON_TOO_DEEP', { where, limit: MAX_JSON_DEPTH }, { location: where, limit: MAX_JSON_DEPTH });
}

/** Throws {@link jsonTooDeep} when `text` nests deeper than the limit. */
export function requireJsonDepth(text: string, where: string): void {
  if (jsonNestingDepth(text) > MAX_JSON_DEPTH) throw jsonTooDeep(where);
}
