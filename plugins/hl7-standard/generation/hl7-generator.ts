/**
 * HL7 v2 message generation: realistic, internally consistent messages of many types for every supported version,
 * drawn from the synthetic-data service (never a real person). The version's definitions decide the structure (which
 * segments, in which order, which are required), the field types (TS or DTM, CE or CWE, MSH-9.3 or not) and the
 * field lengths; the blueprints and segment builders only say what the message is about.
 *
 * Same seed and reference time, same bytes on any machine and day (no clock, no Math.random when seeded); the message
 * times fall in the minute before the reference time (GenerateOptions.referenceTimeMs). Segments end with `\r`.
 */
import type { GenerateOptions } from '../../../kernel/standards-registry.ts';
import type { SyntheticDataService } from '../../synthetic-data/api.ts';
import { hl7Errors } from '../errors.ts';
import { getHl7Definitions, getHl7TableValues, HL7_VERSIONS, type Hl7VersionDefinitions, isSupportedVersion } from '../hl7-definitions.ts';
import { encodeHl7Message } from '../parsing/hl7-encoder.ts';
import { valueForRequiredField } from './hl7-generator-required.ts';
import { createHl7Scenario, type Hl7Scenario } from './hl7-generator-scenario.ts';
import { SEGMENT_BUILDERS } from './hl7-generator-segments.ts';
import { planMessageSegments } from './hl7-generator-structure.ts';
import { isFillable, renderGeneratedField } from './hl7-generator-values.ts';
import { HL7_MESSAGE_BLUEPRINTS, type Hl7MessageBlueprint } from './hl7-message-blueprints.ts';
import type { Hl7Delimiters, Hl7Field, Hl7Segment } from '../hl7-model.ts';

/** Message types the generator writes, the default (`ADT^A01`) first. */
export const HL7_GENERATED_MESSAGE_TYPES: readonly string[] = HL7_MESSAGE_BLUEPRINTS.map((b) => b.messageType);

/** Version used when a request names none (the API's documented default for `hl7Version`). */
export const HL7_GENERATOR_DEFAULT_VERSION = '2.3';

