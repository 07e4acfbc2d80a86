/**
 * The FHIR population writer emits each Bundle as JSON text built straight from the record; these tests hold it to
 * exactly `JSON.stringify` of the readable object form (`fhirBundleOf`), for generated patients of several seeds and
 * for records whose text fields hold anything (quotes, backslashes, control characters, lone surrogates, markup),
 * and hold the shared narrative, concept and string fragments to `JSON.stringify` of their object forms.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fhirBundleJson, fhirBundleOf } from '../../plugins/population/output/fhir-writer.ts';
import { createPatientGenerator } from '../../plugins/population/generation/patient-generator.ts';
import type { PatientRecord } from '../../plugins/population/generation/patient-record.ts';
import { createFastRandom, fhirConcept, fhirConceptJson, fhirNarrative, fhirNarrativeJson, jsonString } from '../../plugins/synthetic-data/api.ts';
import { createSyntheticRandom } from '../../plugins/synthetic-data/synthetic-random.ts';

const anyText = fc.string({ unit: 'binary', maxLength: 24 });
const anyNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0));

function patients(seed: number, count: number): PatientRecord[] {
  const generator = createPatientGenerator(createFastRandom(createSyntheticRandom(seed)), 'us');
  return Array.from({ length: count }, () => generator.next());
}

describe('FHIR Bundle JSON text', () => {
  it('is exactly JSON.stringify of the Bundle object for generated patients of several seeds', () => {
    for (const seed of [1, 42, 0xffffffff]) {
      for (const patient of patients(seed, 300)) expect(fhirBundleJson(patient, seed)).toBe(JSON.stringify(fhirBundleOf(patient, seed)));
    }
  });

  it('stays exactly JSON.stringify of the Bundle object whatever the text and number fields hold', () => {
    const [base] = patients(7, 1);
    // A patient with one record of every kind, so every field below is written.
    const withAll = patients(7, 200).find((p) => p.encounters.length && p.conditions.length && p.observations.length && p.medications.length && p.allergies.length);
    expect(withAll).toBeDefined();
    const template = withAll ?? base;
    fc.assert(
      fc.property(fc.array(anyText, { minLength: 12, maxLength: 12 }), fc.array(anyNumber, { minLength: 3, maxLength: 3 }), fc.boolean(), (t, n, flag) => {
        const patient: PatientRecord = {
          ...template,
          person: { ...template.person, givenName: t[0], familyName: t[1] },
          encounters: template.encounters.map((e) => ({ ...e, typeDisplay: t[2], reasonDisplay: flag ? t[3] : null })),
          conditions: template.conditions.map((c) => ({ ...c, display: t[3], icd10Display: t[4], clinicalStatus: flag ? 'resolved' : 'active' })),
          observations: template.observations.map((o) => ({
            ...o,
            display: t[5],
            unitDisplay: t[6],
            ucum: t[7],
            value: n[0],
            referenceLow: flag ? null : n[1],
            referenceHigh: n[2],
            interpretation: flag ? null : 'H',
          })),
          medications: template.medications.map((m) => ({ ...m, display: t[8], sig: t[9], perDay: n[0] })),
          allergies: template.allergies.map((a) => ({ ...a, display: t[10], reactionDisplay: t[11] })),
        };
        expect(fhirBundleJson(patient, 99)).toBe(JSON.stringify(fhirBundleOf(patient, 99)));
      }),
    );
  });

  it('writes strings, narratives and concepts exactly as JSON.stringify of their objects', () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, (a, b, c) => {
        expect(jsonString(a)).toBe(JSON.stringify(a));
        expect(fhirNarrativeJson(a)).toBe(JSON.stringify(fhirNarrative(a)));
        expect(fhirConceptJson(a, b, c)).toBe(JSON.stringify(fhirConcept(a, b, c)));
      }),
    );
    expect(fhirNarrativeJson('a < b & "c" \\ \u0001')).toBe(JSON.stringify(fhirNarrative('a < b & "c" \\ \u0001')));
  });
});
