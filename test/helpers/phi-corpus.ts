/**
 * A small PHI corpus of one made-up patient: an HL7 v2 ADT, a FHIR Bundle (JSON), a FHIR Patient (XML), an NCPDP
 * SCRIPT NewRx and a Telecommunication D.0 claim, with her identifiers planted in the known fields and in places that are not: free text, coded text,
 * base64 data, a Z-segment, extensions, notes, narrative, resource ids, an element name, an XML comment, and in the
 * caller's validation errors. Used by the compiled-service smoke test and by the model-path test, which asserts that
 * no planted value (compared normalised, see {@link normalisedText}) reaches a model.
 */

/** One message of the corpus, with the findings a caller might send along with it. */
export interface PhiSample {
  name: string;
  standard: 'hl7' | 'fhir' | 'ncpdp';
  /** Extension of a file holding it (`hl7`, `json`, `xml`, `txt`). */
  extension: string;
  content: string;
  /** What a caller pastes from its own validator: paths, codes and, as callers do, values. */
  validationErrors: string[];
}

const SURNAME = 'Thistlewood';
const GIVEN = 'Ermengarde';
const MRN = 'MRN88877766';
const SSN = '321-54-9876';
const PHONE = '614-555-0187';
const EMAIL = 'ermengarde.thistlewood@mail.example';
const STREET = '4417 Lantern Hollow Rd';
const CITY = 'Bellwether';
const MAIDEN = 'Featherstonehaugh';
const ACCOUNT = 'ACCT55443322';
const DOCTOR = ['Quimbley', 'Oswin'] as const;

/** Every planted value; a text holds one when {@link normalisedText} of it contains the normalised value as words. */
export const PLANTED_VALUES: readonly string[] = [
  SURNAME,
  GIVEN,
  MRN,
  SSN,
  PHONE,
  EMAIL,
  STREET,
  CITY,
  MAIDEN,
  ACCOUNT,
  DOCTOR[0],
  DOCTOR[1],
  '19480307',
  '1948-03-07',
];

/** Lower case, every run of characters that are not letters or digits one space, padded: `ROE, JANE` -> ` roe jane `. */
export function normalisedText(text: string): string {
  return ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/** The planted values found in `text` as whole words, case and punctuation ignored. */
export function plantedValuesIn(text: string): string[] {
  const haystack = normalisedText(text);
  return PLANTED_VALUES.filter((value) => haystack.includes(normalisedText(value)));
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** An ADT^A01 with an empty PV1-2 (the failure), PHI in OBX free text, coded text, base64, NTE and a Z-segment. */
const HL7_ADT = [
  'MSH|^~\\&|REG|HOSP|LAB|HOSP|20250615120000+0000||ADT^A01^ADT_A01|MSG00077|P|2.5.1',
  'EVN||20250615120000+0000',
  `PID|1||${MRN}^^^HOSP^MR~${SSN}^^^USSSA^SS||${SURNAME.toUpperCase()}^${GIVEN.toUpperCase()}^Q||19480307|F|||${STREET}^^${CITY}^OH^43210||(614)555-0187^PRN^PH^${EMAIL}|||||${ACCOUNT}|${SSN}`,
  `NK1|1|${SURNAME.toUpperCase()}^MARTIN|SPO^SPOUSE|${STREET}^^${CITY}^OH^43210|(614)555-0199`,
  `PV1|1||2000^2012^01||||004777^${DOCTOR[0].toUpperCase()}^${DOCTOR[1].toUpperCase()}`,
  `OBX|1|ST|8867-4^Heart rate^LN||Spoke with ${GIVEN} ${SURNAME} at ${PHONE}||||||F`,
  `OBX|2|CWE|56799-0^Address^LN||X^${GIVEN} ${SURNAME}^L||||||F`,
  `OBX|3|ED|11526-1^Pathology study^LN||^TEXT^^Base64^${base64(`${GIVEN} ${SURNAME} ${MRN}`)}||||||F`,
  `NTE|1||Patient ${MRN} called from ${STREET}, ${CITY}`,
  `ZPI|1|${GIVEN} ${SURNAME}|${MRN}|${EMAIL}|${MAIDEN}`,
].join('\r');

/** A Bundle: a Patient whose id and fullUrl carry the MRN, extensions, an element named after her; an Observation with notes. */
const FHIR_BUNDLE = JSON.stringify({
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    {
      fullUrl: `http://hospital.example/fhir/Patient/${MRN}`,
      resource: {
        resourceType: 'Patient',
        id: MRN,
        meta: { lastUpdated: '2025-06-15T12:00:00Z' },
        extension: [
          { url: 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName', valueString: MAIDEN },
          { url: 'http://hl7.org/fhir/StructureDefinition/patient-birthPlace', valueAddress: { line: [STREET], city: CITY, state: 'OH' } },
          { url: 'http://hospital.example/fhir/StructureDefinition/contact-note', valueString: `Reach ${GIVEN} at ${EMAIL}` },
        ],
        identifier: [
          { system: 'http://hospital.example/mrn', value: MRN },
          { system: 'http://hl7.org/fhir/sid/us-ssn', value: SSN },
        ],
        name: [{ family: SURNAME, given: [GIVEN] }],
        telecom: [
          { system: 'phone', value: '(614) 555-0187' },
          { system: 'email', value: EMAIL },
        ],
        gender: 'female',
        birthDate: '1948-03-07',
        address: [{ line: [STREET], city: CITY, state: 'OH', postalCode: '43210' }],
        [SURNAME]: 'an element an attacker named',
      },
    },
    {
      fullUrl: 'http://hospital.example/fhir/Observation/obs1',
      resource: {
        resourceType: 'Observation',
        id: 'obs1',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }], text: 'Heart rate' },
        subject: { reference: `Patient/${MRN}`, display: `${GIVEN} ${SURNAME}` },
        performer: [{ display: `Dr ${DOCTOR[1]} ${DOCTOR[0]}` }],
        valueString: `${GIVEN} ${SURNAME} reports calls from ${PHONE}`,
        note: [{ text: `Spoke with ${GIVEN} ${SURNAME}, ${MRN}, at ${STREET}` }],
      },
    },
  ],
});

