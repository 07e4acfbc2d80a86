import { describe, expect, it } from 'vitest';
import { detectFhir } from '../../plugins/fhir-standard/fhir-detect.ts';

describe('detectFhir', () => {
  it('is confident for JSON with a resourceType, with or without a BOM', () => {
    expect(detectFhir('{"resourceType":"Patient"}')).toBeGreaterThanOrEqual(0.9);
    expect(detectFhir('\uFEFF  {\n "resourceType" : "Bundle"}')).toBeGreaterThanOrEqual(0.9);
  });

  it('finds a resourceType that comes after a large first property', () => {
    const content = `{"text":"${'x'.repeat(10_000)}","resourceType":"Observation"}`;
    expect(detectFhir(content)).toBeGreaterThanOrEqual(0.9);
  });

  it('claims other JSON only weakly, so it is answered as "not FHIR" rather than unknown', () => {
    expect(detectFhir('{"PatientId":"123"}')).toBe(0.5);
  });

  it('is confident for XML in the FHIR namespace and not for other XML', () => {
    expect(detectFhir('<?xml version="1.0"?><Patient xmlns="http://hl7.org/fhir"><id value="1"/></Patient>')).toBeGreaterThanOrEqual(0.9);
    expect(detectFhir('<Message xmlns="http://www.ncpdp.org/schema/SCRIPT"></Message>')).toBe(0);
  });

  it('says no to HL7 v2 and plain text', () => {
    expect(detectFhir('MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5.1')).toBe(0);
    expect(detectFhir('')).toBe(0);
  });
});
