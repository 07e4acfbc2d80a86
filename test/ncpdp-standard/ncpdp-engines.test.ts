/**
 * Unit tests of the NCPDP engines: check digits, overpunch, detection, the safe XML reader, SCRIPT and D.0 rules,
 * diff, profiles, describe and the adapter's request errors.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkbenchError } from '../../kernel/errors.ts';
import { deaProblem, npiProblem } from '../../plugins/identifiers/api.ts';
import { decodeOverpunch, encodeOverpunch } from '../../plugins/ncpdp-standard/telecom/overpunch.ts';
import { detectNcpdp, detectNcpdpFormat } from '../../plugins/ncpdp-standard/ncpdp-detect.ts';
import { parseScriptXml } from '../../plugins/ncpdp-standard/script/script-xml-parser.ts';
import { validateNcpdp } from '../../plugins/ncpdp-standard/ncpdp-validator.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { loadNcpdpProfiles } from '../../plugins/ncpdp-standard/ncpdp-profiles.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';

const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
const newRx = adapter.generate({ messageType: 'NewRx', count: 1, seed: 7 })[0];
const b1 = adapter.generate({ messageType: 'B1', count: 1, seed: 7 })[0];
const FS = '\x1c';
/** Sets the value of the first field `id` of a D.0 transmission, or removes the field when value is undefined. */
function setField(message: string, id: string, value: string | undefined): string {
  const pieces = message.split(FS);
  const index = pieces.findIndex((piece, i) => i > 0 && piece.startsWith(id));
  if (index === -1) throw new Error(`no field ${id}`);
  const piece = pieces[index];
  let end = 2;
  while (end < piece.length && piece.charCodeAt(end) !== 0x1d && piece.charCodeAt(end) !== 0x1e) end++;
  if (value === undefined) {
    // The separators after the value (RS/GS) move to the previous field.
    pieces[index - 1] += piece.slice(end);
    pieces.splice(index, 1);
  } else {
    pieces[index] = id + value + piece.slice(end);
  }
  return pieces.join(FS);
}
const codes = (content: string, mode: 'strict' | 'compatibility' = 'strict') =>
  validateNcpdp(content, { mode }).errors.map((i) => `${i.code} ${i.field}`);

describe('check digits', () => {
  it('accepts valid NPIs and DEA numbers and rejects a changed digit', () => {
    expect(npiProblem('1234567893')).toBeUndefined();
    expect(npiProblem('1234567890')).toBe('check-digit');
    expect(npiProblem('123456789')).toBe('format');
    expect(deaProblem('AB1234563')).toBeUndefined();
    expect(deaProblem('AB1234564')).toBe('check-digit');
    expect(deaProblem('A11234563')).toBe('format');
  });
});

describe('signed overpunch', () => {
  it('decodes positive and negative amounts', () => {
    expect(decodeOverpunch('1000{')).toEqual({ cents: 10000, negative: false });
    expect(decodeOverpunch('25J')).toEqual({ cents: -251, negative: true });
    expect(decodeOverpunch('12}')).toEqual({ cents: -120, negative: true });
    expect(decodeOverpunch('123')).toBeUndefined();
  });
  it('round-trips through encode', () => {
    for (const cents of [0, 5, -5, 1234, -98765]) expect(decodeOverpunch(encodeOverpunch(cents))?.cents).toBe(cents);
  });
});

describe('detection', () => {
  it('recognises SCRIPT and D.0 and ignores other content', () => {
    expect(detectNcpdpFormat(newRx)).toEqual({ format: 'script', confidence: 0.95 });
    expect(detectNcpdpFormat(b1).format).toBe('telecom');
    expect(detectNcpdp('MSH|^~\\&|A|B')).toBe(0);
    expect(detectNcpdp('{"resourceType":"Patient"}')).toBe(0);
    expect(detectNcpdp('<Bundle xmlns="http://hl7.org/fhir"/>')).toBe(0);
  });
});

describe('safe XML reading', () => {
  it('refuses DOCTYPE and ENTITY declarations before parsing', () => {
    const xxe = '<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<Message>&x;</Message>';
    const outcome = parseScriptXml(xxe);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? undefined : outcome.issue.message).toMatch(/Line 2, column 1: a <!DOCTYPE declaration was refused/);
    const bomb = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${'&lol;'.repeat(10)}">`).join('')}]><Message>&lol9;</Message>`;
    expect(validateNcpdp(bomb, { mode: 'strict' }).errors.map((e) => e.code)).toEqual(['PARSE_ERROR']);
  });
  it('refuses nesting deeper than the limit without recursion', () => {
    const deep = `<Message>${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</Message>`;
    const outcome = parseScriptXml(deep);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? undefined : outcome.issue.message).toMatch(/nested deeper than 64/);
  });
  it('reports malformed XML with line and column', () => {
    const result = validateNcpdp('<Message>\n  <Header>\n  </Head>\n</Message>', { mode: 'strict' });
    expect(result.errors[0].code).toBe('PARSE_ERROR');
    expect(result.errors[0].message).toMatch(/line 3, column \d+/);
  });
});

