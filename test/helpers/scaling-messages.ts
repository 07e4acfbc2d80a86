/**
 * Messages whose size grows along one dimension at a time (segments, fields, repetitions, OBX count, Bundle entries,
 * SCRIPT elements, batch claims), for the tests that check validation time grows linearly with input size. Each
 * builder takes the count of the growing part and returns a message that is otherwise realistic, so the validator's
 * usual paths (field checks, profile rules, Bundle rules, reference resolution) all run over the growing part.
 */

import { SCRIPT_NEWRX_HEAD, SCRIPT_NEWRX_TAIL, scriptDiagnosis } from './large-messages.ts';

/** One message builder: the count of the growing part -> the message text. */
export type ScalingMessage = (count: number) => string;

function times<T>(count: number, part: (index: number) => T): T[] {
  return Array.from({ length: count }, (_, i) => part(i + 1));
}

/** ORU^R01 v2.5.1 for public health (the cdc-elr-oru-r01 profile's shape), with `count` numeric OBX segments. */
export const hl7ObservationCount: ScalingMessage = (count) =>
  [
    'MSH|^~\\&|LAB^2.16.840.1.113883.19.3.1^ISO|GOOD HEALTH^2.16.840.1.113883.19.3.2^ISO|ELR^2.16.840.1.113883.19.3.3^ISO|DOH^2.16.840.1.113883.19.3.4^ISO|20250615120000||ORU^R01^ORU_R01|M1|P|2.5.1|||NE|NE|||||PHLabReport-NoAck^ELR_Receiver^2.16.840.1.113883.9.11^ISO',
    'SFT|Lab Vendor^L^^^^ACME&2.16.840.1.113883.19.4.6&ISO^XX^^^1234|1.2|LabSys|789654||20250101',
    'PID|1||P1^^^GOOD HEALTH&2.16.840.1.113883.19.3.2&ISO^MR||EVERYMAN^ADAM^A^^^^L||19610615|M||2106-3^White^CDCREC|2222 HOME STREET^^GREENSBORO^NC^27401^USA^H||^PRN^PH^^1^555^5550100',
    'ORC|RE|O1^LAB^2.16.840.1.113883.19.3.1^ISO|F1^LAB^2.16.840.1.113883.19.3.1^ISO|||||||||1234^Admit^Alan^^^^^^NPI&2.16.840.1.113883.4.6&ISO^L^^^NPI||^WPN^PH^^1^555^5550101|||||||Good Health^L^^^^CLIA&2.16.840.1.113883.4.7&ISO^XX^^^01D1234567|1 Main St^^Greensboro^NC^27401^USA^B|^WPN^PH^^1^555^5550102|1 Main St^^Greensboro^NC^27401^USA^B',
    'OBR|1|O1^LAB^2.16.840.1.113883.19.3.1^ISO|F1^LAB^2.16.840.1.113883.19.3.1^ISO|24331-1^Lipid panel^LN|||20250615110000|||||||||1234^Admit^Alan^^^^^^NPI&2.16.840.1.113883.4.6&ISO^L^^^NPI||||||20250615115000|||F',
    // Short OBX segments: many findings per kilobyte (the profile's RE fields OBX-14, OBX-23, OBX-24 are empty), so
    // any rescan of earlier findings dominates the time long before the message is large.
    ...times(count, (i) => `OBX|${((i - 1) % 9999) + 1}|NM|2093-3^Cholesterol^LN||${150 + (i % 90)}|mg/dL|||||F`),
    'SPM|1|S1^LAB&2.16.840.1.113883.19.3.1&ISO||258500001^Nasopharyngeal swab^SCT|||||||||||||20250615100000|20250615110000',
  ].join('\r');

/**
 * ADT^A01 v2.5 with `count` ZPI segments (the acme-adt profile defines ZPI and allows one; every other one has a VIP
 * flag outside the profile's value set, one finding each).
 */
export const hl7ZSegmentCount: ScalingMessage = (count) =>
  [
    'MSH|^~\\&|ACMEHIS|FAC|RECV|RFAC|20240101120000||ADT^A01^ADT_A01|CTRL1|P|2.5|||||USA',
    'EVN|A01|20240101120000||||20240101115500',
    'PID|1||111^^^HOSP^MR||DOE^JANE||19800101|F|||1 MAIN ST^^TOWN^OH^44000|||||||ACC1',
    'PV1|1|I|WARD^101^A||||||||||||||||V1|||||||||||||||||||||||||20240101110000',
    ...times(count, (i) => `ZPI|${i}|DOE^JANE|${i % 2 === 0 ? 'Y' : 'X'}|20240101`),
  ].join('\r');

/** ADT^A01 v2.5 whose PID holds `count` filled fields (all but 39 of them beyond the last defined field). */
export const hl7FieldCount: ScalingMessage = (count) =>
  [
    'MSH|^~\\&|ACMEHIS|FAC|RECV|RFAC|20240101120000||ADT^A01^ADT_A01|CTRL1|P|2.5|||||USA',
    'EVN|A01|20240101120000||||20240101115500',
    `PID|1||111^^^HOSP^MR||DOE^JANE||19800101|F${times(count, (i) => `|F${i}`).join('')}`,
    'PV1|1|I|WARD^101^A',
  ].join('\r');

