/**
 * FHIR R4 output: one transaction Bundle per patient (Patient, Encounters, Conditions, Observations,
 * MedicationRequests, AllergyIntolerances), one Bundle per line (NDJSON). Entries reference each other by `urn:uuid`
 * full URLs derived from the seed, the table and the row id, so the same seed gives the same identifiers and the
 * Bundle can be POSTed to any FHIR server as is.
 */
import { join } from 'node:path';
import {
  CODE_SYSTEM_URIS as SYSTEMS,
  fhirConcept as concept,
  fhirNarrative as narrative,
  fhirPatientOf,
  SYNTHETIC_MR_SYSTEM as MR_SYSTEM,
} from '../synthetic-data/api.ts';
import { FileSink } from './file-sink.ts';
import type { PatientRecord } from './patient-record.ts';
import type { PopulationWriter } from './population-writer.ts';

type Json = Record<string, unknown>;

const TABLE_TAG = { patient: 1, encounter: 2, condition: 3, observation: 4, medication: 5, allergy: 6, bundle: 7 } as const;

/** A UUID-shaped identifier (version 4 layout) made of the seed, a table tag and a row id: unique and reproducible. */
export function populationUuid(seed: number, table: keyof typeof TABLE_TAG, id: number): string {
  const seedHex = (seed >>> 0).toString(16).padStart(8, '0');
  const idHex = id.toString(16).padStart(12, '0');
  return `${seedHex}-${TABLE_TAG[table].toString(16).padStart(4, '0')}-4000-8000-${idHex}`;
}

