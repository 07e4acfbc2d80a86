/**
 * The check plans of HL7 v2 field validation: each version's data types and segment definitions compiled once into
 * what is actually checked (data types resolved, components that can raise nothing dropped, tables chosen), so the
 * field checks that run for every field of every message only walk what matters.
 */
import type { Hl7ComponentDefinition, Hl7FieldDefinition, Hl7SegmentDefinition, Hl7VersionDefinitions } from '../hl7-definitions.ts';
import { getHl7TableValues } from '../hl7-definitions.ts';
import { CHECKED_PRIMITIVES } from './hl7-value-check.ts';

/**
 * ID tables not checked here: 0076/0003/0354 (message type, event, structure: the header check owns them) and
 * 0104 (version: the version check owns it; hl7-dictionary's table stops at 2.6).
 */
export const TABLES_CHECKED_ELSEWHERE: ReadonlySet<string> = new Set(['0076', '0003', '0354', '0104']);

/** Table 0125 (value type) lists data types; any data type of the version is a valid value. */
export const VALUE_TYPE_TABLE = '0125';

/** Table 0396 (coding system): its values and patterns live in hl7-coding-systems.ts. */
export const CODING_SYSTEM_TABLE = '0396';

/** Coded data types whose components 3, 6 (and 12 from v2.7) name a coding system. */
const CODED_TYPES: ReadonlySet<string> = new Set(['CE', 'CWE', 'CNE', 'CF']);
const CODING_SYSTEM_COMPONENTS: ReadonlySet<number> = new Set([3, 6, 12]);

/**
 * True for the table of an ID component or part that is checked: the version types the component ID, which the
 * standard reserves for HL7-defined tables (XPN-7 0200, XAD-7 0190, XTN-2/3 0201/0202, HD-3 0301, CX-5 0203 from
 * v2.4...), and hl7-dictionary has the table's values. The same table on an IS component (CX-5 in v2.3) is
 * user-defined there and not checked.
 */
function isCheckedTable(table: string | undefined): table is string {
  return table !== undefined && !TABLES_CHECKED_ELSEWHERE.has(table) && table !== VALUE_TYPE_TABLE && getHl7TableValues(table) !== undefined;
}

/** One part (subcomponent) of a composite component whose format is checked. */
export interface PartPlan {
  def: Hl7ComponentDefinition;
  /** Primitive type checked (TS's time part read as DTM). */
  type: string;
  /** HL7-defined table whose values the part must hold (ID parts only). */
  table?: string;
}

/** One component of a composite type, with what is checked in it. */
export interface ComponentPlan {
  def: Hl7ComponentDefinition;
  /** Primitive type whose format is checked when the component holds a single value; undefined when unchecked. */
  primitive?: string;
  /** HL7-defined table whose values the component must hold (ID components only). */
  table?: string;
  /**
   * Table 0396 for a coded type's coding-system component where the version's definitions name none (CE in
   * v2.3-2.4): applied only to an observation value (OBX-5), where a receiver has to interpret the code.
   */
  observationTable?: string;
  /** Checked parts when the component is itself composite; undefined when none is checked. */
  parts?: PartPlan[];
}

/** A data type of one version, resolved for checking. */
export interface TypePlan {
  name: string;
  /** False when the version does not define the type (its values are then not checked). */
  defined: boolean;
  /** True when a value of this (primitive) type has a checked format or, for ID, table: most have neither. */
  checksValue: boolean;
  /**
   * Components of a composite type that can raise an issue (required, or with a checked format); the others are
   * left out so the walk skips them. Undefined for a primitive (or undefined) type.
   */
  components?: ComponentPlan[];
}

/** A field definition with its type plan. */
export interface FieldPlan {
  def: Hl7FieldDefinition;
  type: TypePlan;
  /** Length a repetition may have (see {@link effectiveMaxLength}); undefined when the version gives none. */
  maxLength?: number;
}

/**
 * The length a field's repetition may have. Published lengths that cannot hold the field's own legal values are
 * known to be too small (OBX-2 is 2 in v2.5 and v2.5.1, yet holds `CWE`, a value of its table 0125): for an ID
 * field the length is at least its HL7 table's longest code.
 */
