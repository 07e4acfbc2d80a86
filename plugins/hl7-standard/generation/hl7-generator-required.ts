/**
 * Values for required fields a builder left empty: a version may require a field the builders do not describe (or
 * a segment without a builder may be required by the structure). Each gets a value of its data type drawn from the
 * scenario, so the message stays valid and consistent rather than padded with placeholders.
 */
import type { Hl7FieldDefinition, Hl7VersionDefinitions } from '../hl7-definitions.ts';
import type { Hl7Scenario } from './hl7-generator-scenario.ts';
import { hl7Date, hl7DateTime } from './hl7-generator-segments.ts';
import { firstTableCode, type GenValue } from './hl7-generator-values.ts';

const CODED = new Set(['CE', 'CWE', 'CNE']);
const DATE_TIMES = new Set(['TS', 'DTM', 'DR']);

/** A value for a required field of the given definition. */
export function valueForRequiredField(
  definition: Hl7FieldDefinition,
  defs: Hl7VersionDefinitions,
  scenario: Hl7Scenario,
  setId: number,
): GenValue {
  const type = definition.dataType;
  const tableCode = firstTableCode(definition.table);
  if (tableCode && (type === 'ID' || type === 'IS' || CODED.has(type))) {
    return [tableCode.code, tableCode.description, `HL7${definition.table}`];
  }
  if (DATE_TIMES.has(type)) return [[hl7DateTime(scenario.eventTime)]];
  const doctor = scenario.attending;
  const patient = scenario.patient;
  switch (type) {
    case 'SI':
    case 'NM':
      return String(setId);
    case 'DT':
      return hl7Date(scenario.eventTime);
    case 'TM':
      return hl7DateTime(scenario.eventTime).slice(8, 12);
    case 'XCN':
    case 'CN':
      return [doctor.npi, doctor.familyName, doctor.givenName];
    case 'XPN':
    case 'PN':
      return [patient.familyName, patient.givenName];
    case 'XAD':
    case 'AD':
      return [patient.address.line1, '', patient.address.city, patient.address.state, patient.address.zip];
    case 'XTN':
    case 'TN':
      return [`(${patient.phoneParts.areaCode})555-${patient.phoneParts.line}`];
    case 'CX':
      return [patient.mrn, '', '', 'SGH', 'MR'];
    case 'EI':
    case 'HD':
      return [`${scenario.controlId}-${setId}`];
    case 'PL':
      return [scenario.location.pointOfCare, scenario.location.room, scenario.location.bed];
    case 'XON':
      return [scenario.parties.facilityName];
    default: {
      // Any other composite: fill its first component by its own type, which is what makes the field non-empty.
      const first = defs.dataType(type)?.components[0];
      if (!first) return 'UNK';
      const inner = valueForRequiredField({ ...definition, dataType: first.dataType, table: first.table, maxLength: undefined }, defs, scenario, setId);
      return typeof inner === 'string' ? [inner] : 'repetitions' in inner ? 'UNK' : [inner[0] ?? 'UNK'];
    }
  }
}
