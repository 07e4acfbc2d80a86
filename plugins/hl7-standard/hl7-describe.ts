/**
 * What an HL7 v2 path means (`MSH`, `PID.5`, `PID.5.1`, `PID.3.4.2`), from the definitions of a version: name, data
 * type, optionality, repetition, length and table; with `detail`, also the cardinality, the table's codes (bounded)
 * and what the path holds (a segment's fields, a data type's components).
 */
import type { DescribeOptions, FieldChild, FieldDescription } from '../../kernel/standards-registry.ts';
import {
  getHl7Definitions,
  getHl7TableValues,
  type Hl7ComponentDefinition,
  type Hl7FieldDefinition,
  type Hl7Optionality,
  type Hl7Version,
  type Hl7VersionDefinitions,
} from './hl7-definitions.ts';
import { parseHl7Path } from './hl7-path.ts';

const OPTIONALITY_NAMES: Record<Hl7Optionality, string> = {
  R: 'required',
  O: 'optional',
  C: 'conditional',
  B: 'backward compatible',
  W: 'withdrawn',
};

/** Why a text is not an HL7 v2 path, or undefined when it is one. */
export function hl7PathProblem(path: string): string | undefined {
  if (parseHl7Path(path)) return undefined;
  return `"${path}" is not an HL7 v2 path: write SEG, SEG.field, SEG.field.component or SEG.field.component.subcomponent (PID.5.1)`;
}

/** The table's codes and name, at most `maxCodes` of them, with the total; a note when the table has no values. */
function tableDetail(table: string | undefined, maxCodes: number): Partial<FieldDescription> {
  if (table === undefined) return {};
  const values = getHl7TableValues(table);
  if (!values || values.values.length === 0) {
    return { codeTotal: 0, codesNote: `Table ${table} has no values in the definitions (user-defined or external).` };
  }
  return {
    ...(values.description ? { tableName: values.description } : {}),
    codes: values.values.slice(0, maxCodes).map(({ code, description }) => ({ code, display: description })),
    codeTotal: values.values.length,
  };
}

/** The components of a data type as children of `path`; empty for a primitive. */
function componentChildren(definitions: Hl7VersionDefinitions, dataType: string, path: string): FieldChild[] {
  return (definitions.dataType(dataType)?.components ?? []).map((component) => ({
    path: `${path}.${component.position}`,
    name: component.name,
    dataType: component.dataType,
    optionality: OPTIONALITY_NAMES[component.optionality],
  }));
}

function fieldCardinality(field: Hl7FieldDefinition): string {
  const max = Number.isFinite(field.maxRepetitions) ? String(field.maxRepetitions) : '*';
  return `${field.optionality === 'R' ? 1 : 0}..${max}`;
}

function describeComponent(
  path: string,
  owner: string,
  component: Hl7ComponentDefinition,
  name: string,
  description: string,
): FieldDescription {
  return {
    path,
    name,
    dataType: component.dataType,
    optionality: OPTIONALITY_NAMES[component.optionality],
    maxLength: component.maxLength,
    table: component.table,
    description: `${description} (${owner})`,
  };
}

/** Describes a path from the definitions of `version`; undefined when the path names nothing there. */
export function describeHl7Path(path: string, version: Hl7Version, options: Pick<DescribeOptions, 'detail'> = {}): FieldDescription | undefined {
  const parsed = parseHl7Path(path);
  if (!parsed) return undefined;
  const definitions = getHl7Definitions(version);
  const detail = options.detail;
  const segment = definitions.segment(parsed.segment);
  if (!segment) return undefined;
  if (parsed.field === undefined) {
    const base: FieldDescription = { path, name: segment.description, description: `Segment ${parsed.segment} (HL7 v${version})` };
    if (!detail) return base;
    const children = segment.fields.map((field) => ({
      path: `${parsed.segment}.${field.position}`,
      name: field.name,
      dataType: field.dataType,
      optionality: OPTIONALITY_NAMES[field.optionality],
    }));
    return { ...base, children };
  }
  const field = segment.fields[parsed.field - 1];
  if (!field) return undefined;
  const fieldPath = `${parsed.segment}.${parsed.field}`;
  if (parsed.component === undefined) {
    const base: FieldDescription = {
      path,
      name: field.name,
      dataType: field.dataType,
      optionality: OPTIONALITY_NAMES[field.optionality],
      repeatable: field.maxRepetitions > 1,
      maxLength: field.maxLength,
      table: field.table,
      description: `${parsed.segment}-${parsed.field} ${field.name} (${field.dataType}) in HL7 v${version}`,
    };
    if (!detail) return base;
    return {
      ...base,
      cardinality: fieldCardinality(field),
      ...tableDetail(field.table, detail.maxCodes),
      children: componentChildren(definitions, field.dataType, fieldPath),
    };
  }
  const component = definitions.dataType(field.dataType)?.components[parsed.component - 1];
  if (!component) return undefined;
  const componentPath = `${fieldPath}.${parsed.component}`;
  if (parsed.subcomponent === undefined) {
    const base = describeComponent(
      path,
      `HL7 v${version}`,
      component,
      `${field.name} - ${component.name}`,
      `Component ${parsed.component} of ${field.dataType} in ${parsed.segment}-${parsed.field}`,
    );
    if (!detail) return base;
    return { ...base, ...tableDetail(component.table, detail.maxCodes), children: componentChildren(definitions, component.dataType, componentPath) };
  }
  const subcomponent = definitions.dataType(component.dataType)?.components[parsed.subcomponent - 1];
  if (!subcomponent) return undefined;
  const base = describeComponent(
    path,
    `HL7 v${version}`,
    subcomponent,
    `${field.name} - ${component.name} - ${subcomponent.name}`,
    `Subcomponent ${parsed.subcomponent} of ${component.dataType} in component ${parsed.component} of ${parsed.segment}-${parsed.field}`,
  );
  if (!detail) return base;
  return { ...base, ...tableDetail(subcomponent.table, detail.maxCodes), children: [] };
}
