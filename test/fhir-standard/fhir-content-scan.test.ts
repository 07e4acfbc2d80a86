import { describe, expect, it } from 'vitest';
import { scanFhirContent } from '../../plugins/fhir-standard/fhir-content-scan.ts';
import { createFhirDefinitions } from '../../plugins/fhir-standard/fhir-definitions.ts';
import { createFhirXmlConverter } from '../../plugins/fhir-standard/fhir-xml.ts';

function scan(text: string) {
  return scanFhirContent(JSON.parse(text) as Record<string, unknown>, text).findings.map((f) => `${f.code} ${f.field}`);
}

describe('scanFhirContent', () => {
  it('reports keys named like inherited members in document order, at any depth, array items and primitive extensions included', () => {
    const text =
      '{"resourceType":"Patient","valueOf":1,"name":[{"given":["a"]},{"family":"b","isPrototypeOf":{}}],"_gender":{"__proto__":{"x":1}},"contained":[{"resourceType":"Basic","hasOwnProperty":true}]}';
    expect(scan(text)).toEqual([
      'UNKNOWN_ELEMENT Patient.valueOf',
      'UNKNOWN_ELEMENT Patient.name[1].isPrototypeOf',
      'UNKNOWN_ELEMENT Patient._gender.__proto__',
      'UNKNOWN_ELEMENT Patient.contained[0].hasOwnProperty',
    ]);
  });

  it('lists at most twenty such keys and counts the rest in the last finding', () => {
    const entries = Array.from({ length: 30 }, (_, i) => `{"resourceType":"Patient","id":"p${i}","constructor":1}`);
    const text = `{"resourceType":"Bundle","type":"collection","entry":[${entries.map((e) => `{"resource":${e}}`).join(',')}]}`;
    const findings = scanFhirContent(JSON.parse(text) as Record<string, unknown>, text).findings;
    expect(findings).toHaveLength(20);
    expect(findings[19]?.message).toContain('10 more key(s)');
  });

  it('reports a key too long to name any element, with an excerpt of it, and removes it before the other checks', () => {
    const key = '<Body>'.repeat(20_000);
    const resource = { resourceType: 'Patient', name: [{ family: 'Doe', [key]: 1 }] } as Record<string, unknown>;
    const findings = scanFhirContent(resource, '{}').findings;
    expect(findings).toEqual([
      expect.objectContaining({ code: 'UNKNOWN_ELEMENT', field: `Patient.name[0].${key.slice(0, 40)}...`, message: expect.stringContaining('a key of 120000 characters') }),
    ]);
    expect(resource.name).toEqual([{ family: 'Doe' }]);
  });

  it('finds U+FFFD in values and keys, reporting one finding with the first place and the count', () => {
    const findings = scanFhirContent(JSON.parse('{"resourceType":"Patient","name":[{"family":"M\uFFFDller"}],"x\uFFFD":"y"}'), 'text with \uFFFD').findings;
    expect(findings).toEqual([
      expect.objectContaining({ code: 'INVALID_ENCODING', field: 'Patient.name[0].family', class: 'nonconformant', message: expect.stringContaining('and 1 more value(s)') }),
    ]);
  });

  it('looks for U+FFFD only when the text it was parsed from holds one', () => {
    const resource = { resourceType: 'Patient', gender: 'm\uFFFD' };
    expect(scanFhirContent(resource, '{"resourceType":"Patient"}').findings).toEqual([]);
  });

  it('a clean resource gives nothing', () => {
    expect(scan('{"resourceType":"Patient","name":[{"family":"Doe","given":["J"]}],"gender":"male"}')).toEqual([]);
  });
});

describe('FHIR XML conversion of hostile names', () => {
  const converter = createFhirXmlConverter(createFhirDefinitions());

  it('sets elements named like inherited members aside as findings instead of refusing the document, and touches no prototype', () => {
    const result = converter.convert(
      '<Patient xmlns="http://hl7.org/fhir" __proto__="a"><__proto__><polluted value="1"/></__proto__><name><prototype value="x"/><family value="Doe"/></name><gender value="male"/></Patient>',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.findings.map((f) => `${f.code} ${f.field}`)).toEqual(['UNKNOWN_ELEMENT Patient@__proto__', 'UNKNOWN_ELEMENT Patient.__proto__', 'UNKNOWN_ELEMENT Patient.name[0].prototype']);
    expect(Object.getPrototypeOf(result.resource)).toBe(Object.prototype);
    expect(result.resource).toEqual({ resourceType: 'Patient', name: [{ family: 'Doe' }], gender: 'male' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts namespace declarations and the attributes FHIR XML defines', () => {
    const result = converter.convert(
      '<Patient xmlns="http://hl7.org/fhir" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://hl7.org/fhir patient.xsd"><id value="p1"/><name id="n1"><family value="Doe" id="f1"/></name><extension url="http://example.org/x"><valueString value="v"/></extension></Patient>',
    );
    expect(result.ok && result.findings).toEqual([]);
  });

  it('reports a url attribute where only extensions carry one, and does not turn it into an element', () => {
    const result = converter.convert('<Patient xmlns="http://hl7.org/fhir"><name url="http://x"><family value="Doe"/></name></Patient>');
    expect(result.ok && result.findings.map((f) => f.field)).toEqual(['Patient.name[0]@url']);
    expect(result.ok && result.resource.name).toEqual([{ family: 'Doe' }]);
  });
});