/** ADT^A01 v2.5 whose PID-3 (patient identifiers) and PID-13 (phones) repeat `count` times each. */
export const hl7RepetitionCount: ScalingMessage = (count) =>
  [
    'MSH|^~\\&|ACMEHIS|FAC|RECV|RFAC|20240101120000||ADT^A01^ADT_A01|CTRL1|P|2.5|||||USA',
    'EVN|A01|20240101120000||||20240101115500',
    `PID|1||${times(count, (i) => `${i}^^^HOSP^MR`).join('~')}||DOE^JANE||19800101|F|||1 MAIN ST^^TOWN^OH^44000||${times(count, (i) => `^PRN^PH^^1^555^${String(i % 10000).padStart(7, '0')}`).join('~')}|||||ACC1`,
    'PV1|1|I|WARD^101^A||||||||||||||||V1|||||||||||||||||||||||||20240101110000',
  ].join('\r');

/** `count` ADT^A08 messages in one input (segments across messages). */
export const hl7MessageCount: ScalingMessage = (count) =>
  times(count, (i) =>
    [
      `MSH|^~\\&|ACMEHIS|FAC|RECV|RFAC|20240101120000||ADT^A08^ADT_A01|C${i}|P|2.5|||||USA`,
      'EVN|A08|20240101120000||||20240101115500',
      `PID|1||${i}^^^HOSP^MR||DOE^JANE||19800101|F|||1 MAIN ST^^TOWN^OH^44000|||||||ACC${i}`,
      'PV1|1|I|WARD^101^A||||||||||||||||V1|||||||||||||||||||||||||20240101110000',
    ].join('\r'),
  ).join('\r');

/** A collection Bundle of `count` Patient and `count` Observation entries, each Observation referring to its Patient. */
export const fhirBundleEntryCount: ScalingMessage = (count) =>
  JSON.stringify({
    resourceType: 'Bundle',
    id: 'scaling',
    type: 'collection',
    entry: times(count, (i) => i).flatMap((i) => [
      {
        fullUrl: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        resource: {
          resourceType: 'Patient',
          id: `p${i}`,
          meta: { profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'] },
          identifier: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: `MRN${i}` }],
          name: [{ family: 'Everyman', given: ['Adam'] }],
          gender: i % 2 === 0 ? 'male' : 'female',
          birthDate: '1961-06-15',
          text: { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>Adam Everyman ${i}</p></div>` },
        },
      },
      {
        fullUrl: `urn:uuid:10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        resource: {
          resourceType: 'Observation',
          id: `o${i}`,
          status: 'final',
          category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
          code: { coding: [{ system: 'http://loinc.org', code: '2093-3', display: 'Cholesterol' }] },
          subject: { reference: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}` },
          effectiveDateTime: '2025-06-15T11:00:00Z',
          valueQuantity: { value: 150 + (i % 90), unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' },
        },
      },
    ]),
  });

/** One Patient whose names, identifiers, phones and addresses repeat `count` times each. */
export const fhirRepetitionCount: ScalingMessage = (count) =>
  JSON.stringify({
    resourceType: 'Patient',
    id: 'scaling',
    identifier: times(count, (i) => ({ system: 'urn:oid:2.16.840.1.113883.19.5', value: `MRN${i}` })),
    name: times(count, (i) => ({ use: 'official', family: `Family${i}`, given: ['Adam', 'A'] })),
    telecom: times(count, (i) => ({ system: 'phone', value: `555-01${String(i % 100).padStart(2, '0')}`, use: 'home' })),
    gender: 'male',
    birthDate: '1961-06-15',
    address: times(count, () => ({ line: ['2222 Home Street'], city: 'Greensboro', state: 'NC', postalCode: '27401', country: 'US' })),
  });

/** A SCRIPT 2017071 NewRx whose medication carries `count` Diagnosis elements (five elements each). */
export const scriptElementCount: ScalingMessage = (count) => `${SCRIPT_NEWRX_HEAD}\n${times(count, scriptDiagnosis).join('\n')}${SCRIPT_NEWRX_TAIL}`;

/**
 * NCPDP profiles (the simple format) with rules over the growing parts: of {@link scriptElementCount}, and of the
 * B1 claims of a batch file.
 */
export const NCPDP_SCALING_PROFILES = [
  {
    name: 'scaling-newrx',
    messageTypes: ['NewRx'],
    required: ['NewRx.MedicationPrescribed.Diagnosis.Primary.Code', 'NewRx.MedicationPrescribed.Note'],
    valueSets: { 'NewRx.MedicationPrescribed.Diagnosis.Primary.Qualifier': ['ABF', 'DX'] },
    maxLengths: { 'NewRx.MedicationPrescribed.Diagnosis.Primary.Description': 20 },
  },
  {
    name: 'scaling-b1',
    messageTypes: ['B1'],
    required: ['AM07.D2', 'AM07.D7', 'AM01.CY'],
    valueSets: { 'AM07.E1': ['03'] },
    maxLengths: { 'AM07.D7': 11 },
  },
];
