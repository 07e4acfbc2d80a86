/**
 * Messages of a chosen size in each standard, for the tests and benchmarks of heavy work (worker pool, memory
 * bounds, responsiveness): a realistic message whose repeating part (HL7 OBX segments, FHIR Bundle entries, NCPDP
 * SCRIPT diagnoses) is repeated until the text reaches the size asked for.
 */

/** Standards a large message can be built for. */
export const LARGE_MESSAGE_STANDARDS = ['hl7', 'fhir', 'ncpdp'] as const;

/** One of {@link LARGE_MESSAGE_STANDARDS}. */
export type LargeMessageStandard = (typeof LARGE_MESSAGE_STANDARDS)[number];

function repeatUntil(size: number, fixedLength: number, part: (index: number) => string): string[] {
  const parts: string[] = [];
  let length = fixedLength;
  for (let index = 1; length < size; index++) {
    const next = part(index);
    parts.push(next);
    length += next.length + 1;
  }
  return parts;
}

function hl7Message(size: number): string {
  const head = [
    'MSH|^~\\&|LAB|GOOD HEALTH HOSPITAL|ELR|STATE DOH|20250615120000||ORU^R01^ORU_R01|MSG00001|P|2.5.1',
    'PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR||EVERYMAN^ADAM^A||19610615|M|||2222 HOME STREET^^GREENSBORO^NC^27401',
    'OBR|1|ORD1234|FIL5678|24331-1^Lipid panel^LN|||20250615110000',
  ].join('\r');
  // Set IDs restart after 9999: OBX-1 holds at most four digits.
  const observations = repeatUntil(size, head.length, (i) =>
    `OBX|${((i - 1) % 9999) + 1}|NM|2093-3^Cholesterol [Mass/volume] in Serum or Plasma^LN||${150 + (i % 90)}|mg/dL^milligram per deciliter^UCUM|<200|N|||F|||20250615110000`,
  );
  return `${head}\r${observations.join('\r')}`;
}

function fhirMessage(size: number): string {
  const entry = (i: number) => {
    const id = `patient-${i}`;
    return JSON.stringify({
      fullUrl: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resource: {
        resourceType: 'Patient',
        id,
        identifier: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: `MRN${i}` }],
        name: [{ family: 'Everyman', given: ['Adam', 'A'] }],
        gender: i % 2 === 0 ? 'male' : 'female',
        birthDate: '1961-06-15',
        address: [{ line: ['2222 Home Street'], city: 'Greensboro', state: 'NC', postalCode: '27401', country: 'US' }],
      },
    });
  };
  const prefix = '{"resourceType":"Bundle","id":"large-bundle","type":"collection","entry":[';
  const entries = repeatUntil(size, prefix.length + 2, entry);
  return `${prefix}${entries.join(',')}]}`;
}

/** A SCRIPT 2017071 NewRx up to where its repeating Diagnosis elements go (shared with scaling-messages.ts). */
export const SCRIPT_NEWRX_HEAD = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<Message xmlns="http://www.ncpdp.org/schema/SCRIPT" DatatypesVersion="20170715" TransportVersion="20170715" TransactionDomain="SCRIPT" TransactionVersion="20170715" StructuresVersion="20170715" ECLVersion="20170715">',
  '<Header><To Qualifier="P">3911150</To><From Qualifier="D">1056595915</From><MessageID>LARGE0001</MessageID><SentTime>2025-05-28T00:21:11Z</SentTime></Header>',
  '<Body><NewRx>',
  '<Patient><HumanPatient><Name><LastName>Hyatt</LastName><FirstName>Elyse</FirstName></Name><Gender>F</Gender><DateOfBirth><Date>1958-08-06</Date></DateOfBirth></HumanPatient></Patient>',
  '<Pharmacy><Identification><NCPDPID>3911150</NCPDPID><NPI>2751010127</NPI></Identification><BusinessName>Community Pharmacy</BusinessName></Pharmacy>',
  '<Prescriber><NonVeterinarian><Identification><NPI>1056595915</NPI></Identification><Name><LastName>McKenzie</LastName><FirstName>Alyssa</FirstName></Name></NonVeterinarian></Prescriber>',
  '<MedicationPrescribed><DrugDescription>Levothyroxine Sodium 0.05 MG Oral Tablet</DrugDescription>',
  '<Quantity><Value>90</Value><CodeListQualifier>38</CodeListQualifier><QuantityUnitOfMeasure><Code>C48542</Code></QuantityUnitOfMeasure></Quantity>',
  '<WrittenDate><Date>2025-05-27</Date></WrittenDate><Substitutions>0</Substitutions>',
].join('\n');

/** What closes {@link SCRIPT_NEWRX_HEAD} after the Diagnosis elements. */
export const SCRIPT_NEWRX_TAIL = '\n<Sig><SigText>Take 1 tablet by mouth once daily.</SigText></Sig></MedicationPrescribed></NewRx></Body></Message>';

/** The `index`th Diagnosis element of the NewRx (five elements). */
export function scriptDiagnosis(index: number): string {
  return `<Diagnosis><ClinicalInformationQualifier>1</ClinicalInformationQualifier><Primary><Code>E03.${index % 10}</Code><Qualifier>ABF</Qualifier><Description>Hypothyroidism, case ${index}</Description></Primary></Diagnosis>`;
}

function ncpdpMessage(size: number): string {
  const diagnoses = repeatUntil(size, SCRIPT_NEWRX_HEAD.length + SCRIPT_NEWRX_TAIL.length, scriptDiagnosis);
  return `${SCRIPT_NEWRX_HEAD}\n${diagnoses.join('\n')}${SCRIPT_NEWRX_TAIL}`;
}

/** A message of the standard, at least `size` characters long (and at most one repeating part longer). */
export function largeMessage(standard: LargeMessageStandard, size: number): string {
  switch (standard) {
    case 'hl7':
      return hl7Message(size);
    case 'fhir':
      return fhirMessage(size);
    case 'ncpdp':
      return ncpdpMessage(size);
  }
}

/** The default request body limit (`http.bodyLimitBytes`): 10 MB. */
export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

/** A POST /api/validate body holding a message of the standard, as large as `limit` bytes allow. */
export function maximumValidateBody(standard: LargeMessageStandard, limit = DEFAULT_BODY_LIMIT): Buffer {
  let size = limit;
  for (;;) {
    const body = Buffer.from(JSON.stringify({ messageContent: largeMessage(standard, size), standard }));
    if (body.length <= limit) return body;
    size = Math.floor(size * (limit / body.length) * 0.995);
  }
}
