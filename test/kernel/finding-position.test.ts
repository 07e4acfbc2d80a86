// Finding paths placed in message text (kernel/positions): HL7 v2 segments, fields, repetitions and components with
// the message's own delimiters; FHIR JSON and XML element paths; NCPDP SCRIPT elements and attributes; NCPDP
// Telecommunication segments and fields. Absent elements are placed where they belong, never thrown on; any text
// and any path give a range inside the text or nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateFinding, type FindingPosition } from '../../kernel/positions/finding-position.ts';

const ADT = [
  'MSH|^~\\&|EPIC|HOSP|RECV|RFAC|20260115091204||ADT^A01^ADT_A01|MSG1|P|2.5',
  'EVN|A01|20260115091204',
  'PID|1||MRN1^^^HOSP^MR~SSN9^^^SSA^SS||DOE^JANE^Q||19800101|F',
  'OBX|1|ST|CODE1||first',
  'OBX|2|ST|CODE2||second&sub',
].join('\r');

function slice(raw: string, position: FindingPosition | undefined): string | undefined {
  return position ? raw.slice(position.start, position.end) : undefined;
}

describe('HL7 v2 positions', () => {
  it('places segments, fields, repetitions, components and subcomponents', () => {
    const at = (path: string) => slice(ADT, locateFinding('hl7', ADT, path));
    expect(at('PID')).toBe('PID|1||MRN1^^^HOSP^MR~SSN9^^^SSA^SS||DOE^JANE^Q||19800101|F');
    expect(at('PID.5')).toBe('DOE^JANE^Q');
    expect(at('PID-5')).toBe('DOE^JANE^Q');
    expect(at('PID.5.2')).toBe('JANE');
    expect(at('PID.3')).toBe('MRN1^^^HOSP^MR~SSN9^^^SSA^SS');
    expect(at('PID.3[2]')).toBe('SSN9^^^SSA^SS');
    expect(at('PID.3[2].4')).toBe('SSA');
    expect(at('OBX[2].5')).toBe('second&sub');
    expect(at('OBX[2].5.1.2')).toBe('sub');
    expect(at('MSH.1')).toBe('|');
    expect(at('MSH.2')).toBe('^~\\&');
    expect(at('MSH.9')).toBe('ADT^A01^ADT_A01');
    expect(at('MSH.10')).toBe('MSG1');
    expect(locateFinding('hl7', ADT, 'PID.5.2')).toMatchObject({ segmentIndex: 2, segment: 'PID', field: 5, component: 2, exact: true });
    expect(locateFinding('hl7', ADT, 'OBX[2].5')).toMatchObject({ segmentIndex: 4, segment: 'OBX' });
  });

  it('places an empty field at its place and an absent one at the end of its segment, not exact', () => {
    const empty = locateFinding('hl7', ADT, 'PID.4')!;
    expect(empty).toMatchObject({ exact: true });
    expect(empty.start).toBe(empty.end);
    expect(ADT.slice(empty.start - 2, empty.start)).toBe('S|');
    const absent = locateFinding('hl7', ADT, 'PID.30')!;
    expect(absent.exact).toBe(false);
    expect(absent.start).toBe(ADT.indexOf('|F') + 2);
    expect(locateFinding('hl7', ADT, 'PV1')).toBeUndefined();
    expect(locateFinding('hl7', ADT, 'PID.5.9')).toMatchObject({ exact: false });
    expect(locateFinding('hl7', ADT, 'message')).toBeUndefined();
  });

  it('reads the message own delimiters and any line ending', () => {
    const custom = 'MSH#*!?%#A#B\nPID#1##X*Y%Z';
    expect(slice(custom, locateFinding('hl7', custom, 'PID.3.2'))).toBe('Y%Z');
    expect(slice(custom, locateFinding('hl7', custom, 'PID.3.2.2'))).toBe('Z');
    const crlf = ADT.replaceAll('\r', '\r\n');
    expect(slice(crlf, locateFinding('hl7', crlf, 'OBX[2].5'))).toBe('second&sub');
    expect(locateFinding('hl7', crlf, 'OBX[2]')).toMatchObject({ segmentIndex: 4 });
  });

  it('places every component of generated segments exactly', () => {
    const value = fc.stringMatching(/^[A-Za-z0-9 .-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(fc.array(value, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }), (fields) => {
        const raw = `MSH|^~\\&|A|B\rZZZ|${fields.map((components) => components.join('^')).join('|')}`;
        fields.forEach((components, f) => {
          components.forEach((component, c) => {
            const position = locateFinding('hl7', raw, `ZZZ.${f + 1}.${c + 1}`);
            expect(position?.exact).toBe(true);
            expect(slice(raw, position)).toBe(component);
          });
        });
      }),
    );
  });
});

