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
  fhirConceptJson as conceptJson,
  fhirNarrative as narrative,
  fhirNarrativeJson as narrativeJson,
  fhirPatientOf,
  jsonString as str,
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

/**
 * The transaction Bundle of one patient, as objects: the readable definition of the Bundle. The writer emits
 * `fhirBundleJson`, which must give exactly `JSON.stringify` of this.
 */
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

/** The Encounter class Coding of an ActCode code, as JSON text. */
function encounterClassJson(code: string): string {
  return `{"system":${str(SYSTEMS.actCode)},"code":${str(code)},"display":"${code === 'AMB' ? 'ambulatory' : code === 'EMER' ? 'emergency' : 'inpatient encounter'}"}`;
}

// Fragments every Bundle repeats, as JSON text once: most of a Bundle's characters are these.
const J = {
  encounterClass: new Map<string, string>(['AMB', 'EMER', 'IMP'].map((code) => [code, encounterClassJson(code)])),
  encounterIdentifierHead: `[{"use":"official","system":${str(`${MR_SYSTEM}.2`)},"value":"`,
  conditionClinical: {
    active: conceptJson(SYSTEMS.conditionClinical, 'active', 'Active'),
    resolved: conceptJson(SYSTEMS.conditionClinical, 'resolved', 'Resolved'),
  },
  conditionVerification: conceptJson(SYSTEMS.conditionVerification, 'confirmed', 'Confirmed'),
  conditionCategory: `[${conceptJson(SYSTEMS.conditionCategory, 'problem-list-item', 'Problem List Item')}]`,
  observationCategory: {
    'vital-signs': `[${conceptJson(SYSTEMS.observationCategory, 'vital-signs', 'Vital Signs')}]`,
    laboratory: `[${conceptJson(SYSTEMS.observationCategory, 'laboratory', 'Laboratory')}]`,
  },
  interpretation: {
    L: `[${conceptJson(SYSTEMS.interpretation, 'L', 'Low')}]`,
    H: `[${conceptJson(SYSTEMS.interpretation, 'H', 'High')}]`,
    N: `[${conceptJson(SYSTEMS.interpretation, 'N', 'Normal')}]`,
  },
  inhaledRoute: conceptJson(SYSTEMS.snomed, '447694001', 'Respiratory tract route'),
  oralRoute: conceptJson(SYSTEMS.snomed, '26643006', 'Oral route'),
  allergyClinical: conceptJson(SYSTEMS.allergyClinical, 'active', 'Active'),
  allergyVerification: conceptJson(SYSTEMS.allergyVerification, 'confirmed', 'Confirmed'),
  snomed: str(SYSTEMS.snomed),
  icd10cm: str(SYSTEMS.icd10cm),
  ucum: str(SYSTEMS.ucum),
};


