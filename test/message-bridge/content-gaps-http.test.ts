/**
 * Content no message may carry, through the real bridge: strict mode reports each with its catalogue code, and
 * compatibility mode keeps the severity the README gives. HL7 fields beyond a segment's last field, U+FFFD
 * replacement characters in every standard (a body whose bytes are not UTF-8 included), FHIR keys named like
 * inherited JavaScript members (which must never reach a prototype), narrative divs with active content or that are
 * not XHTML, ids outside the R4 rules, and attributes FHIR XML does not define.
 */
import { describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const ADT = [
  'MSH|^~\\&|SND|FAC|RCV|RFAC|20250101120000||ADT^A01^ADT_A01|CTRL1|P|2.5.1',
  'EVN|A01|20250101120000',
  'PID|1||12345^^^FAC^MR||DOE^JANE||19800101|F',
  'PV1|1|I',
];

const XHTML = 'http://www.w3.org/1999/xhtml';

interface Issue {
  field: string;
  code: string;
  severity: string;
  message: string;
}

const wb = useTestWorkbench();

async function validate(body: Record<string, unknown>): Promise<{ isValid: boolean; issues: Issue[] }> {
  const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body });
  expect(res.status).toBe(200);
  return { isValid: res.json.data.isValid, issues: [...res.json.data.errors, ...res.json.data.warnings] };
}

function only(issues: Issue[], code: string): Issue[] {
  return issues.filter((issue) => issue.code === code);
}

function patient(extra: Record<string, unknown>): string {
  return JSON.stringify({ resourceType: 'Patient', id: 'p1', gender: 'female', ...extra });
}

describe('HL7 v2 fields beyond the last defined field', () => {
  const withExtra = [ADT[0], ADT[1], `${ADT[2]}${'|'.repeat(32)}PID-40 value|||PID-43`, ADT[3]].join('\r');

  it('are an error in strict mode naming the first such field and how many, a warning in compatibility mode', async () => {
    const strict = await validate({ messageContent: withExtra, mode: 'strict' });
    expect(strict.isValid).toBe(false);
    expect(only(strict.issues, 'UNKNOWN_ELEMENT')).toEqual([
      expect.objectContaining({ field: 'PID.40', severity: 'error', message: expect.stringContaining('and 1 more filled field(s)') }),
    ]);
    expect(only(strict.issues, 'UNKNOWN_ELEMENT')[0]?.message).toContain('PID.39');
    const compatibility = await validate({ messageContent: withExtra, mode: 'compatibility' });
    expect(compatibility.isValid).toBe(true);
    expect(only(compatibility.issues, 'UNKNOWN_ELEMENT')).toEqual([expect.objectContaining({ field: 'PID.40', severity: 'warning' })]);
  });

  it('leave trailing empty fields alone: they are only separators', async () => {
    const trailing = [ADT[0], ADT[1], `${ADT[2]}${'|'.repeat(40)}`, ADT[3]].join('\r');
    const result = await validate({ messageContent: trailing, mode: 'strict' });
    expect(result.isValid).toBe(true);
  });
});

