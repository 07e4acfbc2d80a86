// Which parts of a raw message a finding points at: a part is marked when a finding's character range overlaps it,
// or, for a range of no length (a field that is absent), when the range lies inside it or at its edge.

/** The character ranges [start, end) of the findings that carry one. */
export function findingRanges(findings) {
  return findings.filter((f) => f.position && Number.isInteger(f.position.start)).map((f) => [f.position.start, f.position.end]);
}

/** True when the part [start, end) holds or touches a finding. */
export function isMarked(ranges, start, end) {
  return ranges.some(([from, to]) => (to > from ? from < end && to > start : from >= start && from <= end));
}
