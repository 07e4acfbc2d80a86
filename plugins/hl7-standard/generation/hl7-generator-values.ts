/**
 * The generator's value model and how it becomes a field of a given version: a segment builder states what it means
 * (components, repetitions) once, and {@link renderGeneratedField} fits it to the version's definition — components
 * the data type lacks are dropped, primitives keep their first component, withdrawn and backward-compatible fields
 * are left empty, repetitions are capped and over-long repetitions are shortened — so one builder serves v2.3 to v2.8.
 */
import { getHl7TableValues, type Hl7FieldDefinition, type Hl7VersionDefinitions } from '../hl7-definitions.ts';
import type { Hl7Field } from '../hl7-model.ts';

/** A component: one value, or its subcomponents. */
export type GenComponent = string | readonly string[];
/** One repetition: a plain value or its components (index 0 is component 1). */
export type GenRepetition = string | readonly GenComponent[];
/** A field with several repetitions. */
export interface GenRepeated {
  readonly repetitions: readonly GenRepetition[];
}
/** What a builder puts in one field. */
export type GenValue = GenRepetition | GenRepeated;
/** Field values of one segment by position (SEG-n); absent positions stay empty. */
export type GenFields = Record<number, GenValue | undefined>;

/** Several repetitions of one field (empty ones are skipped). */
export function repeat(...repetitions: Array<GenRepetition | undefined>): GenRepeated {
  return { repetitions: repetitions.filter((r): r is GenRepetition => r !== undefined && r !== '') };
}

function isRepeated(value: GenValue): value is GenRepeated {
  return typeof value === 'object' && 'repetitions' in value;
}

/** Field optionalities a generator never fills: the standard keeps them only for old senders or has removed them. */
const NOT_FOR_NEW_MESSAGES = new Set(['B', 'W']);

/** True when a generator may fill the field in this version. */
export function isFillable(definition: Hl7FieldDefinition | undefined): definition is Hl7FieldDefinition {
  return definition !== undefined && !NOT_FOR_NEW_MESSAGES.has(definition.optionality);
}

/** Data types whose content is decided by another field (OBX-5 by OBX-2): written as given. */
const VARIABLE_TYPES = new Set(['VARIES', 'varies', '*']);

function fitComponents(components: readonly GenComponent[], typeName: string, defs: Hl7VersionDefinitions): string[][] {
  const type = VARIABLE_TYPES.has(typeName) ? undefined : defs.dataType(typeName);
  if (type && type.components.length === 0) {
    const first = components[0] ?? '';
    return [[typeof first === 'string' ? first : (first[0] ?? '')]];
  }
  const kept = type ? components.slice(0, type.components.length) : components;
  return kept.map((component, i) => {
    const def = type?.components[i];
    if (def?.optionality === 'W' || def?.optionality === 'B') return [''];
    const parts = typeof component === 'string' ? [component] : [...component];
    const subType = def ? defs.dataType(def.dataType) : undefined;
    if (subType === undefined || subType.components.length === 0) return [parts[0] ?? ''];
    return parts.slice(0, subType.components.length);
  });
}

function trimRepetition(rep: string[][]): string[][] {
  for (const comp of rep) while (comp.length > 1 && comp[comp.length - 1] === '') comp.pop();
  while (rep.length > 1 && rep[rep.length - 1].length === 1 && rep[rep.length - 1][0] === '') rep.pop();
  return rep;
}

function valueLength(rep: string[][]): number {
  let length = rep.length - 1;
  for (const comp of rep) {
    length += comp.length - 1;
    for (const sub of comp) length += sub.length;
  }
  return length;
}

/**
 * Fits a repetition into the field's maximum length (older versions have short ones, e.g. 20 for PID-3 in v2.3):
 * trailing components go first, as a sender would drop optional detail. A lone value that still does not fit is
 * dropped from an optional field (a cut code would be a wrong code) and cut in a required one.
 */
function fitLength(rep: string[][], maxLength: number | undefined, required: boolean): string[][] | undefined {
  if (maxLength === undefined) return rep;
  while (valueLength(rep) > maxLength) {
    const last = rep[rep.length - 1];
    if (rep.length > 1) rep.pop();
    else if (last.length > 1) last.pop();
    else if (!required) return undefined;
    else {
      last[0] = last[0].slice(0, maxLength);
      return rep;
    }
    trimRepetition(rep);
  }
  return rep;
}

/** Renders a builder's value into the field of the given definition, or undefined when it stays empty. */
export function renderGeneratedField(
  value: GenValue,
  definition: Hl7FieldDefinition,
  defs: Hl7VersionDefinitions,
): Hl7Field | undefined {
  const repetitions = isRepeated(value) ? value.repetitions : [value];
  const field: Hl7Field = [];
  for (const repetition of repetitions) {
    if (field.length >= definition.maxRepetitions) break;
    const components = typeof repetition === 'string' ? [repetition] : repetition;
    const fitted = fitLength(trimRepetition(fitComponents(components, definition.dataType, defs)), definition.maxLength, definition.optionality === 'R');
    if (fitted && !(fitted.length === 1 && fitted[0].length === 1 && fitted[0][0] === '')) field.push(fitted);
  }
  return field.length > 0 ? field : undefined;
}

/** The first code of an HL7 table, for required coded fields a builder has no better value for. */
export function firstTableCode(table: string | undefined): { code: string; description: string } | undefined {
  if (!table) return undefined;
  return getHl7TableValues(table)?.values.find((v) => v.code !== 'null');
}
