/**
 * The value of one element of a FHIR object, typed, as @medplum/core 4.5's crawler reads it
 * (`getTypedPropertyValueWithSchema` and `withPath` in its src/fhirpath/utils.ts and src/typeschema/crawler.ts,
 * Apache-2.0): the JSON property the element takes (`value[x]` as `valueQuantity`), merged with its `_` primitive
 * extension, each item typed and given its place (`Patient.name[0]`).
 *
 * The difference is cost, not meaning: the property names an element may take (one per type of a choice element,
 * with their `_` twins) are worked out once per element definition and kept, where @medplum/core builds them again
 * at every object it visits, for every element of its type, present or not.
 */
import type { InternalSchemaElement, TypedValue } from '@medplum/core';
import { medplumCore } from '../medplum-core.ts';

/** A typed value and where it sits in the resource (`Patient.name[0].given[1]`). */
export interface TypedValueWithPath extends TypedValue {
  path: string;
}

/** One JSON spelling of an element and the type it selects (`valueQuantity`, `_valueQuantity`, `Quantity`). */
interface Spelling {
  key: string;
  extensionKey: string;
  type: string;
}

const spellingsByElement = new WeakMap<InternalSchemaElement, readonly Spelling[]>();

/** The spellings of an element, in the order of its types (the first one present wins, as in @medplum/core). */
function spellingsOf(element: InternalSchemaElement): readonly Spelling[] {
  let spellings = spellingsByElement.get(element);
  if (!spellings) {
    const { capitalize } = medplumCore();
    const last = element.path.substring(element.path.lastIndexOf('.') + 1);
    spellings = (element.type ?? []).map((type) => {
      const key = last.replace('[x]', capitalize(type.code));
      return { key, extensionKey: `_${key}`, type: type.code };
    });
    spellingsByElement.set(element, spellings);
  }
  return spellings;
}

/** Merges a primitive's `_` extension object into it (a String, Number or Boolean object then carries both). */
function assignPrimitiveExtension(target: unknown, primitiveExtension: unknown): unknown {
  if (primitiveExtension) {
    if (typeof primitiveExtension !== 'object') throw new Error('Primitive extension must be an object');
    const source = primitiveExtension as Record<string, unknown>;
    // As @medplum/core does: these two keys are dropped from the extension object before it is merged.
    Reflect.deleteProperty(source, '__proto__');
    Reflect.deleteProperty(source, 'constructor');
    return Object.assign(target ?? {}, source);
  }
  return target;
}

/** The type a value of `type` is read as: a nested resource as its own resourceType. */
function typeOf(value: unknown, type: string): string {
  if (type === 'Resource' && medplumCore().isResource(value)) return (value as { resourceType: string }).resourceType;
  return type;
}

/**
 * @medplum/core's `isEmpty`, without building a key list: null, undefined, '', an object with neither a positive
 * `length` nor an own enumerable key.
 */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value === '';
  if (typeof value !== 'object') return false;
  if ('length' in value && (value as { length: number }).length > 0) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/**
 * The typed value(s) of `element` in `object`, each with its place below `parentPath` (`Patient.name[0]`), or
 * undefined when the element is absent or empty. `object` is any JSON value (a string where an object belongs is
 * read as @medplum/core reads it: property look-ups find nothing). `key` is the element's name in its type.
 */
export function typedPropertyValue(
  object: unknown,
  element: InternalSchemaElement,
  parentPath: string,
  key: string,
): TypedValueWithPath | TypedValueWithPath[] | undefined {
  const holder = object as Record<string, unknown>;
  let resultValue: unknown;
  let resultType = 'undefined';
  let primitiveExtension: unknown;
  for (const spelling of spellingsOf(element)) {
    resultValue = holder[spelling.key];
    primitiveExtension = holder[spelling.extensionKey];
    if (resultValue !== undefined || primitiveExtension !== undefined) {
      resultType = spelling.type;
      break;
    }
  }
  if (primitiveExtension) {
    if (Array.isArray(resultValue)) {
      // A copy: the input's own array is never changed.
      const merged = resultValue.slice();
      const extensions = primitiveExtension as unknown[];
      for (let i = 0; i < Math.max(merged.length, extensions.length); i++) merged[i] = assignPrimitiveExtension(merged[i], extensions[i]);
      resultValue = merged;
    } else if (!resultValue && Array.isArray(primitiveExtension)) {
      const merged = primitiveExtension.slice();
      for (let i = 0; i < primitiveExtension.length; i++) merged[i] = assignPrimitiveExtension(undefined, primitiveExtension[i]);
      resultValue = merged;
    } else {
      resultValue = assignPrimitiveExtension(resultValue, primitiveExtension);
    }
  }
  if (isEmptyValue(resultValue)) return undefined;
  if (resultType === 'Element' || resultType === 'BackboneElement') resultType = (element.type[0] as { code: string }).code;
  const prefix = parentPath ? `${parentPath}.${key}` : key;
  if (Array.isArray(resultValue)) {
    const list: TypedValueWithPath[] = new Array(resultValue.length);
    for (let i = 0; i < resultValue.length; i++) {
      const item: unknown = resultValue[i];
      list[i] = { type: typeOf(item, resultType), value: item, path: `${prefix}[${i}]` };
    }
    return list;
  }
  return { type: typeOf(resultValue, resultType), value: resultValue, path: prefix };
}
