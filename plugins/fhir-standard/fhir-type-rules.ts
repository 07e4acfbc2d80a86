/**
 * Rules on values of a data type that no invariant states but HL7's validator enforces: a Coding's code must exist
 * in a code system the core package defines completely (whatever the binding's strength), a ValueSet's URL is not a
 * code system, an Attachment's `size` and `hash` must agree with its `data`, and an extension R4 defines is used as its
 * definition says (fhir-core-extensions.ts).
 */
import { createHash } from 'node:crypto';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { ACTUAL_CHARACTERS, actualValue } from '../../kernel/standards/issue-detail.ts';
import { createExtensionCheck, type ExtensionPlace, type ExtensionPlaceTypes } from './fhir-core-extensions.ts';
import type { FhirFinding } from './fhir-issues.ts';
import type { FhirTerminology } from './fhir-terminology.ts';

/** Code systems of HL7 v2 tables, as FHIR names them. */
const V2_TABLES = 'http://terminology.hl7.org/CodeSystem/v2-';

/** A check of one value of a data type, told where it sits; it appends what it finds. */
export type TypeRule = (value: Record<string, unknown>, field: string, out: FhirFinding[], place: ExtensionPlace) => void;

/** The decoded bytes of base64 text (whitespace allowed, as R4's base64Binary pattern does), or undefined. */
function decodeBase64(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}

/** The rules, by data type name. */
export function createTypeRules(terminology: FhirTerminology, places: ExtensionPlaceTypes): Readonly<Record<string, TypeRule>> {
  const coding: TypeRule = (value, field, out) => {
    const system = value.system;
    const code = value.code;
    if (typeof system !== 'string') return;
    if (terminology.isValueSetUrl(system)) {
      out.push({
        field: `${field}.system`,
        code: 'INVALID_DATA_TYPE',
        class: 'nonconformant',
        message: `${field}.system "${excerpt(system)}" is the URL of a value set, not of a code system; a Coding names the code system its code comes from.`,
      });
      return;
    }
    // HL7 v2 tables evolve outside FHIR's releases (terminology.hl7.org adds codes R4's copy lacks): not judged here.
    if (typeof code !== 'string' || system.startsWith(V2_TABLES) || terminology.codeInSystem(system, code) !== 'not-found') return;
    out.push({
      field: `${field}.code`,
      code: 'CODE_NOT_IN_CODE_SYSTEM',
      class: 'nonconformant',
      message: `${field}.code "${excerpt(code)}" is not a code of ${excerpt(system)}, which FHIR R4 defines completely.`,
      expected: `a code of ${excerpt(system, ACTUAL_CHARACTERS)}`,
      actual: actualValue(code),
    });
  };

  const attachment: TypeRule = (value, field, out) => {
    if (typeof value.data !== 'string') return;
    const bytes = decodeBase64(value.data);
    if (!bytes) return; // the data type check reports text that is not base64
    if (typeof value.size === 'number' && value.size !== bytes.length) {
      out.push({
        field: `${field}.size`,
        code: 'CONSTRAINT_FAILED',
        class: 'nonconformant',
        message: `${field}.size says ${value.size} bytes but data holds ${bytes.length}.`,
      });
    }
    if (typeof value.hash === 'string') {
      const digest = createHash('sha1').update(bytes).digest('base64');
      if (value.hash.replace(/\s+/g, '') !== digest) {
        out.push({
          field: `${field}.hash`,
          code: 'CONSTRAINT_FAILED',
          class: 'nonconformant',
          message: `${field}.hash is not the SHA-1 of data (base64 "${digest}").`,
        });
      }
    }
  };

  return { Coding: coding, Attachment: attachment, Extension: createExtensionCheck(places) };
}
