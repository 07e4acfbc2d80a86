/**
 * Element paths placed in an XML message's text, for NCPDP SCRIPT (`Header.To`, `NewRx.Patient.HumanPatient.Name`,
 * `Message@version`: steps below `Message` with `Body` left out, a repeated name numbered from its second
 * occurrence, 1-based) and FHIR XML (`Patient.name[0].family`, the root resource first, indexes 0-based, a
 * `resource` or `contained` element wrapping the resource element). One pass over the tags with a depth count:
 * linear in the text. Namespace prefixes are ignored. An absent element is placed, not exact, at its nearest
 * present parent.
 */
import { pathSteps } from './json-position.ts';
import { treePosition, type FindingPosition } from './position.ts';

/** One step of an XML path: an element name (`*`: any) and which of its namesakes (0-based). */
export interface XmlStep {
  name: string;
  index: number;
  /** An attribute of the last step's element. */
  attribute?: string;
  /** The path up to this step as the finding wrote it; null for a step the path leaves out (`Body`). */
  label: string | null;
}

/** The steps of a SCRIPT path, from the root `Message`; undefined when the text is not one. */
export function scriptSteps(path: string): XmlStep[] | undefined {
  const [elements, attribute, extra] = path.split('@');
  if (extra !== undefined || (attribute !== undefined && !/^[\w:.-]{1,100}$/.test(attribute))) return undefined;
  const parsed = pathSteps(elements, 1);
  if (!parsed || parsed.length === 0) return undefined;
  const labels = labelsOf(parsed, 1);
  const steps: XmlStep[] = parsed.map((step, i) => ({ name: step.name, index: step.index ?? 0, label: labels[i] }));
  let full: XmlStep[];
  if (steps[0].name === 'Message') full = steps;
  else if (steps[0].name === 'Header' || steps[0].name === 'Trailer') full = [{ name: 'Message', index: 0, label: null }, ...steps];
  else full = [{ name: 'Message', index: 0, label: null }, { name: 'Body', index: 0, label: null }, ...steps];
  if (attribute !== undefined) full[full.length - 1] = { ...full[full.length - 1], attribute, label: path };
  return full;
}

/** The steps of a FHIR path in XML form; undefined when the text is not one. */
export function fhirXmlSteps(path: string): XmlStep[] | undefined {
  const parsed = pathSteps(path, 0);
  if (!parsed || parsed.length === 0) return undefined;
  const labels = labelsOf(parsed, 0);
  const steps: XmlStep[] = [];
  parsed.forEach((step, i) => {
    steps.push({ name: step.name, index: step.index ?? 0, label: labels[i] });
    // a resource inside a bundle entry or a contained list is wrapped: <resource><Patient>...</Patient></resource>
    if ((step.name === 'resource' || step.name === 'contained') && i > 0) steps.push({ name: '*', index: 0, label: null });
  });
  return steps;
}

function labelsOf(steps: ReadonlyArray<{ name: string; index?: number }>, base: 0 | 1): string[] {
  const labels: string[] = [];
  let prefix = '';
  for (const step of steps) {
    prefix = `${prefix === '' ? '' : `${prefix}.`}${step.name}${step.index === undefined ? '' : `[${step.index + base}]`}`;
    labels.push(prefix);
  }
  return labels;
}

/** End (exclusive) of the markup starting at `at` ('<'), and what it is. */
function markup(raw: string, at: number): { end: number; kind: 'skip' | 'open' | 'close'; name: string; selfClosing: boolean } {
  const skipTo = (terminator: string) => {
    const found = raw.indexOf(terminator, at);
    return { end: found === -1 ? raw.length : found + terminator.length, kind: 'skip' as const, name: '', selfClosing: false };
  };
  if (raw.startsWith('<!--', at)) return skipTo('-->');
  if (raw.startsWith('<![CDATA[', at)) return skipTo(']]>');
  if (raw.startsWith('<?', at)) return skipTo('?>');
  if (raw.startsWith('<!', at)) return skipTo('>');
  const closing = raw[at + 1] === '/';
  let i = at + (closing ? 2 : 1);
  const nameStart = i;
  while (i < raw.length && !' \t\r\n/>'.includes(raw[i])) i++;
  const qualified = raw.slice(nameStart, i);
  const name = qualified.slice(qualified.indexOf(':') + 1);
  // attribute values may hold '>': step over quoted text
  while (i < raw.length && raw[i] !== '>') {
    if (raw[i] === '"' || raw[i] === "'") {
      const close = raw.indexOf(raw[i], i + 1);
      i = close === -1 ? raw.length : close + 1;
    } else i++;
  }
  const end = Math.min(raw.length, i + 1);
  return { end, kind: closing ? 'close' : 'open', name, selfClosing: !closing && raw[i - 1] === '/' };
}