/** The delimiters generated messages use (the standard's recommended set). */
const DELIMITERS: Hl7Delimiters = { field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&' };

const BLUEPRINTS = new Map(HL7_MESSAGE_BLUEPRINTS.map((b) => [b.messageType, b]));

/** `ADT^A01`, `ADT_A01` or `adt^a01` -> `ADT^A01`. */
function normaliseMessageType(messageType: string): string {
  return messageType.trim().toUpperCase().replace('_', '^');
}

/**
 * The structure id to write in MSH-9.3: the entry of HL7 table 0354 (message structure) that lists the trigger,
 * e.g. ADT_A01 for A04 and A08.
 */
function structureIdOf(code: string, trigger: string, fallback: string): string {
  const table = getHl7TableValues('0354');
  const entry = table?.values.find(
    (v) => v.code.startsWith(`${code}_`) && v.description.split(',').some((t) => t.trim() === trigger),
  );
  return entry?.code ?? fallback;
}

interface MessageRecipe {
  blueprint: Hl7MessageBlueprint;
  defs: Hl7VersionDefinitions;
  code: string;
  trigger: string;
  structureId: string;
  structure: NonNullable<ReturnType<Hl7VersionDefinitions['structure']>>;
}

/** True when the version defines a structure for a generated type (ORM^O01 left the standard in v2.7). */
function supportsType(defs: Hl7VersionDefinitions, messageType: string): boolean {
  const [code, trigger] = messageType.split('^');
  return defs.resolveMessage(code, trigger).structure !== undefined;
}

function resolveRecipe(options: GenerateOptions): MessageRecipe {
  const version = options.version ?? HL7_GENERATOR_DEFAULT_VERSION;
  if (!isSupportedVersion(version)) {
    throw hl7Errors.create('UNSUPPORTED_VERSION', { version, supported: HL7_VERSIONS.join(', ') });
  }
  const messageType = normaliseMessageType(options.messageType);
  const blueprint = BLUEPRINTS.get(messageType);
  const defs = getHl7Definitions(version);
  const [code, trigger] = messageType.split('^');
  const resolution = blueprint ? defs.resolveMessage(code, trigger) : undefined;
  if (!blueprint || !resolution?.structure) {
    throw hl7Errors.create(
      'UNKNOWN_MESSAGE_TYPE',
      { messageType: `${options.messageType} v${version}`, version },
      { version, supported: HL7_GENERATED_MESSAGE_TYPES.filter((t) => supportsType(defs, t)) },
    );
  }
  const structure = resolution.structure;
  return { blueprint, defs, code, trigger, structure, structureId: structureIdOf(code, trigger, structure.id) };
}

function buildSegment(name: string, recipe: MessageRecipe, scenario: Hl7Scenario, occurrence: number, iteration: number, line: number): Hl7Segment {
  const definition = recipe.defs.segment(name);
  const builder = SEGMENT_BUILDERS[name];
  const values = builder
    ? builder({ scenario, blueprint: recipe.blueprint, defs: recipe.defs, code: recipe.code, trigger: recipe.trigger, structureId: recipe.structureId, occurrence, iteration })
    : {};
  const fields: Hl7Field[] = [[[['']]]];
  const fieldDefs = definition?.fields ?? [];
  for (const fieldDef of fieldDefs) {
    if (name === 'MSH' && fieldDef.position <= 2) continue;
    let value = isFillable(fieldDef) ? values[fieldDef.position] : undefined;
    if (value === undefined && fieldDef.optionality === 'R') value = valueForRequiredField(fieldDef, recipe.defs, scenario, occurrence + 1);
    const rendered = value === undefined ? undefined : renderGeneratedField(value, fieldDef, recipe.defs);
    fields[fieldDef.position] = rendered ?? [[['']]];
  }
  if (name === 'MSH') {
    fields[1] = [[[DELIMITERS.field]]];
    fields[2] = [[[`${DELIMITERS.component}${DELIMITERS.repetition}${DELIMITERS.escape}${DELIMITERS.subcomponent}`]]];
  }
  // Trailing empty fields are not written (`PID|1||123` rather than `PID|1||123|||`).
  while (fields.length > 1 && isEmptyField(fields[fields.length - 1])) fields.pop();
  return { name, fields, line };
}

function isEmptyField(field: Hl7Field | undefined): boolean {
  return !field || field.every((rep) => rep.every((comp) => comp.every((sub) => sub === '')));
}

function generateOne(recipe: MessageRecipe, scenario: Hl7Scenario): string {
  const plan = planMessageSegments(recipe.structure, recipe.blueprint, scenario);
  const occurrences = new Map<string, number>();
  const segments = plan.map((planned, index) => {
    const occurrence = occurrences.get(planned.name) ?? 0;
    occurrences.set(planned.name, occurrence + 1);
    return buildSegment(planned.name, recipe, scenario, occurrence, planned.iteration, index + 1);
  });
  return encodeHl7Message({ delimiters: DELIMITERS, segments });
}

/**
 * Generates `count` messages of one type and version. Throws the plugin's `UNSUPPORTED_VERSION` or
 * `UNKNOWN_MESSAGE_TYPE` (status 400) for a version it has no definitions for, a type it cannot write, or a type
 * the version does not define (ORM^O01 after v2.6).
 */
export function generateHl7Messages(options: GenerateOptions, deps: { synthetic: SyntheticDataService }): string[] {
  const recipe = resolveRecipe(options);
  const random = deps.synthetic.createRandom(options.seed);
  const messages: string[] = [];
  const stampMs = options.referenceTimeMs ?? random.referenceDate.getTime();
  for (let i = 0; i < options.count; i++) messages.push(generateOne(recipe, createHl7Scenario(random, stampMs)));
  return messages;
}
