/**
 * Every FHIR R4 finding the checks can describe says what was expected and what was found, through the real bridge
 * (`POST /api/validate`, whose responses are checked against their schemas).
 */
import { describe, expect, it } from 'vitest';
import { bridgeValidation, type ValidationFinding } from '../helpers/bridge-validation.ts';

type Issue = ValidationFinding;

const bridge = bridgeValidation();

async function issues(resource: unknown): Promise<Issue[]> {
  const data = await bridge.validate({ messageContent: resource, standard: 'fhir', mode: 'strict' });
  return [...data.errors, ...data.warnings];
}

const at = (list: Issue[], code: string, field: string): Issue | undefined => list.find((i) => i.code === code && i.field === field);

describe('expected and actual of FHIR R4 findings', () => {
  it('names the allowed codes, the type and format, the cardinality and the value found', async () => {
    const maritalSystem = 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus';
    const list = await issues({
      resourceType: 'Patient',
      gender: 'mail',
      birthDate: '2020-02-30',
      active: 'yes',
      maritalStatus: { coding: [{ system: maritalSystem, code: 'QQ' }] },
      communication: [{ preferred: true }],
    });
    expect(at(list, 'VALUE_NOT_IN_VALUE_SET', 'Patient.gender')).toMatchObject({ expected: 'one of male, female, other, unknown', actual: 'mail' });
    expect(at(list, 'VALUE_NOT_IN_VALUE_SET', 'Patient.maritalStatus')?.expected).toMatch(/^one of A, D, I, L, M, P, S, T, U, W … and 1 more$/);
    expect(at(list, 'CODE_NOT_IN_CODE_SYSTEM', 'Patient.maritalStatus.coding[0].code')).toMatchObject({ expected: `a code of ${maritalSystem}`, actual: 'QQ' });
    expect(at(list, 'INVALID_DATE', 'Patient.birthDate')).toMatchObject({ expected: 'a real calendar moment, date YYYY[-MM[-DD]]', actual: '2020-02-30' });
    expect(at(list, 'INVALID_DATA_TYPE', 'Patient.active')).toMatchObject({ expected: 'a valid boolean', actual: 'yes' });
    expect(at(list, 'REQUIRED_FIELD_MISSING', 'Patient.communication[0].language')).toMatchObject({ expected: 'a value', actual: 'empty' });
  });

  it('names the type wanted where a single element is sent as an array', async () => {
    const list = await issues({ resourceType: 'Observation', status: 'final', code: { text: 'x' }, subject: [{ reference: 'Patient/1' }, { reference: 'Patient/2' }] });
    expect(at(list, 'INVALID_DATA_TYPE', 'Observation.subject')).toMatchObject({ expected: 'a valid Reference', actual: 'an array' });
  });
});
