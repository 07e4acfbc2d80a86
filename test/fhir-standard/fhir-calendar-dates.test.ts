/**
 * FHIR date, dateTime and instant values must exist on the calendar: a day past the end of its month is an
 * INVALID_DATE error at its path in both modes; partial dates stay valid; the format check keeps month 13 and
 * hour 24 (R4's regular expressions stop at 12 and 23).
 */
import { describe, expect, it } from 'vitest';
import { calendarProblem } from '../../plugins/fhir-standard/fhir-calendar.ts';
import { useTestWorkbench } from '../helpers/test-workbench.ts';
import { json, testAdapter } from './fhir-fixtures.ts';

function errors(resource: unknown, mode: 'strict' | 'compatibility' = 'strict'): string[] {
  const content = typeof resource === 'string' ? resource : json(resource);
  return testAdapter()
    .validate(content, { mode })
    .errors.map((e) => `${e.code} ${e.field}`);
}

describe('calendarProblem', () => {
  it('finds days that do not exist, leap years included', () => {
    expect(calendarProblem('1981-02-29')).toBe('day 29 does not exist in February 1981 (it has 28 days)');
    expect(calendarProblem('2023-04-31T10:00:00Z')).toBe('day 31 does not exist in April 2023 (it has 30 days)');
    expect(calendarProblem('1900-02-29')).toContain('February 1900');
    for (const fine of ['2024-02-29', '2000-02-29', '2023-01-31', '2023-04-30T23:59:59.999+14:00', '1981', '1981-02']) {
      expect(calendarProblem(fine), fine).toBeUndefined();
    }
  });
});

describe('FHIR validation of calendar dates', () => {
  it('date, dateTime and instant days past the end of the month are errors at their path, in both modes', () => {
    for (const mode of ['strict', 'compatibility'] as const) {
      expect(errors({ resourceType: 'Patient', birthDate: '1981-02-29' }, mode)).toEqual(['INVALID_DATE Patient.birthDate']);
      expect(
        errors({ resourceType: 'Observation', status: 'final', code: { text: 'x' }, effectiveDateTime: '2023-04-31T10:00:00Z', issued: '2023-06-31T10:00:00Z' }, mode),
      ).toEqual(['INVALID_DATE Observation.effectiveDateTime', 'INVALID_DATE Observation.issued']);
    }
  });

  it('names the value and why', () => {
    const result = testAdapter().validate(json({ resourceType: 'Patient', birthDate: '2023-04-31' }), { mode: 'strict' });
    expect(result.errors[0]?.message).toBe('Patient.birthDate "2023-04-31" is not a real date: day 31 does not exist in April 2023 (it has 30 days).');
  });

  it('reaches nested elements, repetitions, extensions and Bundle entries', () => {
    expect(
      errors({
        resourceType: 'Patient',
        extension: [{ url: 'http://example.org/x', valueDate: '2023-02-30' }],
        contact: [{ name: { family: 'Doe' } }, { name: { family: 'Roe' }, period: { start: '2021-06-31' } }],
      }),
    ).toEqual(['INVALID_DATE Patient.extension[0].valueDate', 'INVALID_DATE Patient.contact[1].period.start']);
    expect(
      errors({ resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'urn:uuid:6f1b3c1e-8b9a-4b7e-9d2a-1c3e5f7a9b0d', resource: { resourceType: 'Patient', birthDate: '2021-09-31' } }] }),
    ).toEqual(['INVALID_DATE Bundle.entry[0].resource.birthDate']);
  });

  it('reads XML the same way', () => {
    expect(errors('<Patient xmlns="http://hl7.org/fhir"><birthDate value="1981-02-29"/></Patient>')).toEqual(['INVALID_DATE Patient.birthDate']);
  });

  it('keeps partial dates, leap days and month 13 / hour 24 as before', () => {
    expect(errors({ resourceType: 'Patient', birthDate: '1981' })).toEqual([]);
    expect(errors({ resourceType: 'Patient', birthDate: '1981-02' })).toEqual([]);
    expect(errors({ resourceType: 'Patient', birthDate: '2024-02-29' })).toEqual([]);
    expect(errors({ resourceType: 'Patient', birthDate: '2023-13' })).toEqual(['INVALID_DATE Patient.birthDate']);
    expect(errors({ resourceType: 'Observation', status: 'final', code: { text: 'x' }, effectiveDateTime: '2023-01-01T24:00:00Z' })).toEqual([
      'INVALID_DATE Observation.effectiveDateTime',
    ]);
  });
});

describe('POST /api/validate with a FHIR date that is not on the calendar', () => {
  const wb = useTestWorkbench();

  it('answers isValid false with INVALID_DATE at the path', async () => {
    const res = await wb.call('bridge', {
      method: 'POST',
      path: '/api/validate',
      body: { messageContent: json({ resourceType: 'Patient', birthDate: '1981-02-29' }), mode: 'compatibility' },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.isValid).toBe(false);
    expect(res.json.data.errors.map((e: { code: string; field: string }) => `${e.code} ${e.field}`)).toEqual(['INVALID_DATE Patient.birthDate']);
  });
});
