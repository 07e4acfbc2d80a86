import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonNestingDepth } from '../../plugins/fhir-standard/fhir-parser.ts';
import { decodeXmlText } from '../../plugins/fhir-standard/fhir-xml.ts';
import { json, patient, testAdapter } from './fhir-fixtures.ts';

type Parsed = { ok: boolean; format: string; resource?: Record<string, unknown>; finding?: { code: string; message: string } };
const parse = (content: string) => testAdapter().parse(content) as Parsed;

const PATIENT_XML = `<?xml version="1.0" encoding="UTF-8"?>
<Patient xmlns="http://hl7.org/fhir">
  <id value="example"/>
  <text>
    <status value="generated"/>
    <div xmlns="http://www.w3.org/1999/xhtml"><p>Peter &amp; <b>Chalmers</b></p></div>
  </text>
  <extension url="http://example.org/fhir/StructureDefinition/favourite-colour">
    <valueString value="blue"/>
  </extension>
  <identifier>
    <system value="urn:oid:1.2.36.146.595.217.0.1"/>
    <value value="12345"/>
  </identifier>
  <active value="true"/>
  <name>
    <family value="Chalmers"/>
    <given value="Peter"/>
    <given value="James">
      <extension url="http://example.org/fhir/StructureDefinition/given-note">
        <valueString value="middle"/>
      </extension>
    </given>
  </name>
  <gender value="male"/>
  <birthDate id="bd" value="1974-12-25"/>
  <multipleBirthInteger value="2"/>
  <contained>
    <Organization>
      <id value="org1"/>
      <name value="Acme &lt;Health&gt;"/>
    </Organization>
  </contained>
  <managingOrganization>
    <reference value="#org1"/>
  </managingOrganization>
</Patient>`;

describe('FHIR JSON parsing', () => {
  it('parses a resource and tolerates a UTF-8 BOM', () => {
    const result = parse(`\uFEFF${json(patient())}`);
    expect(result.ok).toBe(true);
    expect(result.format).toBe('json');
    expect(result.resource?.resourceType).toBe('Patient');
  });

  it('reports JSON without resourceType as not a FHIR resource', () => {
    const result = parse('{"PatientId":"1","FirstName":"A"}');
    expect(result.ok).toBe(false);
    expect(result.finding?.code).toBe('NOT_FHIR_RESOURCE');
    expect(result.finding?.message).toMatch(/no resourceType/);
  });

  it('reports an unknown resourceType and a JSON array as not FHIR', () => {
    expect(parse('{"resourceType":"Patientt"}').finding?.message).toMatch(/"Patientt" is not defined by FHIR R4/);
    expect(parse('[{"resourceType":"Patient"}]').finding?.code).toBe('NOT_FHIR_RESOURCE');
    expect(parse('{"resourceType":"Element"}').finding?.code).toBe('NOT_FHIR_RESOURCE');
  });

  it('reports malformed JSON and non-JSON text as PARSE_ERROR', () => {
    expect(parse('{"resourceType":"Patient",').finding?.code).toBe('PARSE_ERROR');
    expect(parse('hello').finding?.code).toBe('PARSE_ERROR');
  });

  it('counts nesting outside strings only, escapes included', () => {
    expect(jsonNestingDepth('{"a":[{"b":"[[{{\\"}}"}]}', 100)).toBe(3);
    expect(jsonNestingDepth('"no nesting"', 100)).toBe(0);
  });

  it('refuses JSON nested deeper than the limit', () => {
    const deep = `${'{"a":'.repeat(MAX_JSON_DEPTH + 5)}1${'}'.repeat(MAX_JSON_DEPTH + 5)}`;
    const result = parse(deep);
    expect(result.finding?.code).toBe('PARSE_ERROR');
    expect(result.finding?.message).toMatch(/deeper/);
  });
});

describe('FHIR XML parsing', () => {
  it('converts FHIR XML to FHIR JSON following the element definitions', () => {
    const result = parse(PATIENT_XML);
    expect(result.ok).toBe(true);
    expect(result.format).toBe('xml');
    // the test reads deep into converted JSON
    const p = result.resource as Record<string, any>;
    expect(p.id).toBe('example');
    expect(p.active).toBe(true);
    expect(p.multipleBirthInteger).toBe(2);
    expect(p.gender).toBe('male');
    expect(p.identifier).toEqual([{ system: 'urn:oid:1.2.36.146.595.217.0.1', value: '12345' }]);
    expect(p.name[0].given).toEqual(['Peter', 'James']);
    expect(p.name[0]._given).toEqual([null, { extension: [{ url: 'http://example.org/fhir/StructureDefinition/given-note', valueString: 'middle' }] }]);
    expect(p._birthDate).toEqual({ id: 'bd' });
    expect(p.extension[0]).toEqual({ url: 'http://example.org/fhir/StructureDefinition/favourite-colour', valueString: 'blue' });
    expect(p.contained[0]).toEqual({ resourceType: 'Organization', id: 'org1', name: 'Acme <Health>' });
    expect(p.text.div).toBe('<div xmlns="http://www.w3.org/1999/xhtml"><p>Peter &amp; <b>Chalmers</b></p></div>');
  });

  it('validates converted XML like JSON', () => {
    const result = testAdapter().validate(PATIENT_XML, { mode: 'strict' });
    expect(result.errors).toEqual([]);
    const bad = testAdapter().validate(PATIENT_XML.replace('<gender value="male"/>', '<gender value="mle"/>'), { mode: 'strict' });
    expect(bad.errors.map((e) => [e.field, e.code])).toEqual([['Patient.gender', 'VALUE_NOT_IN_VALUE_SET']]);
  });

  it('keeps a repeated single-valued element as an array so validation reports it', () => {
    const xml = '<Patient xmlns="http://hl7.org/fhir"><gender value="male"/><gender value="female"/></Patient>';
    const result = testAdapter().validate(xml, { mode: 'strict' });
    expect(result.isValid).toBe(false);
    expect(result.errors.some((e) => e.field.startsWith('Patient.gender') && e.code === 'INVALID_DATA_TYPE')).toBe(true);
  });

  it('refuses DOCTYPE and ENTITY declarations (XXE, billion laughs)', () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]><Patient xmlns="http://hl7.org/fhir"><id value="&x;"/></Patient>';
    const result = parse(xxe);
    expect(result.finding?.code).toBe('PARSE_ERROR');
    expect(result.finding?.message).toMatch(/DOCTYPE or ENTITY/);
  });

  it('reports XML outside the FHIR namespace as not FHIR, and broken XML as a parse error', () => {
    expect(parse('<Patient><id value="1"/></Patient>').finding?.code).toBe('NOT_FHIR_RESOURCE');
    expect(parse('<Foo xmlns="http://hl7.org/fhir"/>').finding?.message).toMatch(/not a FHIR R4 resource type/);
    expect(parse('<Patient xmlns="http://hl7.org/fhir"><id value="1"></Patient>').finding?.code).toBe('PARSE_ERROR');
  });

  it('decodes only predefined entities and character references', () => {
    expect(decodeXmlText('a &lt;b&gt; &amp; &#x41;&#66; &unknown;')).toBe('a <b> & AB &unknown;');
  });
});