/** The range of an attribute's value in a start tag, or undefined. */
function attributeRange(raw: string, start: number, end: number, attribute: string): { start: number; end: number } | undefined {
  const tag = raw.slice(start, end);
  const pattern = /\s([\w:.-]+)\s*=\s*("[^"]*"|'[^']*')/g;
  for (let match = pattern.exec(tag); match; match = pattern.exec(tag)) {
    const name = match[1].slice(match[1].indexOf(':') + 1);
    if (name === attribute || match[1] === attribute) {
      const valueStart = start + match.index + match[0].length - match[2].length + 1;
      return { start: valueStart, end: valueStart + match[2].length - 2 };
    }
  }
  return undefined;
}

/** Where the steps lead in an XML text; `path` labels an exact answer. Undefined when even the root differs. */
export function locateXml(raw: string, steps: readonly XmlStep[], path: string): FindingPosition | undefined {
  const matched: Array<{ step: XmlStep; start: number; tagEnd: number }> = [];
  let depth = 0;
  let namesakes = 0;
  const labelOf = (count: number) => {
    for (let i = count - 1; i >= 0; i--) if (matched[i].step.label !== null) return matched[i].step.label as string;
    return steps[0].name;
  };
  let at = raw.indexOf('<');
  while (at !== -1 && at < raw.length) {
    const tag = markup(raw, at);
    if (tag.kind === 'open') {
      const step = steps[matched.length];
      if (step && depth === matched.length && (step.name === '*' || step.name === tag.name)) {
        if (namesakes === step.index) {
          matched.push({ step, start: at, tagEnd: tag.end });
          namesakes = 0;
          if (matched.length === steps.length) return finish(raw, matched, tag, at, depth, path);
        } else namesakes++;
      }
      if (!tag.selfClosing) depth++;
    } else if (tag.kind === 'close') {
      depth--;
      if (depth < matched.length) {
        // the deepest matched element closed without the next step: the element is absent
        const last = matched[matched.length - 1];
        return treePosition(labelOf(matched.length), last.start, tag.end, false);
      }
    }
    at = raw.indexOf('<', tag.end);
  }
  if (matched.length === 0) return undefined;
  const last = matched[matched.length - 1];
  return treePosition(labelOf(matched.length), last.start, raw.length, false);
}

/** The answer once every step matched: the attribute's value, or the element from its start tag to its end tag. */
function finish(
  raw: string,
  matched: ReadonlyArray<{ step: XmlStep; start: number; tagEnd: number }>,
  tag: { end: number; selfClosing: boolean },
  at: number,
  depth: number,
  path: string,
): FindingPosition {
  const last = matched[matched.length - 1];
  if (last.step.attribute !== undefined) {
    const value = attributeRange(raw, at, tag.end, last.step.attribute);
    return value ? treePosition(path, value.start, value.end, true) : treePosition(path.split('@')[0], at, tag.end, false);
  }
  if (tag.selfClosing) return treePosition(path, at, tag.end, true);
  // find the end tag at this element's depth
  let open = depth + 1;
  let next = raw.indexOf('<', tag.end);
  while (next !== -1) {
    const inner = markup(raw, next);
    if (inner.kind === 'open' && !inner.selfClosing) open++;
    else if (inner.kind === 'close') {
      open--;
      if (open === depth) return treePosition(path, at, inner.end, true);
    }
    next = raw.indexOf('<', inner.end);
  }
  return treePosition(path, at, raw.length, true);
}