/** The transaction Bundle of one patient. */
export function fhirBundleOf(patient: PatientRecord, seed: number): Json {
  const p = patient.person;
  const name = `${p.givenName} ${p.familyName}`;
  const patientUrl = `urn:uuid:${populationUuid(seed, 'patient', patient.id)}`;
  const subject = { reference: patientUrl, display: name };
  const encounterUrl = (id: number) => `urn:uuid:${populationUuid(seed, 'encounter', id)}`;
  const entries: Json[] = [];
  const add = (fullUrl: string, resource: Json) => entries.push({ fullUrl, resource, request: { method: 'POST', url: resource.resourceType } });

  add(patientUrl, fhirPatientOf(p));

  for (const e of patient.encounters) {
    add(encounterUrl(e.id), {
      resourceType: 'Encounter',
      text: narrative(`${e.typeDisplay} of ${name} on ${e.start.slice(0, 10)}`),
      identifier: [{ use: 'official', system: `${MR_SYSTEM}.2`, value: String(e.id) }],
      status: 'finished',
      class: { system: SYSTEMS.actCode, code: e.classCode, display: e.classCode === 'AMB' ? 'ambulatory' : e.classCode === 'EMER' ? 'emergency' : 'inpatient encounter' },
      type: [concept(SYSTEMS.snomed, e.typeCode, e.typeDisplay)],
      subject,
      period: { start: e.start, end: e.end },
      ...(e.reasonCode && e.reasonDisplay ? { reasonCode: [concept(SYSTEMS.snomed, e.reasonCode, e.reasonDisplay)] } : {}),
    });
  }

  for (const c of patient.conditions) {
    add(`urn:uuid:${populationUuid(seed, 'condition', c.id)}`, {
      resourceType: 'Condition',
      text: narrative(`${c.display} (${name})`),
      clinicalStatus: concept(SYSTEMS.conditionClinical, c.clinicalStatus, c.clinicalStatus === 'active' ? 'Active' : 'Resolved'),
      verificationStatus: concept(SYSTEMS.conditionVerification, 'confirmed', 'Confirmed'),
      category: [concept(SYSTEMS.conditionCategory, 'problem-list-item', 'Problem List Item')],
      code: { coding: [{ system: SYSTEMS.snomed, code: c.snomed, display: c.display }, { system: SYSTEMS.icd10cm, code: c.icd10, display: c.icd10Display }], text: c.display },
      subject,
      encounter: { reference: encounterUrl(c.encounterId) },
      onsetDateTime: c.onsetDate,
      ...(c.clinicalStatus === 'resolved' ? { abatementString: 'resolved' } : {}),
    });
  }

  for (const o of patient.observations) {
    const quantity = (value: number) => ({ value, unit: o.unitDisplay, system: SYSTEMS.ucum, code: o.ucum });
    const range: Json = {};
    if (o.referenceLow !== null) range.low = quantity(o.referenceLow);
    if (o.referenceHigh !== null) range.high = quantity(o.referenceHigh);
    add(`urn:uuid:${populationUuid(seed, 'observation', o.id)}`, {
      resourceType: 'Observation',
      text: narrative(`${o.display}: ${o.valueText} ${o.ucum} (${name})`),
      status: 'final',
      category: [concept(SYSTEMS.observationCategory, o.category, o.category === 'vital-signs' ? 'Vital Signs' : 'Laboratory')],
      code: concept(SYSTEMS.loinc, o.loinc, o.display),
      subject,
      encounter: { reference: encounterUrl(o.encounterId) },
      effectiveDateTime: o.effective,
      valueQuantity: quantity(o.value),
      ...(o.interpretation
        ? { interpretation: [concept(SYSTEMS.interpretation, o.interpretation, { L: 'Low', H: 'High', N: 'Normal' }[o.interpretation])] }
        : {}),
      ...(Object.keys(range).length > 0 ? { referenceRange: [range] } : {}),
    });
  }

  for (const m of patient.medications) {
    const inhaler = m.formCode === 'INHL';
    add(`urn:uuid:${populationUuid(seed, 'medication', m.id)}`, {
      resourceType: 'MedicationRequest',
      text: narrative(`${m.display}: ${m.sig}`),
      status: m.status,
      intent: 'order',
      medicationCodeableConcept: concept(SYSTEMS.rxnorm, m.rxnorm, m.display),
      subject,
      encounter: { reference: encounterUrl(m.encounterId) },
      authoredOn: m.authoredOn,
      dosageInstruction: [
        {
          sequence: 1,
          text: m.sig,
          timing: { repeat: { frequency: m.perDay, period: 1, periodUnit: 'd' } },
          route: inhaler ? concept(SYSTEMS.snomed, '447694001', 'Respiratory tract route') : concept(SYSTEMS.snomed, '26643006', 'Oral route'),
        },
      ],
    });
  }

  for (const a of patient.allergies) {
    add(`urn:uuid:${populationUuid(seed, 'allergy', a.id)}`, {
      resourceType: 'AllergyIntolerance',
      text: narrative(`Allergy to ${a.display.toLowerCase()}: ${a.reactionDisplay.toLowerCase()}`),
      clinicalStatus: concept(SYSTEMS.allergyClinical, 'active', 'Active'),
      verificationStatus: concept(SYSTEMS.allergyVerification, 'confirmed', 'Confirmed'),
      type: 'allergy',
      category: [a.category],
      criticality: a.severity === 'severe' ? 'high' : 'low',
      code: concept(SYSTEMS[a.system], a.code, a.display),
      patient: subject,
      recordedDate: a.recordedDate,
      reaction: [{ manifestation: [concept(SYSTEMS.snomed, a.reactionCode, a.reactionDisplay)], severity: a.severity }],
    });
  }
  return { resourceType: 'Bundle', id: populationUuid(seed, 'bundle', patient.id), type: 'transaction', entry: entries };
}

/** Opens `population.ndjson` (one Bundle per line) in `directory`. */
export function createFhirWriter(directory: string, seed: number, compress = false): PopulationWriter {
  const sink = new FileSink(join(directory, 'population.ndjson'), 'population.ndjson', 'application/fhir+ndjson', { compress });
  return {
    async write(patient) {
      sink.records++;
      await sink.write(`${JSON.stringify(fhirBundleOf(patient, seed))}\n`);
    },
    close: async () => [await sink.close()],
    abort: () => sink.abort(),
  };
}
