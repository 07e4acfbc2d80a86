/**
 * Cross-version extensions (R4 versions.html#extensions): `http://hl7.org/fhir/[version]/StructureDefinition/extension-[path]`
 * stands for the element `[path]` of another FHIR version, with no definition of its own to look up. What can be
 * checked from the element models of those versions (the `fhirpath` package's DSTU2, STU3, R4 and R5 models):
 * - the version is one FHIR publishes cross-version extensions for (1.0, 3.0, 4.0, 5.0);
 * - the element exists in that version;
 * - for a backbone element, represented by a complex extension, each sub-extension is named after one of its
 *   child elements (`species`, `breed` of DSTU2's Patient.animal; not `x-breed`).
 * Whether the element was a modifier in its version (so the extension must be a modifierExtension), HL7's validator
 * knows from those versions' full definitions, which are not at hand: that rule is not applied.
 */
import { createRequire } from 'node:module';
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../../kernel/standards/issue-detail.ts';
import type { FhirFinding } from '../fhir-issues.ts';

const require = createRequire(import.meta.url);

/** A cross-version extension URL: its version and element path. */
const CROSS_VERSION = /^http:\/\/hl7\.org\/fhir\/(\d+\.\d+)\/StructureDefinition\/extension-(.+)$/;

/** The element models by cross-version version segment. */
const MODELS: Readonly<Record<string, string>> = { '1.0': 'fhirpath/fhir-context/dstu2', '3.0': 'fhirpath/fhir-context/stu3', '4.0': 'fhirpath/fhir-context/r4', '5.0': 'fhirpath/fhir-context/r5' };

interface ElementModel {
  path2Type: Record<string, string>;
  choiceTypePaths: Record<string, string[]>;
  pathsDefinedElsewhere: Record<string, string>;
}

const loaded = new Map<string, ElementModel>();

function model(version: string): ElementModel | undefined {
  const name = MODELS[version];
  if (!name) return undefined;
  let found = loaded.get(version);
  if (!found) {
    found = require(name) as ElementModel;
    loaded.set(version, found);
  }
  return found;
}

function exists(model: ElementModel, path: string): boolean {
  return Object.hasOwn(model.path2Type, path) || Object.hasOwn(model.choiceTypePaths, path) || Object.hasOwn(model.pathsDefinedElsewhere, path);
}

/** True when `url` has the form of a cross-version extension. */
export function isCrossVersionExtension(url: string): boolean {
  return CROSS_VERSION.test(url);
}

/** Checks one cross-version extension at `field`. */
export function checkCrossVersionExtension(extension: Record<string, unknown>, field: string, url: string, out: FhirFinding[]): void {
  const [, version, path] = CROSS_VERSION.exec(url) as RegExpExecArray;
  const elements = model(version as string);
  if (!elements) {
    out.push({
      field: `${field}.url`,
      code: 'UNKNOWN_ELEMENT',
      class: 'nonconformant',
      message: `${field}.url names the FHIR version ${excerpt(version as string)}, for which there are no cross-version extensions (versions 1.0, 3.0, 4.0 and 5.0 have them).`,
      expected: 'http://hl7.org/fhir/1.0|3.0|4.0|5.0/StructureDefinition/extension-[path]',
      actual: actualValue(url),
    });
    return;
  }
  if (!exists(elements, path as string)) {
    out.push({
      field: `${field}.url`,
      code: 'UNKNOWN_ELEMENT',
      class: 'nonconformant',
      message: `${field}.url names ${excerpt(path as string)}, which is not an element of FHIR ${version}.`,
      actual: actualValue(url),
    });
    return;
  }
  if (elements.path2Type[path as string] !== 'BackboneElement') return;
  const parts = Array.isArray(extension.extension) ? extension.extension : [];
  parts.forEach((part: unknown, index) => {
    const name = (part as { url?: unknown } | null)?.url;
    if (typeof name !== 'string' || name.includes(':') || exists(elements, `${path}.${name.replace(/\[x\]$/, '')}`)) return;
    out.push({
      field: `${field}.extension[${index}].url`,
      code: 'UNKNOWN_ELEMENT',
      class: 'nonconformant',
      message: `${field}.extension[${index}] "${excerpt(name)}" is not an element of ${excerpt(path as string)} in FHIR ${version}; the parts of a cross-version extension are named after its child elements.`,
      actual: actualValue(name),
    });
  });
}