describe('well-formedness', () => {
  const problem = (xml: string) => {
    const outcome = parseScriptXml(xml);
    return outcome.ok ? 'ok' : outcome.issue.message.replace(/^The XML is not well-formed at /, '');
  };
  it('reports each kind of malformation with its place', () => {
    expect(problem('<Message a="1" a="2"/>')).toMatch(/^line 1, column 16: the attribute a is repeated/);
    expect(problem('<Message a=1/>')).toMatch(/must be quoted/);
    expect(problem('<Message>&nbsp;</Message>')).toMatch(/&nbsp; is not a predefined entity/);
    expect(problem('<Message>a & b</Message>')).toMatch(/must start an entity reference/);
    expect(problem('<Message></Message><Message/>')).toMatch(/second root element/);
    expect(problem('<Message>\n<Header>')).toMatch(/^line 2, column 9: the element <Header> is not closed/);
    expect(problem('text<Message/>')).toMatch(/text comes before the root element/);
    expect(problem('<Message><![CDATA[ <x> & ]]>&amp;&#65;&#x42;</Message>')).toBe('ok');
  });
  it('reads namespace-prefixed SCRIPT', () => {
    const prefixed = newRx.replace(/<(\/?)([A-Za-z])/g, '<$1s:$2').replace('<s:Message xmlns=', '<s:Message xmlns:s=');
    const outcome = parseScriptXml(prefixed);
    expect(outcome.ok && outcome.document.namespace).toBe('http://www.ncpdp.org/schema/SCRIPT');
    expect(codes(prefixed)).toEqual([]);
  });
});

describe('SCRIPT rules', () => {
  it('accepts a generated NewRx with no finding', () => {
    expect(codes(newRx)).toEqual([]);
  });
  it('reports exactly a missing version and an out-of-order header', () => {
    const broken = newRx
      .replace(/ DatatypesVersion="[^"]*" TransportVersion="[^"]*" TransactionDomain="[^"]*" TransactionVersion="[^"]*" StructuresVersion="[^"]*" ECLVersion="[^"]*"/, '')
      .replace(/(<MessageID>[^<]*<\/MessageID>)(\s*)(<SentTime>[^<]*<\/SentTime>)/, '$3$2$1');
    expect(codes(broken)).toEqual(['VERSION_MISSING Message@version', 'SEGMENT_OUT_OF_ORDER Header.MessageID']);
    expect(codes(broken, 'compatibility')).toEqual(['SEGMENT_OUT_OF_ORDER Header.MessageID']);
  });
  it('reports an unknown version, a second transaction and an unknown transaction', () => {
    expect(codes(newRx.replace('TransactionVersion="20170715"', 'TransactionVersion="20990115"'))).toContain('UNSUPPORTED_VERSION Message@TransactionVersion');
    expect(codes(newRx.replace('</NewRx>', '</NewRx><Status><Code>000</Code></Status>'))).toEqual(['SEGMENT_UNEXPECTED Status']);
    expect(codes(newRx.replace(/<NewRx>[\s\S]*<\/NewRx>/, '<FooRx/>'))).toEqual(['UNKNOWN_MESSAGE_TYPE FooRx']);
  });
  it('checks values: NPI, DEA, NDC, dates, quantity qualifier, gender, lengths', () => {
    const bad = newRx
      .replace(/<NPI>(\d{9})(\d)<\/NPI>\s*<DEANumber>/, (_m, nine: string, d: string) => `<NPI>${nine}${(Number(d) + 1) % 10}</NPI><DEANumber>`)
      .replace(/<DEANumber>(\w{8})(\d)</, (_m, head: string, d: string) => `<DEANumber>${head}${(Number(d) + 1) % 10}<`)
      .replace(/<Code>(\d{11})<\/Code>/, '<Code>1234-5678-90</Code>')
      .replace(/<WrittenDate>\s*<Date>[^<]*</, '<WrittenDate><Date>2025-02-30<')
      .replace('<CodeListQualifier>38<', '<CodeListQualifier>99<')
      .replace(/<Gender>[MF]</, '<Gender>Q<')
      .replace(/<LastName>[^<]*</, `<LastName>${'L'.repeat(40)}<`);
    expect(codes(bad).sort()).toEqual(
      [
        'FIELD_TOO_LONG NewRx.Patient.HumanPatient.Name.LastName',
        'VALUE_NOT_IN_TABLE NewRx.Patient.HumanPatient.Gender',
        'INVALID_CHECK_DIGIT NewRx.Prescriber.NonVeterinarian.Identification.NPI',
        'INVALID_CHECK_DIGIT NewRx.Prescriber.NonVeterinarian.Identification.DEANumber',
        'INVALID_DATA_TYPE NewRx.MedicationPrescribed.DrugCoded.ProductCode.Code',
        'VALUE_NOT_IN_TABLE NewRx.MedicationPrescribed.Quantity.CodeListQualifier',
        'INVALID_DATE NewRx.MedicationPrescribed.WrittenDate.Date',
      ].sort(),
    );
    expect(codes(bad, 'compatibility')).not.toContain('FIELD_TOO_LONG NewRx.Patient.HumanPatient.Name.LastName');
  });
  it('validates against a requested version instead of the declared one', () => {
    const result = adapter.validate(newRx, { mode: 'strict', version: '10.6' });
    expect(result.summary?.version).toBe('10.6');
    expect(result.errors.map((e) => e.field)).toContain('NewRx.Patient.Name');
  });
});