describe('U+FFFD replacement characters', () => {
  it('HL7: a JSON body whose text holds U+FFFD is invalid in strict mode, with a warning in compatibility mode', async () => {
    const damaged = ADT.join('\r').replace('DOE^JANE', 'M\uFFFDLLER^JANE');
    const strict = await validate({ messageContent: damaged, mode: 'strict' });
    expect(strict.isValid).toBe(false);
    const [finding] = only(strict.issues, 'INVALID_ENCODING');
    expect(finding).toMatchObject({ field: 'PID.5', severity: 'error' });
    expect(finding?.message).toContain('not valid in');
    expect(finding?.message).toContain('UTF-8');
    const compatibility = await validate({ messageContent: damaged, mode: 'compatibility' });
    expect(only(compatibility.issues, 'INVALID_ENCODING')).toEqual([expect.objectContaining({ field: 'PID.5', severity: 'warning' })]);
  });

  it('HL7: Latin-1 bytes sent as a text/plain body (read as UTF-8) are not called valid', async () => {
    const latin1 = Buffer.from(ADT.join('\r').replace('DOE^JANE', 'M\u00fcLLER^JANE'), 'latin1');
    const res = await wb.call('bridge', { method: 'POST', path: '/api/validate?mode=strict', rawBody: latin1, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(res.json.data.isValid).toBe(false);
    expect(res.json.data.errors.map((issue: Issue) => issue.code)).toContain('INVALID_ENCODING');
  });

  it('FHIR: names the first value that holds one and how many do', async () => {
    const content = patient({ name: [{ family: 'M\uFFFDller', given: ['J\uFFFDrg'] }] });
    const strict = await validate({ messageContent: content, mode: 'strict' });
    expect(strict.isValid).toBe(false);
    expect(only(strict.issues, 'INVALID_ENCODING')).toEqual([
      expect.objectContaining({ field: 'Patient.name[0].family', severity: 'error', message: expect.stringContaining('and 1 more value(s)') }),
    ]);
    const compatibility = await validate({ messageContent: content, mode: 'compatibility' });
    expect(compatibility.isValid).toBe(true);
    expect(only(compatibility.issues, 'INVALID_ENCODING')[0]?.severity).toBe('warning');
  });

  it('NCPDP: a SCRIPT value with one is invalid in strict mode', async () => {
    const generated = await wb.call('bridge', { method: 'POST', path: '/api/generate', body: { standard: 'ncpdp', messageType: 'NewRx', seed: 7 } });
    const newRx = (generated.json.data as string[])[0] as string;
    const damaged = newRx.replace(/<LastName>/, '<LastName>\uFFFD');
    const strict = await validate({ messageContent: damaged, standard: 'ncpdp', mode: 'strict' });
    expect(strict.isValid).toBe(false);
    expect(only(strict.issues, 'INVALID_ENCODING')).toEqual([expect.objectContaining({ severity: 'error', field: expect.stringMatching(/LastName$/) })]);
    const compatibility = await validate({ messageContent: damaged, standard: 'ncpdp', mode: 'compatibility' });
    expect(only(compatibility.issues, 'INVALID_ENCODING')[0]?.severity).toBe('warning');
  });
});

describe('FHIR keys named like inherited JavaScript members', () => {
  const hostile =
    '{"resourceType":"Patient","gender":"male","constructor":{"prototype":{"polluted":1}},"toString":"x","name":[{"family":"Doe","__proto__":{"polluted":1}}]}';

  it('are reported as unknown elements in strict mode, and never reach a prototype', async () => {
    const strict = await validate({ messageContent: hostile, mode: 'strict' });
    expect(strict.isValid).toBe(false);
    expect(only(strict.issues, 'UNKNOWN_ELEMENT').map((issue) => `${issue.severity} ${issue.field}`)).toEqual([
      'error Patient.constructor',
      'error Patient.toString',
      'error Patient.name[0].__proto__',
    ]);
    const compatibility = await validate({ messageContent: hostile, mode: 'compatibility' });
    expect(only(compatibility.issues, 'UNKNOWN_ELEMENT').every((issue) => issue.severity === 'warning')).toBe(true);
    // The service runs in this process: no object anywhere gained the sender's property.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('on one side of a diff are a difference like any other, never compared with an inherited member', async () => {
    const left = '{"resourceType":"Patient","gender":"male","constructor":{"a":1},"name":[{"toString":"x"}]}';
    const right = '{"resourceType":"Patient","gender":"male","name":[{}]}';
    const res = await wb.call('bridge', { method: 'POST', path: '/api/diff', body: { leftMessage: left, rightMessage: right } });
    expect(res.status).toBe(200);
    expect(res.json.data.differences.map((d: { field: string; changeType: string }) => `${d.changeType} ${d.field}`).sort()).toEqual([
      'removed Patient.constructor',
      'removed Patient.name[0].toString',
    ]);
  });

  it('are reported in FHIR XML too', async () => {
    const xml = '<Patient xmlns="http://hl7.org/fhir"><constructor value="x"/><gender value="male"/></Patient>';
    const strict = await validate({ messageContent: xml, mode: 'strict' });
    expect(only(strict.issues, 'UNKNOWN_ELEMENT')).toEqual([expect.objectContaining({ field: 'Patient.constructor', severity: 'error' })]);
  });
});

describe('FHIR narrative div', () => {
  function withDiv(div: string): string {
    return patient({ text: { status: 'generated', div } });
  }

  it('accepts plain XHTML formatting', async () => {
    const result = await validate({ messageContent: withDiv(`<div xmlns="${XHTML}"><p>Jane &amp; <b>John</b><br/></p><a href="https://example.org">x</a></div>`), mode: 'strict' });
    expect(result.isValid).toBe(true);
  });

  it.each([
    ['a script element', `<div xmlns="${XHTML}"><script>alert(1)</script></div>`, 'a <script> element'],
    ['an event-handler attribute', `<div xmlns="${XHTML}"><p onclick="steal()">x</p></div>`, 'onclick'],
    ['a javascript: URL hidden behind a character reference', `<div xmlns="${XHTML}"><a href="jav&#x09;ascript:alert(1)">x</a></div>`, 'script URL'],
  ])('refuses %s in both modes', async (_name, div, expected) => {
    for (const mode of ['strict', 'compatibility']) {
      const result = await validate({ messageContent: withDiv(div), mode });
      expect(result.isValid).toBe(false);
      expect(only(result.issues, 'NARRATIVE_INVALID')).toEqual([
        expect.objectContaining({ field: 'Patient.text.div', severity: 'error', message: expect.stringContaining(expected) }),
      ]);
    }
  });

  it.each([
    ['plain text', 'just words'],
    ['a div without the XHTML namespace', '<div><p>x</p></div>'],
    ['an unclosed element', `<div xmlns="${XHTML}"><p>x</div>`],
    ['an HTML entity XML does not define', `<div xmlns="${XHTML}">a&nbsp;b</div>`],
  ])('refuses %s as not XHTML', async (_name, div) => {
    const result = await validate({ messageContent: withDiv(div), mode: 'strict' });
    expect(only(result.issues, 'NARRATIVE_INVALID')).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('not well-formed XHTML') })]);
  });
});

