/**
 * Example requests and answers of the bridge routes, shown in the bridge's OpenAPI document (the docs page pre-fills
 * "Try it out" with them) and used by the README's curl examples. Every example is a working request.
 */

/** A short ADT^A01 v2.5.1 that validates clean in strict mode. */
export const EXAMPLE_HL7 = [
  'MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB|GOOD HEALTH HOSPITAL|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5.1',
  'EVN||20250615120000',
  'PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR||EVERYMAN^ADAM^A||19610615|M',
  'PV1|1|I|2000^2012^01',
].join('\r');

/** The same message with another control id and patient name, for diff. */
export const EXAMPLE_HL7_CHANGED = EXAMPLE_HL7.replace('MSG00001', 'MSG00002').replace('EVERYMAN^ADAM', 'EVERYMAN^ADAMS');

/** A FHIR R4 Patient as a JSON object. */
export const EXAMPLE_FHIR_PATIENT = {
  resourceType: 'Patient',
  id: 'example',
  name: [{ family: 'Everyman', given: ['Adam'] }],
  gender: 'male',
  birthDate: '1961-06-15',
};

/** The same Patient in FHIR's XML form. */
export const EXAMPLE_FHIR_PATIENT_XML = [
  '<Patient xmlns="http://hl7.org/fhir">',
  '  <id value="example"/>',
  '  <name><family value="Everyman"/><given value="Adam"/></name>',
  '  <gender value="male"/>',
  '  <birthDate value="1961-06-15"/>',
  '</Patient>',
].join('\n');

/** One example per raw content type of POST /api/validate: each is a message of the kind that type carries. */
export const EXAMPLE_RAW_MESSAGES: Readonly<Record<string, string>> = {
  'text/plain': EXAMPLE_HL7,
  'x-application/hl7-v2+er7': EXAMPLE_HL7,
  'application/hl7-v2': EXAMPLE_HL7,
  'application/hl7-v2+er7': EXAMPLE_HL7,
  'application/fhir+json': JSON.stringify(EXAMPLE_FHIR_PATIENT, null, 2),
  'application/fhir+xml': EXAMPLE_FHIR_PATIENT_XML,
  'application/xml': EXAMPLE_FHIR_PATIENT_XML,
  'text/xml': EXAMPLE_FHIR_PATIENT_XML,
};

/** Examples of every bridge route, keyed by `METHOD path`. */
export const BRIDGE_EXAMPLES = {
  validate: {
    body: { messageContent: EXAMPLE_HL7, standard: 'hl7', mode: 'strict' },
    rawBody: EXAMPLE_RAW_MESSAGES,
    query: { mode: 'strict' },
    response: {
      isValid: true,
      errors: [],
      warnings: [],
      totals: { errors: 0, warnings: 0, byCode: {} },
      truncated: false,
      summary: {
        messageCount: 1,
        mode: 'strict',
        charset: 'UTF-8',
        controlId: 'MSG00001',
        version: '2.5.1',
        validatedAgainst: '2.5.1',
        messageType: 'ADT^A01',
        structure: 'ADT_A01',
      },
      standard: 'hl7',
    },
  },
  diff: {
    body: { leftMessage: EXAMPLE_HL7, rightMessage: EXAMPLE_HL7_CHANGED, ignoredFields: ['MSH.10'] },
    response: {
      differences: [
        { field: 'PID.5.2', leftValue: 'ADAM', rightValue: 'ADAMS', changeType: 'modified' },
      ],
      totalDifferences: 1,
      totals: { modified: 1, added: 0, removed: 0 },
      truncated: false,
      ignoredFields: ['MSH.10'],
      unmatchedIgnoredFields: [],
      standard: 'hl7',
    },
  },
  generate: {
    body: { standard: 'hl7', messageType: 'ADT^A01', hl7Version: '2.5.1', count: 1, seed: 42 },
    response: [EXAMPLE_HL7],
  },
  describe: {
    query: { standard: 'hl7', path: 'PID.5', version: '2.5.1' },
    response: {
      path: 'PID.5',
      name: 'Patient Name',
      dataType: 'XPN',
      optionality: 'required',
      repeatable: true,
      maxLength: 250,
      description: 'PID-5 Patient Name (XPN) in HL7 v2.5.1',
    },
  },
  standards: {
    response: [
      {
        id: 'hl7',
        displayName: 'HL7 v2',
        versions: ['2.3', '2.3.1', '2.4', '2.5', '2.5.1', '2.6', '2.7', '2.7.1', '2.8'],
        defaultVersion: '2.3',
        messageTypes: ['ADT^A01', 'ADT^A04', 'ORU^R01'],
      },
    ],
  },
  profiles: {
    response: [
      {
        name: 'acme-adt',
        pack: 'acme-adt-vendor',
        standard: 'hl7',
        description: 'ACME HIS ADT outbound feed (A01/A03/A04/A08) with patient and visit extensions.',
        version: '2.5',
        messageTypes: ['ADT^A01', 'ADT^A03', 'ADT^A04', 'ADT^A08'],
      },
    ],
  },
};
