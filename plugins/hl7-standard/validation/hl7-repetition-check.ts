/**
 * The repetition and component checks of HL7 v2 field validation: one repetition read as its data type, the
 * components of a composite (required ones filled, formats, one nested level as subcomponents) or the value of a
 * primitive (its format, and for ID its HL7 table: value types, coding systems, table values).
 */
import type { Hl7ComponentDefinition } from '../hl7-definitions.ts';
import { isDataTypeOfAnyVersion, isHl7DefinedTable, isHl7TableValue, hl7TableCodes } from '../hl7-definitions.ts';
import { isHl7CodingSystem } from '../hl7-coding-systems.ts';
import { describeField } from './hl7-issue-messages.ts';
import type { Hl7Repetition } from '../hl7-model.ts';
import { checkPrimitiveValue, expectedPrimitive } from './hl7-value-check.ts';
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue, expectedCodes, MISSING_VALUE } from '../../../kernel/standards/issue-detail.ts';
import { CODING_SYSTEM_TABLE, type ComponentPlan, type PartPlan, TABLES_CHECKED_ELSEWHERE, type TypePlan, VALUE_TYPE_TABLE } from './hl7-check-plans.ts';
import { describeValue, type Place, repetitionPathOf } from './hl7-check-place.ts';

/** Types whose text may legitimately hold what looks like delimiters after parsing (formatted and varying data). */
const FREE_TYPES: ReadonlySet<string> = new Set(['VARIES', 'FT', 'TX', 'ST', 'NULLDT']);

/** What a coding-system name looks like: a short token. Anything else (words and spaces) is free text. */
const CODING_SYSTEM_TOKEN = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,19}$/;

/*
 * The hot loops of this file are index loops: they run for every field of every message, and for-of's iterator
 * protocol made walking the tree about twice as slow here.
 */

/** Length of one repetition as written (parts plus the separators between them). */
export function repetitionLength(rep: Hl7Repetition): number {
  let length = rep.length - 1;
  for (let c = 0; c < rep.length; c++) {
    const comp = rep[c] as string[];
    length += comp.length - 1;
    for (let s = 0; s < comp.length; s++) length += (comp[s] as string).length;
  }
  return length;
}

function isComponentEmpty(comp: string[]): boolean {
  for (let s = 0; s < comp.length; s++) if (comp[s] !== '') return false;
  return true;
}

/** True when no component of the repetition holds anything. */
export function isRepetitionEmpty(rep: Hl7Repetition): boolean {
  for (let c = 0; c < rep.length; c++) if (!isComponentEmpty(rep[c] as string[])) return false;
  return true;
}

/** Checks a primitive value (format and, for ID, the HL7 table) found at `place` (and component, part). */
function checkPrimitive(
  place: Place,
  dataType: string,
  value: string,
  table: string | undefined,
  component?: Hl7ComponentDefinition,
  part?: Hl7ComponentDefinition,
): void {
  const ctx = place.ctx;
  const problem = checkPrimitiveValue(dataType, value);
  if (problem) {
    const { path, name } = describeValue(place, component, part);
    ctx.issues.add(problem.code, path, `${describeField(path, name)} is ${problem.reason}: "${excerpt(value)}".`, problem.tolerable, {
      expected: expectedPrimitive(dataType, problem),
      actual: actualValue(value),
    });
    return;
  }
  if (dataType === 'ID' && table && value !== '' && value !== '""' && !TABLES_CHECKED_ELSEWHERE.has(table)) {
    if (table === VALUE_TYPE_TABLE) {
      checkValueType(place, value, component, part);
      return;
    }
    if (table === CODING_SYSTEM_TABLE) {
      if (isHl7CodingSystem(value)) return;
      // Public-health implementation guides name their value sets here: in compatibility mode that is readable.
      if (ctx.issues.mode === 'compatibility' && PUBLIC_HEALTH_CODING_SYSTEM.test(value)) return;
      reportCodingSystem(place, value, component, part);
      return;
    }
    // A field's table counts when HL7-defined; a component's table was chosen by its plan (ID in the version).
    if ((component !== undefined || isHl7DefinedTable(table)) && isHl7TableValue(table, value) === false) {
      const { path, name } = describeValue(place, component, part);
      ctx.issues.add('VALUE_NOT_IN_TABLE', path, `${describeField(path, name)} value "${excerpt(value)}" is not in HL7 table ${table} for ${ctx.label}.`, undefined, {
        expected: `${expectedCodes(hl7TableCodes(table) ?? [])} (HL7 table ${table})`,
        actual: actualValue(value),
      });
    }
  }
}

/**
 * Coding-system names of public-health implementation guides (CDC PHIN VADS): value-set names such as
 * `PH_SexOfPatient_HL7_2x` or `PH_NotifiableEvent_Disease_Condition_CDC_NNDSS`, and `PHINQUESTION` for the
 * guides' question codes. Not in HL7 table 0396, but a receiver of such a guide knows them.
 */