describe('FHIR ids', () => {
  it('a resource id outside [A-Za-z0-9-.]{1,64} is an invalid data type, in a contained resource too', async () => {
    const content = patient({ id: 'has space', contained: [{ resourceType: 'Organization', id: 'x'.repeat(65), name: 'Org' }] });
    const result = await validate({ messageContent: content, mode: 'strict' });
    expect(only(result.issues, 'INVALID_DATA_TYPE').map((issue) => issue.field)).toEqual(['Patient.id', 'Patient.contained[0].id']);
  });

  it('an element id may not hold whitespace; a long element id is allowed', async () => {
    const content = patient({ name: [{ id: 'bad id', family: 'Doe' }, { id: 'n'.repeat(100), family: 'Roe' }] });
    const result = await validate({ messageContent: content, mode: 'strict' });
    expect(only(result.issues, 'INVALID_DATA_TYPE').map((issue) => issue.field)).toEqual(['Patient.name[0].id']);
  });
});

describe('FHIR XML attributes', () => {
  it('an attribute FHIR XML does not define is an unknown element in strict mode, a warning in compatibility mode', async () => {
    const xml =
      '<Patient xmlns="http://hl7.org/fhir" xmlns:x="urn:x" foo="1"><gender value="male" data-x="2"/><extension url="http://example.org/e"><valueString value="v"/></extension></Patient>';
    const strict = await validate({ messageContent: xml, mode: 'strict' });
    expect(only(strict.issues, 'UNKNOWN_ELEMENT').map((issue) => `${issue.severity} ${issue.field}`)).toEqual(['error Patient@foo', 'error Patient.gender@data-x']);
    const compatibility = await validate({ messageContent: xml, mode: 'compatibility' });
    expect(compatibility.isValid).toBe(true);
    expect(only(compatibility.issues, 'UNKNOWN_ELEMENT').map((issue) => issue.severity)).toEqual(['warning', 'warning']);
  });
});