/** A Patient in XML: id from the MRN, narrative, an extension, a comment naming her. */
const FHIR_XML_PATIENT = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<Patient xmlns="http://hl7.org/fhir">',
  `  <!-- registered by ${GIVEN} ${SURNAME} herself -->`,
  `  <id value="${MRN}"/>`,
  '  <meta><lastUpdated value="2025-06-15T12:00:00Z"/></meta>',
  `  <text><status value="generated"/><div xmlns="http://www.w3.org/1999/xhtml"><p>${GIVEN} ${SURNAME}, ${MRN}</p></div></text>`,
  `  <extension url="http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName"><valueString value="${MAIDEN}"/></extension>`,
  `  <identifier><system value="http://hospital.example/mrn"/><value value="${MRN}"/></identifier>`,
  `  <name><family value="${SURNAME}"/><given value="${GIVEN}"/></name>`,
  '  <telecom><system value="phone"/><value value="(614) 555-0187"/></telecom>',
  '  <gender value="female"/>',
  '  <birthDate value="1948-03-07"/>',
  `  <address><line value="${STREET}"/><city value="${CITY}"/><state value="OH"/><postalCode value="43210"/></address>`,
  '</Patient>',
].join('\n');

/** A SCRIPT NewRx: PHI in the patient (address included) and prescriber, the Sig text, a note and an XML comment. */
const NCPDP_NEWRX = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<Message xmlns="http://www.ncpdp.org/schema/SCRIPT" DatatypesVersion="20170715" TransportVersion="20170715" TransactionDomain="SCRIPT" TransactionVersion="20170715" StructuresVersion="20170715" ECLVersion="20170715">',
  '<Header><To Qualifier="P">3911150</To><From Qualifier="D">1056595915</From><MessageID>PHI0001</MessageID><SentTime>2025-05-28T00:21:11Z</SentTime></Header>',
  `<!-- ${GIVEN} ${SURNAME}, ${PHONE} -->`,
  '<Body><NewRx>',
  `<Patient><HumanPatient><Name><LastName>${SURNAME}</LastName><FirstName>${GIVEN}</FirstName></Name><Gender>F</Gender><DateOfBirth><Date>1948-03-07</Date></DateOfBirth><Address><AddressLine1>${STREET}</AddressLine1><City>${CITY}</City><StateProvince>OH</StateProvince><PostalCode>43210</PostalCode><CountryCode>US</CountryCode></Address></HumanPatient></Patient>`,
  '<Pharmacy><Identification><NCPDPID>3911150</NCPDPID><NPI>2751010127</NPI></Identification><BusinessName>Community Pharmacy</BusinessName></Pharmacy>',
  `<Prescriber><NonVeterinarian><Identification><NPI>1056595915</NPI></Identification><Name><LastName>${DOCTOR[0]}</LastName><FirstName>${DOCTOR[1]}</FirstName></Name></NonVeterinarian></Prescriber>`,
  '<MedicationPrescribed><DrugDescription>Levothyroxine Sodium 0.05 MG Oral Tablet</DrugDescription>',
  '<Quantity><Value>90</Value><CodeListQualifier>38</CodeListQualifier><QuantityUnitOfMeasure><Code>C48542</Code></QuantityUnitOfMeasure></Quantity>',
  '<WrittenDate><Date>2025-05-27</Date></WrittenDate><Substitutions>0</Substitutions>',
  `<Sig><SigText>${GIVEN} ${SURNAME}: take 1 tablet daily, call ${PHONE}</SigText></Sig>`,
  `<Note>Patient ${MRN} lives at ${STREET}, ${CITY}</Note>`,
  '</MedicationPrescribed></NewRx></Body></Message>',
].join('\n');

