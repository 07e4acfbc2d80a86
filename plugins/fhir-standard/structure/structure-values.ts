/**
 * Two readings of raw values the structural validation (structure-validator.ts) makes as @medplum/core 4.5 makes them
 * (src/typeschema/validation.ts, Apache-2.0): the null and undefined values JSON may hold where FHIR allows none, and
 * a primitive split from the extension object merged into it.
 */
import type { TypedValue } from '@medplum/core';
import { medplumCore } from '../medplum-core.ts';

/** One issue, as @medplum/core writes it into an OperationOutcome. */
export type StructureIssue = ReturnType<ReturnType<typeof medplumCore>['createStructureIssue']>;

/**
 * Reports every null (and undefined array item) in a JSON object, at any depth: FHIR JSON has none, except a null
 * standing in an array of primitives for an item whose `_` twin carries its extensions.
 */
export function checkObjectForNull(object: Record<string, unknown>, path: string, issues: StructureIssue[]): void {
  const { createStructureIssue } = medplumCore();
  for (const key of Object.keys(object)) {
    const value = object[key];
    const propertyPath = `${path}.${key}`;
    if (value === null) {
      issues.push(createStructureIssue(propertyPath, 'Invalid null value'));
    } else if (Array.isArray(value)) {
      const partnerKey = key.startsWith('_') ? key.slice(1) : `_${key}`;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item === undefined) {
          issues.push(createStructureIssue(`${propertyPath}[${i}]`, 'Invalid undefined value'));
        } else if (item === null && !(object[partnerKey] as Record<number, unknown> | null | undefined)?.[i]) {
          issues.push(createStructureIssue(`${propertyPath}[${i}]`, 'Invalid null value'));
        } else if (item !== null && typeof item === 'object') {
          checkObjectForNull(item as Record<string, unknown>, `${propertyPath}[${i}]`, issues);
        }
        // A primitive item holds no null: nothing to look into.
      }
    } else if (typeof value === 'object') {
      checkObjectForNull(value as Record<string, unknown>, propertyPath, issues);
    }
  }
}

/**
 * A primitive's own value and the extension object merged into it (a String object carrying `extension`), each
 * typed: the value as the element's type, the rest as an `Element`. A plain primitive has no extension part; an
 * object that is no boxed primitive is all extension.
 */
export function unpackPrimitiveElement(typed: TypedValue): [TypedValue | undefined, TypedValue | undefined] {
  const value = typed.value as unknown;
  if (typeof value !== 'object' || !value) return [typed, undefined];
  const primitive = (value as { valueOf(): unknown }).valueOf();
  if (primitive === value) return [undefined, { type: 'Element', value }];
  const primitiveKeys = new Set(Object.keys(primitive as object));
  const extensionEntries = Object.entries(value).filter(([key]) => !primitiveKeys.has(key));
  const extension = extensionEntries.length > 0 ? Object.fromEntries(extensionEntries) : undefined;
  return [
    { type: typed.type, value: primitive },
    { type: 'Element', value: extension },
  ];
}