describe('D.0 rules', () => {
  it('accepts a generated B1 and reports required fields, formats and overpunch', () => {
    expect(codes(b1)).toEqual([]);
    const broken = setField(setField(setField(b1, 'DE', undefined), 'D9', '1000'), 'E7', '30.5');
    expect(codes(broken)).toEqual(['INVALID_DATA_TYPE AM07.E7', 'REQUIRED_FIELD_MISSING AM07.DE', 'INVALID_DATA_TYPE AM11.D9']);
    expect(codes(broken, 'compatibility')).toEqual(['INVALID_DATA_TYPE AM07.E7', 'REQUIRED_FIELD_MISSING AM07.DE']);
  });
  it('reports segment placement, transaction count and an unsupported version', () => {
    const moved = b1.replace('\x1d', '');
    expect(codes(moved)).toEqual([]);
    const twoGroups = `${b1}\x1d\x1e\x1cAM07\x1cEM1`;
    expect(codes(twoGroups)).toContain('CONSTRAINT_FAILED Header.A9');
    expect(codes(b1.replace(/^(\d{6})D0/, '$151'))).toEqual(['UNSUPPORTED_VERSION Header.A2']);
  });
});

describe('D.0 framing and limits', () => {
  it('accepts STX/ETX framing and checks a rejected response', () => {
    expect(codes(`\x02${b1}\x03`)).toEqual([]);
    // PCN (104-A4) and software vendor ID (110-AK) may be space-filled; the BIN may not.
    const blanks = `${b1.slice(0, 10)}${' '.repeat(10)}${b1.slice(20, 46)}${' '.repeat(10)}${b1.slice(56)}`;
    expect(codes(blanks)).toEqual([]);
    expect(codes(`      ${b1.slice(6)}`)).toEqual(['REQUIRED_FIELD_MISSING Header.A1']);
    const rejected = 'D0B11R011234567893     20250601\x1d\x1e\x1cAM21\x1cANR\x1cFA1';
    expect(codes(rejected)).toEqual(['REQUIRED_FIELD_MISSING AM21.FB']);
  });
  it('stays bounded on a flood of groups and segments', () => {
    const flood = `${b1}${'\x1d\x1e\x1cAM99\x1cZZ1'.repeat(20_000)}`;
    const result = validateNcpdp(flood, { mode: 'strict' });
    expect(result.errors.length + result.warnings.length).toBe(1_000);
    expect(result.errors.map((e) => e.code)).toContain('TOO_MANY_REPETITIONS');
    expect(result.truncated).toBe(true);
    expect(result.totals?.errors).toBeGreaterThan(20_000);
    expect(Object.values(result.totals?.byCode ?? {}).reduce((a, b) => a + b, 0)).toBe((result.totals?.errors ?? 0) + (result.totals?.warnings ?? 0));
  });
});