/** A D.0 billing request: patient, cardholder id and prescriber (first name 2J and phone PM too) in their fields. */
const NCPDP_D0_CLAIM = [
  '999999D0B1PCN00000001011234567890     20260629SW00000000',
  `\x1cAM01\x1cCA${GIVEN.toUpperCase()}\x1cCB${SURNAME.toUpperCase()}\x1cC419480307\x1cC52\x1cCM${STREET.toUpperCase()}\x1cCN${CITY.toUpperCase()}\x1cCOOH\x1cCP43210\x1cCQ6145550187`,
  `\x1cAM04\x1cC2${MRN}`,
  `\x1cAM03\x1cEZ01\x1cDB1056595915\x1c2J${DOCTOR[1].toUpperCase()}\x1cDR${DOCTOR[0].toUpperCase()}\x1cPM6145550187`,
  '\x1cAM07\x1cEM1\x1cD2RX0001\x1cE103\x1cD700093017401\x1cE730000\x1cD30\x1cD530\x1cD61\x1cD80\x1cDE20260601',
].join('\x1e');

/** The corpus: one message per standard and form. */
export const PHI_CORPUS: readonly PhiSample[] = [
  {
    name: 'hl7 ADT^A01',
    standard: 'hl7',
    extension: 'hl7',
    content: HL7_ADT,
    validationErrors: [
      'PV1.2 REQUIRED_FIELD_MISSING: patient class is empty',
      `${MRN}.PID unknown identifier`,
      `contact ${EMAIL} bounced`,
      `PID.5 ${SURNAME.toUpperCase()}, ${GIVEN.toUpperCase()} written in the wrong order`,
      `PID.11 ${STREET} is not a valid address for ${PHONE}`,
    ],
  },
  {
    name: 'fhir Bundle (JSON)',
    standard: 'fhir',
    extension: 'json',
    content: FHIR_BUNDLE,
    validationErrors: [`Patient.birthDate INVALID_DATE: ${GIVEN} ${SURNAME} born 1948-03-07`, `${MAIDEN}.Patient not found`, `Patient.identifier ${SSN}`],
  },
  {
    name: 'fhir Patient (XML)',
    standard: 'fhir',
    extension: 'xml',
    content: FHIR_XML_PATIENT,
    validationErrors: [`Patient.name.family ${SURNAME} too long`, `${ACCOUNT} unknown account`],
  },
  {
    name: 'ncpdp SCRIPT NewRx',
    standard: 'ncpdp',
    extension: 'xml',
    content: NCPDP_NEWRX,
    validationErrors: [`NewRx.Patient.HumanPatient.Name.LastName ${SURNAME} too long`, `Prescriber ${DOCTOR[1]} ${DOCTOR[0]} unknown`],
  },
  {
    name: 'ncpdp D.0 claim',
    standard: 'ncpdp',
    extension: 'txt',
    content: NCPDP_D0_CLAIM,
    validationErrors: [`AM04.C2 ${MRN} not on file`, `AM01.CB ${SURNAME.toUpperCase()} does not match the cardholder`, 'AM03.PM 6145550187 invalid'],
  },
];