const PUBLIC_HEALTH_CODING_SYSTEM = /^(?:PH_[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*|PHINQUESTION|PHINVADS)$/;

/** True when the value checked is an observation value (OBX-5), which a receiver has to interpret. */
function isObservationValue(place: Place): boolean {
  return place.field.position === 5 && place.segment.name === 'OBX';
}

/**
 * A coding-system name outside table 0396. In an observation value, free text where the coding system belongs
 * (`Not detected^^some text`) leaves the code uninterpretable: an error in both modes. Elsewhere, and for a
 * token that is merely not listed, the usual table rule applies (strict error, compatibility warning).
 */
function reportCodingSystem(place: Place, value: string, component?: Hl7ComponentDefinition, part?: Hl7ComponentDefinition): void {
  const { path, name } = describeValue(place, component, part);
  const freeText = isObservationValue(place) && !CODING_SYSTEM_TOKEN.test(value);
  place.ctx.issues.add(
    'VALUE_NOT_IN_TABLE',
    path,
    freeText
      ? `${describeField(path, name)} holds text, "${excerpt(value)}", where the name of a coding system (HL7 table 0396) belongs, so a receiver cannot interpret the code.`
      : `${describeField(path, name)} value "${excerpt(value)}" is not a coding system of HL7 table 0396 (nor a local one, beginning 99) for ${place.ctx.label}.`,
    freeText ? false : undefined,
    { expected: 'a coding system of HL7 table 0396 (or a local one, beginning 99)', actual: actualValue(value) },
  );
}

/**
 * A value type (table 0125: OBX-2, OM1-3...) must be a data type of the version, or the value it types cannot be
 * read. A type another supported version defines (CE after its withdrawal in v2.7) still tells a receiver how to
 * read the value, so compatibility mode reports it as a warning; anything else is an error in both modes.
 */
function checkValueType(place: Place, value: string, component?: Hl7ComponentDefinition, part?: Hl7ComponentDefinition): void {
  const ctx = place.ctx;
  if (ctx.definitions.dataType(value)) return;
  const { path, name } = describeValue(place, component, part);
  const elsewhere = isDataTypeOfAnyVersion(value);
  ctx.issues.add(
    'INVALID_DATA_TYPE',
    path,
    `${describeField(path, name)} "${excerpt(value)}" is not a data type of ${ctx.label}${elsewhere ? ' (it is one of another HL7 version)' : ''}, so the value it types cannot be interpreted.`,
    elsewhere,
    { expected: `a data type of ${ctx.label} (HL7 table 0125)`, actual: actualValue(value) },
  );
}

/**
 * Checks one repetition typed `type`: components of a composite (with one nested level as subcomponents), or the
 * value of a primitive.
 */
export function checkTypedRepetition(place: Place, type: TypePlan, rep: Hl7Repetition, table: string | undefined): void {
  const components = type.components;
  if (!components) {
    if (rep.length > 1 || (rep[0]?.length ?? 0) > 1) {
      if (!FREE_TYPES.has(type.name) && type.defined) {
        const path = repetitionPathOf(place);
        place.ctx.issues.add(
          'INVALID_DATA_TYPE',
          path,
          `${describeField(path, place.field.name)} is of primitive type ${type.name} but holds separated parts; a delimiter inside the value must be escaped.`,
          // Senders often use a later version's composite form (IS became CWE in v2.6); compatibility accepts it.
          true,
          { expected: `one ${type.name} value without separators`, actual: `${rep.length} component(s)` },
        );
      }
      return;
    }
    if (type.checksValue) checkPrimitive(place, type.name, rep[0]?.[0] ?? '', table);
    return;
  }
  for (let c = 0; c < components.length; c++) {
    const component = components[c] as ComponentPlan;
    const comp = rep[component.def.position - 1];
    if (comp === undefined || isComponentEmpty(comp)) {
      if (component.def.optionality === 'R') {
        const compPath = `${repetitionPathOf(place)}.${component.def.position}`;
        place.ctx.issues.add(
          'REQUIRED_FIELD_MISSING',
          compPath,
          `${describeField(compPath, component.def.name)} is required in data type ${type.name} of ${place.field.name} (${place.ctx.label}) but is empty.`,
          // Senders often fill a composite partially; compatibility mode reports the missing part as a warning.
          true,
          MISSING_VALUE,
        );
      }
      continue;
    }
    if (component.parts) {
      for (let p = 0; p < component.parts.length; p++) {
        const part = component.parts[p] as PartPlan;
        const value = comp[part.def.position - 1];
        if (value !== undefined && value !== '') checkPrimitive(place, part.type, value, part.table, component.def, part.def);
      }
    } else if (component.primitive !== undefined && comp.length === 1) {
      const table = component.table ?? (component.observationTable !== undefined && isObservationValue(place) ? component.observationTable : undefined);
      checkPrimitive(place, component.primitive, comp[0] as string, table, component.def);
    }
  }
}