function effectiveMaxLength(def: Hl7FieldDefinition): number | undefined {
  if (def.maxLength === undefined) return undefined;
  if (def.dataType !== 'ID' || def.table === undefined) return def.maxLength;
  let longest = def.maxLength;
  for (const entry of getHl7TableValues(def.table)?.values ?? []) longest = Math.max(longest, entry.code.length);
  return longest;
}

/** The field plans of one segment definition. */
export interface SegmentPlan {
  /** Every field, in order (MSH-1 and MSH-2 left out: they are the parser's concern). */
  fields: FieldPlan[];
  /** The required fields only: beyond the last field a segment holds, nothing else can raise an issue. */
  required: FieldPlan[];
}

/** Plans of one version's definitions. */
export interface VersionPlans {
  types: Map<string, TypePlan>;
  segments: Map<Hl7SegmentDefinition, SegmentPlan>;
}

const plansByVersion = new WeakMap<Hl7VersionDefinitions, VersionPlans>();

/** The plans of one version's definitions, made empty on first use and filled as types and segments are met. */
export function plansOf(definitions: Hl7VersionDefinitions): VersionPlans {
  let plans = plansByVersion.get(definitions);
  if (!plans) {
    plans = { types: new Map(), segments: new Map() };
    plansByVersion.set(definitions, plans);
  }
  return plans;
}

/** The data type whose components are checked; TS before v2.5 declares its time as ST, but it is a DTM. */
function componentType(composite: string, position: number, declared: string): string {
  return composite === 'TS' && position === 1 ? 'DTM' : declared;
}

function isComposite(definitions: Hl7VersionDefinitions, type: string): boolean {
  return (definitions.dataType(type)?.components.length ?? 0) > 0;
}

/** The check plan of a data type in a version (compiled on first use). */
export function typePlan(definitions: Hl7VersionDefinitions, plans: VersionPlans, name: string): TypePlan {
  let plan = plans.types.get(name);
  if (plan) return plan;
  const type = definitions.dataType(name);
  plan = { name, defined: type !== undefined, checksValue: name === 'ID' || CHECKED_PRIMITIVES.has(name) };
  if (type && type.components.length > 0) {
    plan.components = type.components.map((def): ComponentPlan => {
      const compType = componentType(name, def.position, def.dataType);
      const sub = definitions.dataType(compType);
      if (!sub || sub.components.length === 0) {
        // Only HL7-defined tables (and 0396) on ID components: IS and CWE components name user-defined tables.
        if (compType === 'ID' && isCheckedTable(def.table)) return { def, primitive: 'ID', table: def.table };
        const plan: ComponentPlan = CHECKED_PRIMITIVES.has(compType) ? { def, primitive: compType } : { def };
        if (!def.table && CODED_TYPES.has(name) && CODING_SYSTEM_COMPONENTS.has(def.position)) {
          plan.primitive ??= 'ID';
          plan.observationTable = CODING_SYSTEM_TABLE;
        }
        return plan;
      }
      const parts = sub.components
        .map((part): PartPlan => {
          const type = componentType(compType, part.position, part.dataType);
          return type === 'ID' && isCheckedTable(part.table) ? { def: part, type, table: part.table } : { def: part, type };
        })
        .filter((part) => (part.table !== undefined || CHECKED_PRIMITIVES.has(part.type)) && !isComposite(definitions, part.type));
      return parts.length > 0 ? { def, parts } : { def };
    });
    plan.components = plan.components.filter((c) => c.def.optionality === 'R' || c.primitive !== undefined || c.parts !== undefined);
  }
  plans.types.set(name, plan);
  return plan;
}

/** Segments whose first two fields are the delimiters themselves (the parser's concern, never checked here). */
const HEADER_SEGMENTS: ReadonlySet<string> = new Set(['MSH', 'FHS', 'BHS']);

/** The field plans of a segment definition in a version (compiled on first use). */
export function segmentPlan(definitions: Hl7VersionDefinitions, plans: VersionPlans, segment: Hl7SegmentDefinition): SegmentPlan {
  let plan = plans.segments.get(segment);
  if (!plan) {
    const fields = segment.fields
      .filter((def) => !(HEADER_SEGMENTS.has(segment.name) && def.position <= 2))
      .map((def) => ({ def, type: typePlan(definitions, plans, def.dataType), maxLength: effectiveMaxLength(def) }));
    plan = { fields, required: fields.filter((field) => field.def.optionality === 'R') };
    plans.segments.set(segment, plan);
  }
  return plan;
}