describe('FHIR positions', () => {
  const patient = JSON.stringify(
    { resourceType: 'Patient', id: 'p1', text: { div: '<div>{"name": [}</div>' }, name: [{ family: 'Doe', given: ['Jane'] }, { family: 'Roe' }], birthDate: '1980-01-01' },
    null,
    2,
  );

  it('places JSON elements by member and 0-based index, string values with their quotes', () => {
    expect(slice(patient, locateFinding('fhir', patient, 'Patient.name[1].family'))).toBe('"Roe"');
    expect(slice(patient, locateFinding('fhir', patient, 'Patient.name[0].given[0]'))).toBe('"Jane"');
    expect(slice(patient, locateFinding('fhir', patient, 'Patient.birthDate'))).toBe('"1980-01-01"');
    expect(locateFinding('fhir', patient, 'Patient.name[1].family')).toMatchObject({ element: 'Patient.name[1].family', segment: null, exact: true });
  });

  it('places an absent element at its nearest present parent, not exact', () => {
    const absent = locateFinding('fhir', patient, 'Patient.name[1].given')!;
    expect(absent).toMatchObject({ element: 'Patient.name[1]', exact: false });
    expect(JSON.parse(slice(patient, absent)!)).toEqual({ family: 'Roe' });
    expect(locateFinding('fhir', patient, 'Patient.name[5]')).toMatchObject({ element: 'Patient.name', exact: false });
  });

  it('places bundle entries and XML elements, the resource element inside its wrapper', () => {
    const bundle = JSON.stringify({ resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Patient' } }, { resource: { resourceType: 'Encounter', subject: { reference: 'Patient/x' } } }] });
    expect(slice(bundle, locateFinding('fhir', bundle, 'Bundle.entry[1].resource.subject.reference'))).toBe('"Patient/x"');
    const xml = [
      '<?xml version="1.0"?>',
      '<Bundle xmlns="http://hl7.org/fhir"><!-- <entry> in a comment -->',
      '<entry><resource><Patient><name><family value="Doe"/></name></Patient></resource></entry>',
      '<entry><resource><Patient><name><family value="Roe"/></name><name><family value="Moe"/></name></Patient></resource></entry>',
      '</Bundle>',
    ].join('\n');
    expect(slice(xml, locateFinding('fhir', xml, 'Bundle.entry[1].resource.name[1].family'))).toBe('<family value="Moe"/>');
    expect(slice(xml, locateFinding('fhir', xml, 'Bundle.entry[0].resource.name'))).toBe('<name><family value="Doe"/></name>');
    expect(locateFinding('fhir', xml, 'Bundle.entry[0].resource.birthDate')).toMatchObject({ exact: false, element: 'Bundle.entry[0].resource' });
  });
});

describe('NCPDP positions', () => {
  const script = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Message xmlns="http://www.ncpdp.org/schema/SCRIPT" version="2017071">',
    '  <Header><To Qualifier="P">PHARM1</To><From Qualifier="D">DOC1</From></Header>',
    '  <Body><NewRx><Patient><HumanPatient><Name><LastName>DOE</LastName></Name></HumanPatient></Patient>',
    '  <MedicationPrescribed><Note>a &gt; b</Note><Note>second</Note></MedicationPrescribed></NewRx></Body>',
    '</Message>',
  ].join('\n');

  it('places SCRIPT elements below Message, Body left out, namesakes numbered from the second', () => {
    expect(slice(script, locateFinding('ncpdp', script, 'Header.To'))).toBe('<To Qualifier="P">PHARM1</To>');
    expect(slice(script, locateFinding('ncpdp', script, 'NewRx.Patient.HumanPatient.Name.LastName'))).toBe('<LastName>DOE</LastName>');
    expect(slice(script, locateFinding('ncpdp', script, 'NewRx.MedicationPrescribed.Note[2]'))).toBe('<Note>second</Note>');
    expect(slice(script, locateFinding('ncpdp', script, 'Message@version'))).toBe('2017071');
    expect(slice(script, locateFinding('ncpdp', script, 'Header.From@Qualifier'))).toBe('D');
  });

  it('places an absent SCRIPT element or attribute at its parent, not exact', () => {
    const absent = locateFinding('ncpdp', script, 'Header.SentTime')!;
    expect(absent).toMatchObject({ exact: false, element: 'Header' });
    expect(slice(script, absent)).toMatch(/^<Header>.*<\/Header>$/);
    expect(locateFinding('ncpdp', script, 'Message@DatatypesVersion')).toMatchObject({ exact: false, element: 'Message' });
  });

  it('places Telecommunication segments and fields by id', () => {
    const header = '610066D0B1          1011234567890     20260115          ';
    const d0 = `${header}\x1e\x1cAM01\x1cC419800101\x1cCADOE\x1e\x1cAM07\x1cEM1\x1cD2RX123\x1e\x1cAM07\x1cEM1\x1cD2RX456`;
    expect(slice(d0, locateFinding('ncpdp', d0, 'AM07.D2'))).toBe('RX123');
    expect(slice(d0, locateFinding('ncpdp', d0, 'AM07[2].D2'))).toBe('RX456');
    expect(locateFinding('ncpdp', d0, 'AM07[2].D2')).toMatchObject({ segment: 'AM07', segmentIndex: 2, exact: true });
    expect(locateFinding('ncpdp', d0, 'AM01.CB')).toMatchObject({ exact: false });
    expect(locateFinding('ncpdp', d0, 'Header.D1')).toMatchObject({ start: 0, end: header.length, exact: false });
    expect(locateFinding('ncpdp', d0, 'AM11.D2')).toBeUndefined();
  });
});

describe('any text, any path', () => {
  it('never throws and answers a range inside the text or nothing', () => {
    const texts = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom(ADT, '{"resourceType":"Patient","name":[{"family":"x"}]}', '<Message><Header/></Message>', '{"a":"\\"}'),
      fc.string({ maxLength: 80 }).map((tail) => `MSH|^~\\&|${tail}`),
      fc.string({ maxLength: 80 }).map((tail) => `{"resourceType":"Patient",${tail}`),
      fc.string({ maxLength: 80 }).map((tail) => `<Message a="x>y">${tail}`),
    );
    const paths = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('PID.5', 'MSH.1', 'MSH.2.1', 'Patient.name[0].family', 'Header.To', 'Message@version', 'AM07.D2', 'Header.A1', 'PID[2].3[2].1.1'),
    );
    fc.assert(
      fc.property(fc.constantFrom('hl7', 'fhir', 'ncpdp') as fc.Arbitrary<'hl7' | 'fhir' | 'ncpdp'>, texts, paths, (standard, raw, path) => {
        const position = locateFinding(standard, raw, path);
        if (position === undefined) return;
        expect(position.start).toBeGreaterThanOrEqual(0);
        expect(position.end).toBeGreaterThanOrEqual(position.start);
        expect(position.end).toBeLessThanOrEqual(raw.length);
      }),
      { numRuns: 2000 },
    );
  });
});
