/**
 * NCPDP Telecommunication D.0 paths placed in a transmission's text: `AM07.D2` (segment `AM07`, field id `D2`),
 * `AM07[2].D2` (a repeated segment numbered from its second occurrence, 1-based) and `Header.<id>`. Segments end at
 * the segment or group separator (0x1E, 0x1D); each field starts after a field separator (0x1C) with its two
 * character id. A header field is placed, not exact, on the whole fixed-width header (its layout is the
 * standard plugin's). One pass: linear in the text.
 */
import type { FindingPosition } from './position.ts';

const FIELD_SEPARATOR = '\x1c';
const GROUP_SEPARATOR = '\x1d';
const SEGMENT_SEPARATOR = '\x1e';

const PATH = /^(?:(Header)|AM(\d\d)(?:\[(\d{1,4})\])?)(?:\.([A-Z0-9]{2}))?$/;

/** Where a D.0 path is in a transmission; undefined when the path is not one or its segment is absent. */
export function locateTelecom(raw: string, path: string): FindingPosition | undefined {
  const match = PATH.exec(path.trim());
  if (!match) return undefined;
  const firstSeparator = [FIELD_SEPARATOR, GROUP_SEPARATOR, SEGMENT_SEPARATOR]
    .map((separator) => raw.indexOf(separator))
    .filter((index) => index !== -1)
    .reduce((a, b) => Math.min(a, b), raw.length);
  const firstSegment = raw.search(/AM\d\d\x1c/);
  const headerEnd = Math.min(firstSeparator, firstSegment === -1 ? raw.length : firstSegment);
  const base = { repetition: null, component: null, subcomponent: null, element: null };
  if (match[1] === 'Header') {
    return { ...base, segmentIndex: null, segment: 'Header', field: null, start: 0, end: headerEnd, exact: match[4] === undefined };
  }
  const segmentId = `AM${match[2]}`;
  const occurrence = match[3] === undefined ? 1 : Number(match[3]);
  const fieldId = match[4];
  let seen = 0;
  let segmentIndex = 0;
  let start = headerEnd;
  for (let i = headerEnd; i <= raw.length; i++) {
    const c = i < raw.length ? raw[i] : SEGMENT_SEPARATOR;
    if (c !== SEGMENT_SEPARATOR && c !== GROUP_SEPARATOR) continue;
    if (i > start) {
      const body = raw.slice(start, i);
      if (body.startsWith(`${FIELD_SEPARATOR}${segmentId}${FIELD_SEPARATOR}`) || body.startsWith(`${segmentId}${FIELD_SEPARATOR}`) || body === `${FIELD_SEPARATOR}${segmentId}`) {
        seen++;
        if (seen === occurrence) {
          const position = { ...base, segmentIndex, segment: segmentId, field: null };
          if (fieldId === undefined) return { ...position, start, end: i, exact: true };
          return placeField(body, start, i, fieldId, position);
        }
      }
      segmentIndex++;
    }
    start = i + 1;
  }
  return undefined;
}

function placeField(
  body: string,
  start: number,
  end: number,
  fieldId: string,
  position: Omit<FindingPosition, 'start' | 'end' | 'exact'>,
): FindingPosition {
  let offset = 0;
  for (const piece of body.split(FIELD_SEPARATOR)) {
    if (piece.startsWith(fieldId) && offset > 0) {
      // the value follows the two-character id
      return { ...position, start: start + offset + 2, end: start + offset + piece.length, exact: true };
    }
    offset += piece.length + 1;
  }
  return { ...position, start: end, end, exact: false };
}
