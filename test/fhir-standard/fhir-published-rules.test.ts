/**
 * R4 rules as the specification states them where a published expression says less, through the real bridge, each
 * with its valid form: per-1 when start and end differ in precision, que-12 from two enableWhen on, ref-1 accepting
 * `#` (the containing resource), ras-2 on a prediction without probability, txt-2 (a narrative has some content),
 * ele-1 on a primitive that carries only an id. The invalid inputs copied from HL7's validator test suite
 * (test/fixtures/fhir-test-cases, Apache-2.0, see its PROVENANCE.md) are judged invalid here as HL7's validator does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bridgeValidation, type ValidationFinding } from '../helpers/bridge-validation.ts';
import { projectRoot } from './fhir-fixtures.ts';

const bridge = bridgeValidation();
const fixture = (name: string) => readFileSync(join(projectRoot, 'test', 'fixtures', 'fhir-test-cases', name), 'utf8');

function validate(resource: unknown, mode: 'strict' | 'compatibility' = 'strict') {
  return bridge.validate({ messageContent: resource, standard: 'fhir', mode });
}

const failing = (issues: ValidationFinding[], key: string): string[] => issues.filter((i) => i.message.includes(`invariant ${key}:`)).map((i) => i.field);
const div = (inner: string) => ({ status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${inner}</div>` });

describe('invariants judged by the rule they state', () => {
  it('per-1: a start and end of different precision that agree as far as both go are not proven in order', async () => {
    const period = (start: string, end: string) => ({ resourceType: 'Encounter', status: 'finished', class: { code: 'AMB' }, period: { start, end } });
    expect(failing((await validate(period('2023-06-21', '2023-06-21T06:20:00Z'))).errors, 'per-1')).toEqual(['Encounter.period']);
    expect(failing((await validate(period('2023-06-20', '2023-06-21T06:20:00Z'))).errors, 'per-1')).toEqual([]);
    expect(failing((await validate(period('2023-06-21T06:00:00Z', '2023-06-21T06:20:00Z'))).errors, 'per-1')).toEqual([]);
    const fromSuite = await validate(fixture('encounter-period.json'));
    expect(failing(fromSuite.errors, 'per-1')).toEqual(['Encounter.period']);
  });

  it('que-12: more than one enableWhen needs enableBehavior', async () => {
    const item = (behavior?: string) => ({
      resourceType: 'Questionnaire',
      status: 'draft',
      item: [
        { linkId: 'a', type: 'boolean' },
        { linkId: 'b', type: 'boolean' },
        { linkId: 'c', type: 'string', enableWhen: [{ question: 'a', operator: '=', answerBoolean: true }, { question: 'b', operator: '=', answerBoolean: true }], ...(behavior ? { enableBehavior: behavior } : {}) },
      ],
    });
    expect(failing((await validate(item())).errors, 'que-12')).toEqual(['Questionnaire.item[2]']);
    expect(failing((await validate(item('all'))).errors, 'que-12')).toEqual([]);
    expect(failing((await validate(fixture('q-enablewhen-me-wrong.json'))).errors, 'que-12')).toEqual(['Questionnaire.item[2]']);
  });

  it('ref-1: "#" refers to the containing resource; "#other" must name a contained one', async () => {
    const provenance = (reference: string) => ({
      resourceType: 'Patient',
      contained: [{ resourceType: 'Provenance', id: 'prov', target: [{ reference }], recorded: '2021-01-01T00:00:00Z', agent: [{ who: { display: 'Clerk' } }] }],
    });
    expect((await validate(provenance('#'))).errors).toEqual([]);
    expect(failing((await validate(provenance('#nowhere'))).errors, 'ref-1')).toEqual(['Patient.contained[0].target[0]']);
  });

  it('ras-2: a prediction without probability holds; a probability over 100 fails', async () => {
    const assessment = (prediction: Record<string, unknown>) => ({ resourceType: 'RiskAssessment', status: 'final', subject: { reference: 'Patient/1' }, prediction: [prediction] });
    expect(failing((await validate(assessment({ outcome: { text: 'Stroke' } }))).errors, 'ras-2')).toEqual([]);
    expect(failing((await validate(assessment({ probabilityDecimal: 150 }))).errors, 'ras-2')).toEqual(['RiskAssessment.prediction[0]']);
  });
});

describe('narrative and primitive content', () => {
  it('txt-2: a narrative with only whitespace is refused; text or an image is content', async () => {
    const list = (text: unknown) => ({ resourceType: 'List', status: 'current', mode: 'changes', text });
    const empty = await validate(list(div('<p> </p>')));
    expect(empty.errors.map((e) => [e.field, e.code])).toEqual([['List.text.div', 'NARRATIVE_INVALID']]);
    expect(empty.errors[0]?.message).toContain('txt-2');
    expect((await validate(list(div('<p>Nothing changed</p>')))).errors).toEqual([]);
    expect((await validate(list(div('<img src="#pic" alt="x"/>')))).errors).toEqual([]);
    expect((await validate(fixture('list-xhtml-empty.xml'))).errors.map((e) => e.field)).toEqual(['List.text.div']);
  });

  it('ele-1: a primitive with only an id has neither value nor children, in JSON and in XML', async () => {
    const result = await validate({ resourceType: 'Patient', _gender: { id: 'g1' } });
    expect(failing(result.errors, 'ele-1')).toEqual(['Patient.gender']);
    const extended = await validate({ resourceType: 'Patient', _gender: { id: 'g1', extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] } });
    expect(failing(extended.errors, 'ele-1')).toEqual([]);
    expect(failing((await validate({ resourceType: 'Patient', gender: 'male', _gender: { id: 'g1' } })).errors, 'ele-1')).toEqual([]);
    expect(failing((await validate(fixture('patient-id-only.xml'))).errors, 'ele-1')).toEqual(['Patient.implicitRules']);
  });

  it('reports these in compatibility mode as warnings', async () => {
    const result = await validate(fixture('patient-id-only.xml'), 'compatibility');
    expect(result.errors).toEqual([]);
    expect(failing(result.warnings, 'ele-1')).toEqual(['Patient.implicitRules']);
  });
});