describe('diff', () => {
  it('compares by path, honours ignored fields with wildcards and names an unparseable side', () => {
    const other = adapter.generate({ messageType: 'NewRx', count: 1, seed: 8 })[0];
    const all = adapter.diff(newRx, other, { ignoredFields: [] });
    expect(all.totalDifferences).toBeGreaterThan(0);
    const ignored = adapter.diff(newRx, newRx.replace(/<MessageID>[^<]*</, '<MessageID>X<').replace(/<SentTime>[^<]*</, '<SentTime>2025-01-01T00:00:00Z<'), {
      ignoredFields: ['Header.MessageID', 'Header.Sent*'],
    });
    expect(ignored).toEqual({ differences: [], totalDifferences: 0, totals: { modified: 0, added: 0, removed: 0 }, truncated: false, ignoredFields: ['Header.MessageID', 'Header.Sent*'], unmatchedIgnoredFields: [] });
    const changed = adapter.diff(newRx, newRx.replace('<Substitutions>0</Substitutions>', '<Substitutions>1</Substitutions><Note>n</Note>'), { ignoredFields: [] });
    expect(changed.differences).toEqual([
      { field: 'NewRx.MedicationPrescribed.Substitutions', leftValue: '0', rightValue: '1', changeType: 'modified' },
      { field: 'NewRx.MedicationPrescribed.Note', leftValue: '', rightValue: 'n', changeType: 'added' },
    ]);
    const claim = adapter.diff(b1, setField(b1, 'D5', '90'), { ignoredFields: ['Header.*'] });
    expect(claim.differences.map((d) => `${d.field} ${d.changeType}`)).toEqual(['AM07.D5 modified']);
    expect(() => adapter.diff('<Message><Header></Message>', newRx, { ignoredFields: [] })).toThrowError(/left message cannot be compared/);
    expect(() => adapter.diff(newRx, 'plain text', { ignoredFields: [] })).toThrowError(/right message cannot be compared/);
  });
});

describe('profiles', () => {
  it('loads pack files, reports broken ones and applies required, value-set and length rules', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ncpdp-pack-'));
    writeFileSync(
      join(directory, 'partner.yaml'),
      'name: partner-newrx\nmessageTypes: [NewRx]\nrequired: [NewRx.MedicationPrescribed.Note]\nvalueSets:\n  NewRx.MedicationPrescribed.Substitutions: ["1"]\nmaxLengths:\n  Header.MessageID: 5\n',
    );
    writeFileSync(join(directory, 'broken.json'), '{"name": 5}');
    const pack = { manifest: { id: 'partner', version: '1', description: 'd', standard: 'ncpdp' }, directory, files: [join(directory, 'broken.json'), join(directory, 'partner.yaml')] };
    const { profiles, problems } = loadNcpdpProfiles([pack, { ...pack, manifest: { ...pack.manifest, standard: 'hl7' } }]);
    expect(profiles.map((p) => p.name)).toEqual(['partner-newrx']);
    expect(problems).toEqual([{ file: join(directory, 'broken.json'), problem: expect.stringContaining('name') }]);
    const withProfiles = createNcpdpAdapter({ synthetic: createSyntheticDataService(), profiles });
    expect(withProfiles.profiles()).toEqual([{ name: 'partner-newrx', pack: 'partner', standard: 'ncpdp', messageTypes: ['NewRx'] }]);
    const result = withProfiles.validate(newRx, { mode: 'strict', profile: 'partner-newrx' });
    expect(result.errors.map((e) => `${e.code} ${e.field}`)).toEqual([
      'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Note',
      'VALUE_NOT_IN_VALUE_SET NewRx.MedicationPrescribed.Substitutions',
      'FIELD_TOO_LONG Header.MessageID',
    ]);
    expect(() => withProfiles.validate(newRx, { mode: 'strict', profile: 'nope' })).toThrowError(WorkbenchError);
  });
});

describe('adapter requests', () => {
  it('describes paths of both families', () => {
    expect(adapter.describe('AM07.D2')).toMatchObject({ name: 'Prescription/Service Reference Number', maxLength: 12, optionality: 'required in B1, B2, B3' });
    expect(adapter.describe('NewRx.Patient.HumanPatient.Name.LastName')).toMatchObject({ name: 'Last name', maxLength: 35, optionality: 'required' });
    expect(adapter.describe('Header.A1')).toMatchObject({ name: 'BIN Number', maxLength: 6 });
    expect(adapter.describe('Nope.Nothing')).toBeUndefined();
  });
  it('refuses unknown types and versions with 400 errors', () => {
    const status = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return `${(error as WorkbenchError).status} ${(error as WorkbenchError).code}`;
      }
      return 'no error';
    };
    expect(status(() => adapter.generate({ messageType: 'ADT', count: 1 }))).toBe('400 UNKNOWN_MESSAGE_TYPE');
    expect(status(() => adapter.generate({ messageType: 'NewRx', version: 'D0', count: 1 }))).toBe('400 UNSUPPORTED_VERSION');
    expect(status(() => adapter.generate({ messageType: 'B1', version: '2017071', count: 1 }))).toBe('400 UNSUPPORTED_VERSION');
    expect(status(() => adapter.validate(newRx, { mode: 'strict', version: '9.9' }))).toBe('400 UNSUPPORTED_VERSION');
    expect(adapter.messageTypes[0]).toBe('NewRx');
    expect(adapter.versions).toEqual(['10.6', '2017071', '2023011', 'D0']);
  });
});
