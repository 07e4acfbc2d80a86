/**
 * A PHI corpus of our own: one patient's identifiers planted in every place a de-identifier could miss, in each
 * standard (HL7 v2, FHIR JSON, FHIR XML, NCPDP SCRIPT and Telecommunication D.0). Each builder takes the free text to
 * put in the free-text places, so property tests can plant identifiers at random positions of it.
 */

/** The patient (and the people around them) whose values are planted. */
export const PERSON = {
  family: 'Quenneville',
  given: 'Rosalind',
  mrn: '88877766',
  ssn: '123-45-6789',
  phone: '555-555-2004',
  email: 'rosalind.q@mail.example',
  street: '4471 Larkspur Lane',
  city: 'Quillfeather',
  /** A real city named only in free text (no field holds it): found by the city dictionary and its context. */
  noteCity: 'Chattanooga',
  zip: '27401',
  birthIso: '1961-06-15',
  birthHl7: '19610615',
  account: 'ACCT778899',
  motherMaiden: 'Thistlewood',
  prescriberFamily: 'Attenborough',
  prescriberGiven: 'Aurelius',
  prescriberPhone: '555-555-3110',
};

/** The planted values, as they are looked for in an output (whole words, normalised). */
export const PLANTED: readonly string[] = [
  PERSON.family,
  PERSON.given,
  PERSON.mrn,
  `MRN${PERSON.mrn}`,
  PERSON.ssn,
  PERSON.phone,
  PERSON.email,
  PERSON.street,
  PERSON.city,
  PERSON.noteCity,
  PERSON.birthHl7,
  '06151961',
  PERSON.account,
  PERSON.motherMaiden,
  PERSON.prescriberFamily,
  PERSON.prescriberGiven,
  PERSON.prescriberPhone,
];

/** Ways an identifier is written in free text. */
export const FREE_TEXT_FORMS: readonly string[] = [
  `${PERSON.given} ${PERSON.family}`,
  `${PERSON.family.toUpperCase()}, ${PERSON.given.toUpperCase()}`,
  `Mrs. ${PERSON.family}`,
  `MRN ${PERSON.mrn}`,
  `MRN${PERSON.mrn}`,
  `SSN ${PERSON.ssn}`,
  `(555) 555-2004`,
  PERSON.email,
  `${PERSON.street}, ${PERSON.city} NC ${PERSON.zip}`,
  `born 06/15/1961`,
  `DOB ${PERSON.birthIso}`,
  `acct ${PERSON.account}`,
  `Dr. ${PERSON.prescriberGiven} ${PERSON.prescriberFamily}`,
  `call ${PERSON.prescriberPhone}`,
  `mother ${PERSON.motherMaiden}`,
  `lives in ${PERSON.noteCity}`,
  `${PERSON.noteCity}, TN`,
];

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** An HL7 v2.5.1 ADT^A01 with the patient in PID and `text` in every free-text and coded-text place. */
export function hl7Message(text: string): string {
  const t = text.replace(/[|^~\\&\r\n]/g, ' ');
  return [
    'MSH|^~\\&|ACMEHIS|ACME|LAB|ACME|20250615120000||ADT^A01^ADT_A01|PHI0001|P|2.5.1',
    'EVN|A01|20250615120000',
    `PID|1||${PERSON.mrn}^^^ACME^MR~${PERSON.ssn}^^^SSA^SS||${PERSON.family.toUpperCase()}^${PERSON.given.toUpperCase()}^Q||${PERSON.birthHl7}|F|||${PERSON.street.toUpperCase()}^^${PERSON.city.toUpperCase()}^NC^${PERSON.zip}||(555)555-2004^PRN^PH^${PERSON.email}|||||${PERSON.account}|${PERSON.ssn}`,
    `NK1|1|${PERSON.motherMaiden.toUpperCase()}^MARGARET|MTH^Mother^HL70063`,
    `PV1|1|I|2000^2012^01||||4477^${PERSON.prescriberFamily.toUpperCase()}^${PERSON.prescriberGiven.toUpperCase()}`,
    `OBX|1|ST|NOTE^Note^L||${t}||||||F`,
    `OBX|2|TX|NOTE^Note^L||${t}||||||F`,
    `OBX|3|CWE|X^${t}^L||A^${t}^L||||||F`,
    `OBX|4|ED|DOC^Document^L||^TEXT^PLAIN^Base64^${b64(text)}||||||F`,
    `OBX|5|RP|DOC^Document^L||http://records.example/${PERSON.mrn}/${PERSON.family}^APPLICATION||||||F`,
    `OBX|6||NOTE^Note^L||${t}||||||F`,
    `NTE|1||${t}`,
    `ZPI|1|${PERSON.family.toUpperCase()}^${PERSON.given.toUpperCase()}|Y|20240102|${t}|${PERSON.mrn}`,
    `ZXX|1|${t}|${PERSON.given}`,
  ].join('\r');
}