/** A number as JSON writes it (non-finite numbers become null, as in `JSON.stringify`). */
function num(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/** The `urn:uuid:` prefix of each table's identifiers for one seed; only the row id varies after it. */
function uuidPrefixes(seed: number): Record<keyof typeof TABLE_TAG, string> {
  const prefixes = {} as Record<keyof typeof TABLE_TAG, string>;
  for (const table of Object.keys(TABLE_TAG) as Array<keyof typeof TABLE_TAG>) prefixes[table] = `urn:uuid:${populationUuid(seed, table, 0).slice(0, -12)}`;
  return prefixes;
}

/** The 12 hex digits of a row id in a population UUID. */
function idHex(id: number): string {
  return id.toString(16).padStart(12, '0');
}

/**
 * The transaction Bundle of one patient as one line of JSON text, exactly `JSON.stringify(fhirBundleOf(patient,
 * seed))`, written straight from the record: building and then serializing some forty objects per resource was most
 * of the cost of a FHIR population. `prefixes` are `uuidPrefixes(seed)`, computed once per writer.
 */
export function fhirBundleJson(patient: PatientRecord, seed: number, prefixes: Record<keyof typeof TABLE_TAG, string> = uuidPrefixes(seed)): string {
  const p = patient.person;
  const name = `${p.givenName} ${p.familyName}`;
  const patientUrl = `${prefixes.patient}${idHex(patient.id)}`;
  const subject = `{"reference":"${patientUrl}","display":${str(name)}}`;
  const encounterPrefix = prefixes.encounter;
  let out = `{"resourceType":"Bundle","id":"${prefixes.bundle.slice(9)}${idHex(patient.id)}","type":"transaction","entry":[`;
  out += `{"fullUrl":"${patientUrl}","resource":${JSON.stringify(fhirPatientOf(p))},"request":{"method":"POST","url":"Patient"}}`;

  for (const e of patient.encounters) {
    out += `,{"fullUrl":"${encounterPrefix}${idHex(e.id)}","resource":{"resourceType":"Encounter","text":${narrativeJson(`${e.typeDisplay} of ${name} on ${e.start.slice(0, 10)}`)}`;
    out += `,"identifier":${J.encounterIdentifierHead}${e.id}"}],"status":"finished","class":${
      J.encounterClass.get(e.classCode) ?? encounterClassJson(e.classCode)
    }`;
    out += `,"type":[${conceptJson(SYSTEMS.snomed, e.typeCode, e.typeDisplay)}],"subject":${subject},"period":{"start":${str(e.start)},"end":${str(e.end)}}`;
    if (e.reasonCode && e.reasonDisplay) out += `,"reasonCode":[${conceptJson(SYSTEMS.snomed, e.reasonCode, e.reasonDisplay)}]`;
    out += '},"request":{"method":"POST","url":"Encounter"}}';
  }

  for (const c of patient.conditions) {
    const display = str(c.display);
    out += `,{"fullUrl":"${prefixes.condition}${idHex(c.id)}","resource":{"resourceType":"Condition","text":${narrativeJson(`${c.display} (${name})`)}`;
    out += `,"clinicalStatus":${c.clinicalStatus === 'active' ? J.conditionClinical.active : J.conditionClinical.resolved},"verificationStatus":${J.conditionVerification},"category":${J.conditionCategory}`;
    out += `,"code":{"coding":[{"system":${J.snomed},"code":${str(c.snomed)},"display":${display}},{"system":${J.icd10cm},"code":${str(c.icd10)},"display":${str(c.icd10Display)}}],"text":${display}}`;
    out += `,"subject":${subject},"encounter":{"reference":"${encounterPrefix}${idHex(c.encounterId)}"},"onsetDateTime":${str(c.onsetDate)}`;
    if (c.clinicalStatus === 'resolved') out += ',"abatementString":"resolved"';
    out += '},"request":{"method":"POST","url":"Condition"}}';
  }

  for (const o of patient.observations) {
    const unit = `,"unit":${str(o.unitDisplay)},"system":${J.ucum},"code":${str(o.ucum)}}`;
    out += `,{"fullUrl":"${prefixes.observation}${idHex(o.id)}","resource":{"resourceType":"Observation","text":${narrativeJson(`${o.display}: ${o.valueText} ${o.ucum} (${name})`)}`;
    out += `,"status":"final","category":${J.observationCategory[o.category]}`;
    out += `,"code":${conceptJson(SYSTEMS.loinc, o.loinc, o.display)},"subject":${subject},"encounter":{"reference":"${encounterPrefix}${idHex(o.encounterId)}"}`;
    out += `,"effectiveDateTime":${str(o.effective)},"valueQuantity":{"value":${num(o.value)}${unit}`;
    if (o.interpretation) out += `,"interpretation":${J.interpretation[o.interpretation]}`;
    if (o.referenceLow !== null || o.referenceHigh !== null) {
      out += ',"referenceRange":[{';
      if (o.referenceLow !== null) out += `"low":{"value":${num(o.referenceLow)}${unit}`;
      if (o.referenceHigh !== null) out += `${o.referenceLow !== null ? ',' : ''}"high":{"value":${num(o.referenceHigh)}${unit}`;
      out += '}]';
    }
    out += '},"request":{"method":"POST","url":"Observation"}}';
  }

  for (const m of patient.medications) {
    const sig = str(m.sig);
    out += `,{"fullUrl":"${prefixes.medication}${idHex(m.id)}","resource":{"resourceType":"MedicationRequest","text":${narrativeJson(`${m.display}: ${m.sig}`)}`;
    out += `,"status":${str(m.status)},"intent":"order","medicationCodeableConcept":${conceptJson(SYSTEMS.rxnorm, m.rxnorm, m.display)},"subject":${subject}`;
    out += `,"encounter":{"reference":"${encounterPrefix}${idHex(m.encounterId)}"},"authoredOn":${str(m.authoredOn)}`;
    out += `,"dosageInstruction":[{"sequence":1,"text":${sig},"timing":{"repeat":{"frequency":${num(m.perDay)},"period":1,"periodUnit":"d"}},"route":${m.formCode === 'INHL' ? J.inhaledRoute : J.oralRoute}}]`;
    out += '},"request":{"method":"POST","url":"MedicationRequest"}}';
  }

  for (const a of patient.allergies) {
    out += `,{"fullUrl":"${prefixes.allergy}${idHex(a.id)}","resource":{"resourceType":"AllergyIntolerance","text":${narrativeJson(`Allergy to ${a.display.toLowerCase()}: ${a.reactionDisplay.toLowerCase()}`)}`;
    out += `,"clinicalStatus":${J.allergyClinical},"verificationStatus":${J.allergyVerification},"type":"allergy","category":[${str(a.category)}]`;
    out += `,"criticality":"${a.severity === 'severe' ? 'high' : 'low'}","code":${conceptJson(SYSTEMS[a.system], a.code, a.display)},"patient":${subject},"recordedDate":${str(a.recordedDate)}`;
    out += `,"reaction":[{"manifestation":[${conceptJson(SYSTEMS.snomed, a.reactionCode, a.reactionDisplay)}],"severity":${str(a.severity)}}]`;
    out += '},"request":{"method":"POST","url":"AllergyIntolerance"}}';
  }
  return `${out}]}`;
}

/** Opens `population.ndjson` (one Bundle per line) in `directory`. */
export function createFhirWriter(directory: string, seed: number, compress = false): PopulationWriter {
  const sink = new FileSink(join(directory, 'population.ndjson'), 'population.ndjson', 'application/fhir+ndjson', { compress });
  const prefixes = uuidPrefixes(seed);
  return {
    async write(patient) {
      sink.records++;
      const pending = sink.write(`${fhirBundleJson(patient, seed, prefixes)}\n`);
      if (pending) await pending;
    },
    close: async () => [await sink.close()],
    abort: () => sink.abort(),
  };
}
