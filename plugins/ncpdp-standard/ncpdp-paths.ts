/**
 * The one path rule of this plugin, shared by validation, diff, profiles and describe.
 * SCRIPT: steps are element names below `Message`, with `Body` left out, so the transaction starts the path
 * (`Header.MessageID`, `NewRx.Patient.HumanPatient.Name.LastName`); attributes follow `@`
 * (`Message@version`, `NewRx.MedicationPrescribed.DrugCoded.ProductCode@Qualifier`).
 * Telecommunication: `Header.<id>` for header fields and `AM<segment>.<field id>` (`AM07.D2`).
 * In both, an element, segment or field that occurs again under the same parent is numbered from its second
 * occurrence, 1-based: `Name`, `Name[2]`; `AM07`, `AM07[2]`.
 */
import type { NcpdpMessage, ScriptElement, TelecomField, TelecomSegment } from './ncpdp-model.ts';

/** Visitor of {@link walkScript}. */
export type ScriptVisitor = (element: ScriptElement, path: string, parent: ScriptElement | undefined) => void;

/** Path of each child of an element, numbered from the second occurrence of a name. */
export function childPaths(parentPath: string, children: readonly ScriptElement[]): string[] {
  // Body is left out of paths: its child (the transaction) starts the path.
  const prefix = parentPath === '' || parentPath === 'Body' ? '' : `${parentPath}.`;
  const paths = new Array<string>(children.length);
  // Few children (the usual case): count earlier namesakes directly; many: a map keeps it linear.
  const seen = children.length > 8 ? new Map<string, number>() : undefined;
  for (let i = 0; i < children.length; i++) {
    const name = children[i].name;
    let n = 1;
    if (seen) {
      n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
    } else {
      for (let j = 0; j < i; j++) if (children[j].name === name) n++;
    }
    paths[i] = n === 1 ? prefix + name : `${prefix}${name}[${n}]`;
  }
  return paths;
}

function walkChildren(element: ScriptElement, path: string, visit: ScriptVisitor): void {
  if (element.children.length === 0) return;
  const paths = childPaths(path, element.children);
  for (let i = 0; i < element.children.length; i++) {
    const child = element.children[i];
    visit(child, paths[i], element);
    walkChildren(child, paths[i], visit);
  }
}

/**
 * Visits every element below `Message` in document order (Message itself is visited with path `Message`).
 * Recursion is safe: the reader refuses documents nested deeper than its depth limit.
 */
export function walkScript(root: ScriptElement, visit: ScriptVisitor): void {
  visit(root, 'Message', undefined);
  walkChildren(root, '', visit);
}

/** Path of each segment, numbered from its second occurrence (`AM07`, `AM07[2]`). */
export function segmentPaths(segments: readonly TelecomSegment[]): string[] {
  const seen = new Map<string, number>();
  return segments.map((segment) => {
    const name = `AM${segment.id || '??'}`;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}[${n}]`;
  });
}

/** Path of each field of a segment, numbered from its second repetition (`FB`, `FB[2]`). */
export function fieldPaths(segmentPath: string, fields: readonly TelecomField[]): string[] {
  const seen = new Map<string, number>();
  return fields.map((field) => {
    const n = (seen.get(field.id) ?? 0) + 1;
    seen.set(field.id, n);
    return `${segmentPath}.${n === 1 ? field.id : `${field.id}[${n}]`}`;
  });
}

/** Leaf values and attributes of a message as ordered `path -> value` entries (the basis of diff and profiles). */
export function flattenMessage(message: NcpdpMessage): Map<string, string> {
  const entries = new Map<string, string>();
  if (message.format === 'script') {
    walkScript(message.root, (element, path) => {
      for (const [name, value] of Object.entries(element.attributes)) {
        if (name !== '#prefix') entries.set(`${path}@${name}`, value);
      }
      if (element.children.length === 0 || element.text !== '') entries.set(path, element.text);
    });
    return entries;
  }
  for (const field of message.header) if (field.present) entries.set(`Header.${field.id}`, field.value);
  const paths = segmentPaths(message.segments);
  message.segments.forEach((segment, index) => {
    const names = fieldPaths(paths[index], segment.fields);
    if (segment.fields.length === 0) entries.set(paths[index], '');
    segment.fields.forEach((field, i) => {
      entries.set(names[i], field.value);
    });
  });
  return entries;
}

/** A path with its occurrence numbers removed (`Name[2].LastName` -> `Name.LastName`), for rule matching. */
export function stripOccurrences(path: string): string {
  return path.replace(/\[\d+\]/g, '');
}