/** A FHIR R4 Bundle (JSON text) with the patient and `text` in every free-text place, ids built from the MRN. */
export function fhirBundle(text: string): string {
  const patient = {
    resourceType: 'Patient',
    id: `MRN${PERSON.mrn}`,
    meta: { lastUpdated: '2025-06-15T12:00:00Z' },
    text: { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${PERSON.given} ${PERSON.family}</div>` },
    extension: [
      { url: 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName', valueString: PERSON.motherMaiden },
      { url: 'http://hl7.org/fhir/StructureDefinition/patient-birthPlace', valueAddress: { line: [PERSON.street], city: PERSON.city } },
      { url: 'http://vendor.example/fhir/ssn', valueIdentifier: { system: 'http://hl7.org/fhir/sid/us-ssn', value: PERSON.ssn } },
      { url: 'http://vendor.example/fhir/note', valueString: text },
    ],
    identifier: [{ system: 'http://hospital.example/mrn', value: PERSON.mrn }],
    name: [{ family: PERSON.family, given: [PERSON.given] }],
    telecom: [{ system: 'phone', value: PERSON.phone }, { system: 'email', value: PERSON.email }],
    gender: 'female',
    birthDate: PERSON.birthIso,
    address: [{ line: [PERSON.street], city: PERSON.city, state: 'NC', postalCode: PERSON.zip }],
  };
  const observation = {
    resourceType: 'Observation',
    id: `obs-${PERSON.mrn}`,
    status: 'final',
    code: { text, coding: [{ system: 'http://loinc.org', code: '8867-4', display: text }] },
    subject: { reference: `Patient/MRN${PERSON.mrn}` },
    effectiveDateTime: '2025-06-14T08:00:00Z',
    performer: [{ display: `Dr. ${PERSON.prescriberGiven} ${PERSON.prescriberFamily}` }],
    valueString: text,
    note: [{ text, authorString: `${PERSON.prescriberGiven} ${PERSON.prescriberFamily}` }],
  };
  const document = {
    resourceType: 'DocumentReference',
    status: 'current',
    subject: { reference: `Patient/MRN${PERSON.mrn}` },
    description: text,
    content: [{ attachment: { contentType: 'text/plain', data: b64(text) } }],
  };
  const entry = (resource: { resourceType: string; id?: string }) => ({
    fullUrl: `http://hospital.example/fhir/${resource.resourceType}/${resource.id ?? 'doc1'}`,
    resource: { ...resource, id: resource.id ?? 'doc1' },
  });
  return JSON.stringify({ resourceType: 'Bundle', type: 'collection', entry: [entry(patient), entry(observation), entry(document)] }, null, 2);
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A FHIR R4 Patient in XML with the patient, a comment and an extension holding `text`. */
export function fhirXmlPatient(text: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Patient xmlns="http://hl7.org/fhir"><!-- ${xmlEscape(text).replace(/--/g, '- -')} -->`,
    `<id value="MRN${PERSON.mrn}"/><meta><lastUpdated value="2025-06-15T12:00:00Z"/></meta>`,
    `<extension url="http://vendor.example/fhir/note"><valueString value="${xmlEscape(text)}"/></extension>`,
    `<identifier><system value="http://hospital.example/mrn"/><value value="${PERSON.mrn}"/></identifier>`,
    `<name><family value="${PERSON.family}"/><given value="${PERSON.given}"/></name>`,
    `<telecom><system value="phone"/><value value="${PERSON.phone}"/></telecom>`,
    `<gender value="female"/><birthDate value="${PERSON.birthIso}"/>`,
    `<address><line value="${PERSON.street}"/><city value="${PERSON.city}"/><postalCode value="${PERSON.zip}"/></address>`,
    '</Patient>',
  ].join('\n');
}

/** An NCPDP SCRIPT NewRx with the patient, the prescriber, `text` in SigText and Note, and a comment. */
export function scriptNewRx(text: string): string {
  const t = xmlEscape(text);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Message xmlns="http://www.ncpdp.org/schema/SCRIPT" DatatypesVersion="20170715" TransportVersion="20170715" TransactionDomain="SCRIPT" TransactionVersion="20170715" StructuresVersion="20170715" ECLVersion="20170715">',
    '<Header><To Qualifier="P">7701630</To><From Qualifier="C">1234567</From><MessageID>PHI0001</MessageID><SentTime>2025-06-15T12:00:00</SentTime></Header>',
    `<Body><NewRx><!-- ${t.replace(/--/g, '- -')} -->`,
    `<Patient><HumanPatient><Name><LastName>${PERSON.family}</LastName><FirstName>${PERSON.given}</FirstName></Name><Gender>F</Gender>`,
    `<DateOfBirth><Date>${PERSON.birthIso}</Date></DateOfBirth><Address><AddressLine1>${PERSON.street}</AddressLine1><City>${PERSON.city}</City><StateProvince>NC</StateProvince><PostalCode>${PERSON.zip}</PostalCode><CountryCode>US</CountryCode></Address>`,
    `<CommunicationNumbers><PrimaryTelephone><Number>5555552004</Number></PrimaryTelephone></CommunicationNumbers></HumanPatient></Patient>`,
    `<Prescriber><NonVeterinarian><Identification><NPI>1234567893</NPI></Identification><Name><LastName>${PERSON.prescriberFamily}</LastName><FirstName>${PERSON.prescriberGiven}</FirstName></Name>`,
    `<CommunicationNumbers><PrimaryTelephone><Number>5555553110</Number></PrimaryTelephone></CommunicationNumbers></NonVeterinarian></Prescriber>`,
    `<MedicationPrescribed><DrugDescription>Amoxicillin 500 MG Oral Capsule</DrugDescription><WrittenDate><Date>2025-06-10</Date></WrittenDate>`,
    `<Sig><SigText>${t}</SigText></Sig><Note>${t}</Note></MedicationPrescribed>`,
    '</NewRx></Body></Message>',
  ].join('\n');
}

/** A Telecommunication D.0 claim with the patient, the prescriber, the dates and `text` in a free-text field. */
export function d0Claim(text: string): string {
  const t = text.replace(/[\x1c\x1d\x1e]/g, ' ').toUpperCase();
  return (
    '999999D0B1PCN00000001011234567890     20250615SW00000000' +
    `\x1e\x1cAM01\x1cC4${PERSON.birthHl7}\x1cCA${PERSON.given.toUpperCase()}\x1cCB${PERSON.family.toUpperCase()}\x1cCM${PERSON.street.toUpperCase()}\x1cCP${PERSON.zip}\x1cCQ5555552004` +
    `\x1e\x1cAM03\x1cEZ01\x1cDB1234567893\x1cDR${PERSON.prescriberFamily.toUpperCase()}\x1c2J${PERSON.prescriberGiven.toUpperCase()}\x1cPM5555553110` +
    `\x1e\x1cAM07\x1cEM1\x1cD2123456789012\x1cDE20250610\x1cFQ${t}`
  );
}
