/**
 * FHIR R4 output: one transaction Bundle per patient (Patient, Encounters, Conditions, Observations,
 * MedicationRequests, AllergyIntolerances), one Bundle per line (NDJSON). Entries reference each other by `urn:uuid`
 * full URLs derived from the seed, the table and the row id, so the same seed gives the same identifiers and the
 * Bundle can be POSTed to any FHIR server as is. A population is gigabytes of JSON, so the writer emits each Bundle
 * straight as UTF-8 bytes (`writeFhirBundle`); `fhirBundleOf` is the readable object form it must match byte for byte.
 */
import { join } from 'node:path';
import {
  CODE_SYSTEM_URIS as SYSTEMS,
  fhirConcept as concept,
  escapeXhtml,
  fhirConceptJson as conceptJson,
  fhirNarrative as narrative,
  fhirPatientOf,
  jsonString as str,
  NARRATIVE_JSON_HEAD,
  NARRATIVE_JSON_TAIL,
  SYNTHETIC_MR_SYSTEM as MR_SYSTEM,
} from '../../synthetic-data/api.ts';
import { FileSink } from './file-sink.ts';
import { FragmentCache } from './fragment-cache.ts';
import { JsonBytes } from './json-bytes.ts';
import type { PatientRecord } from '../generation/patient-record.ts';
import type { PopulationWriter } from './population-writer.ts';

type Json = Record<string, unknown>;

/** Bytes of Bundles gathered before they go to the file. */
const OUTPUT_CHUNK_BYTES = 1024 * 1024;

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

/** The JSON text of a CodeableConcept of `system` up to its code: `{"coding":[{"system":"…","code":`. */
const conceptHead = (system: string) => `{"coding":[{"system":${str(system)},"code":`;

// Fragments every Bundle repeats, as JSON text once: most of a Bundle's characters are these.
const J = {
  encounterClass: new Map<string, string>(['AMB', 'EMER', 'IMP'].map((code) => [code, encounterClassJson(code)])),
  encounterIdentifierHead: `,"identifier":[{"use":"official","system":${str(`${MR_SYSTEM}.2`)},"value":"`,
  conditionClinical: {
    active: conceptJson(SYSTEMS.conditionClinical, 'active', 'Active'),
    resolved: conceptJson(SYSTEMS.conditionClinical, 'resolved', 'Resolved'),
  },
  conditionStatusTail: `,"verificationStatus":${conceptJson(SYSTEMS.conditionVerification, 'confirmed', 'Confirmed')},"category":[${conceptJson(SYSTEMS.conditionCategory, 'problem-list-item', 'Problem List Item')}],"code":{"coding":[{"system":${str(SYSTEMS.snomed)},"code":`,
  observationHead: {
    'vital-signs': `,"status":"final","category":[${conceptJson(SYSTEMS.observationCategory, 'vital-signs', 'Vital Signs')}],"code":${conceptHead(SYSTEMS.loinc)}`,
    laboratory: `,"status":"final","category":[${conceptJson(SYSTEMS.observationCategory, 'laboratory', 'Laboratory')}],"code":${conceptHead(SYSTEMS.loinc)}`,
  },
  interpretation: {
    L: `,"interpretation":[${conceptJson(SYSTEMS.interpretation, 'L', 'Low')}]`,
    H: `,"interpretation":[${conceptJson(SYSTEMS.interpretation, 'H', 'High')}]`,
    N: `,"interpretation":[${conceptJson(SYSTEMS.interpretation, 'N', 'Normal')}]`,
  },
  inhaledRoute: `,"route":${conceptJson(SYSTEMS.snomed, '447694001', 'Respiratory tract route')}}]`,
  oralRoute: `,"route":${conceptJson(SYSTEMS.snomed, '26643006', 'Oral route')}}]`,
  allergyStatus: `,"clinicalStatus":${conceptJson(SYSTEMS.allergyClinical, 'active', 'Active')},"verificationStatus":${conceptJson(SYSTEMS.allergyVerification, 'confirmed', 'Confirmed')},"type":"allergy","category":[`,
  allergyCode: { rxnorm: `,"code":${conceptHead(SYSTEMS.rxnorm)}`, snomed: `,"code":${conceptHead(SYSTEMS.snomed)}` },
  snomedConcept: conceptHead(SYSTEMS.snomed),
  rxnormConcept: conceptHead(SYSTEMS.rxnorm),
  icd10cm: `},{"system":${str(SYSTEMS.icd10cm)},"code":`,
  ucum: `,"system":${str(SYSTEMS.ucum)},"code":`,
};

/** Per table, the UTF-8 `urn:uuid:` prefix of a seed's identifiers (only the row id's 12 hex digits follow it); `bundleId` without `urn:uuid:`. */
type UuidPrefixes = Record<keyof typeof TABLE_TAG, Uint8Array> & { bundleId: Uint8Array; patientUrn: string };

/** The identifier prefixes of one seed, encoded once per writer. */
function uuidPrefixes(seed: number): UuidPrefixes {
  const prefix = (table: keyof typeof TABLE_TAG) => populationUuid(seed, table, 0).slice(0, -12);
  const urn = (table: keyof typeof TABLE_TAG) => Buffer.from(`urn:uuid:${prefix(table)}`);
  return {
    patient: urn('patient'),
    encounter: urn('encounter'),
    condition: urn('condition'),
    observation: urn('observation'),
    medication: urn('medication'),
    allergy: urn('allergy'),
    bundle: urn('bundle'),
    bundleId: Buffer.from(prefix('bundle')),
    patientUrn: `urn:uuid:${prefix('patient')}`,
  };
}

/** Hot literal pieces, encoded once (copying bytes beats looking a literal up). */
const K = {
  display: Buffer.from(',"display":'),
  conceptText: Buffer.from('}],"text":'),
  close: Buffer.from('}'),
  unit: Buffer.from(',"unit":'),
  ucum: Buffer.from(J.ucum),
  fullUrl: Buffer.from(',{"fullUrl":"'),
  encounterRef: Buffer.from(',"encounter":{"reference":"'),
  encounterRefEnd: Buffer.from('"}'),
  effective: Buffer.from(',"effectiveDateTime":'),
  valueQuantity: Buffer.from(',"valueQuantity":{"value":'),
  narrativeTail: Buffer.from(NARRATIVE_JSON_TAIL),
  observationHead: { 'vital-signs': Buffer.from(J.observationHead['vital-signs']), laboratory: Buffer.from(J.observationHead.laboratory) },
};

/** The start (up to the narrative's text) and the end of each resource type's Bundle entry, encoded once. */
const ENTRY = Object.fromEntries(
  ['Encounter', 'Condition', 'Observation', 'MedicationRequest', 'AllergyIntolerance'].map((type) => [
    type,
    {
      head: Buffer.from(`","resource":{"resourceType":"${type}","text":${NARRATIVE_JSON_HEAD}`),
      tail: Buffer.from(`},"request":{"method":"POST","url":"${type}"}}`),
    },
  ]),
) as Record<string, { head: Uint8Array; tail: Uint8Array }>;

/** Writes the rest of a CodeableConcept whose head (`…"code":`) is written: the code, the display, the text. */
function writeConceptTail(o: JsonBytes, code: string, display: string): void {
  o.string(code);
  o.bytes(K.display);
  o.string(display);
  o.bytes(K.conceptText);
  o.string(display);
  o.bytes(K.close);
}

const conceptTails = new FragmentCache(writeConceptTail);

/** Appends the rest of a CodeableConcept whose head (`…"code":`) is written (a vocabulary entry: copied once known). */
function conceptTail(o: JsonBytes, code: string, display: string): void {
  conceptTails.append(o, code, display);
}

/** The end of an Observation's narrative, its category and its code, per category: fixed per LOINC code and display. */
const observationCodes = {
  'vital-signs': new FragmentCache((o, loinc, display) => {
    o.bytes(K.narrativeTail);
    o.bytes(K.observationHead['vital-signs']);
    writeConceptTail(o, loinc, display);
  }),
  laboratory: new FragmentCache((o, loinc, display) => {
    o.bytes(K.narrativeTail);
    o.bytes(K.observationHead.laboratory);
    writeConceptTail(o, loinc, display);
  }),
};

/** Appends narrative text: XHTML-escaped, inside the Narrative's JSON string. */
function narrativeText(o: JsonBytes, text: string): void {
  o.stringContent(escapeXhtml(text));
}

/** A Quantity's unit, system and code after its value (closing the Quantity), per UCUM code and unit text. */
const quantityTails = new FragmentCache((o, ucum, unitDisplay) => {
  o.bytes(K.unit);
  o.string(unitDisplay);
  o.bytes(K.ucum);
  o.string(ucum);
  o.bytes(K.close);
});

/** Appends a Quantity's unit, system and code after its value (closing the Quantity). */
function quantityTail(o: JsonBytes, obs: PatientRecord['observations'][number]): void {
  quantityTails.append(o, obs.ucum, obs.unitDisplay);
}

/**
 * Appends the transaction Bundle of one patient to `o` as JSON text, exactly `JSON.stringify(fhirBundleOf(patient,
 * seed))`, written straight from the record into bytes: building some forty objects per resource and serializing
 * them, or concatenating strings, was most of the cost of a FHIR population. `prefixes` are `uuidPrefixes(seed)`.
 */
function writeFhirBundle(o: JsonBytes, patient: PatientRecord, prefixes: UuidPrefixes): void {
  const p = patient.person;
  const name = `${p.givenName} ${p.familyName}`;
  const encounterPrefix = prefixes.encounter;
  // What every resource of the patient repeats, encoded once per Bundle: the subject reference and the name as
  // narrative text (JSON.stringify writes a string exactly as JsonBytes.string does).
  const patientUrn = `${prefixes.patientUrn}${patient.id.toString(16).padStart(12, '0')}`;
  const subjectBytes = Buffer.from(`,"subject":{"reference":"${patientUrn}","display":${JSON.stringify(name)}}`);
  const nameText = Buffer.from(JSON.stringify(escapeXhtml(name)).slice(1, -1));
  const subject = () => o.bytes(subjectBytes);
  const encounterRef = (id: number) => {
    o.bytes(K.encounterRef);
    o.bytes(encounterPrefix);
    o.hex(id, 12);
    o.bytes(K.encounterRefEnd);
  };
  const entry = (prefix: Uint8Array, id: number, resourceType: string) => {
    o.bytes(K.fullUrl);
    o.bytes(prefix);
    o.hex(id, 12);
    o.bytes(ENTRY[resourceType].head);
  };
  const entryEnd = (resourceType: string) => o.bytes(ENTRY[resourceType].tail);

  o.lit('{"resourceType":"Bundle","id":"');
  o.bytes(prefixes.bundleId);
  o.hex(patient.id, 12);
  o.lit('","type":"transaction","entry":[{"fullUrl":"');
  o.bytes(prefixes.patient);
  o.hex(patient.id, 12);
  o.lit('","resource":');
  o.raw(JSON.stringify(fhirPatientOf(p)));
  o.lit(',"request":{"method":"POST","url":"Patient"}}');

  for (const e of patient.encounters) {
    entry(encounterPrefix, e.id, 'Encounter');
    narrativeText(o, e.typeDisplay);
    o.lit(' of ');
    o.bytes(nameText);
    o.lit(' on ');
    narrativeText(o, e.start.slice(0, 10));
    o.bytes(K.narrativeTail);
    o.lit(J.encounterIdentifierHead);
    o.raw(String(e.id));
    o.lit('"}],"status":"finished","class":');
    o.lit(J.encounterClass.get(e.classCode) ?? encounterClassJson(e.classCode));
    o.lit(',"type":[');
    o.lit(J.snomedConcept);
    conceptTail(o, e.typeCode, e.typeDisplay);
    o.lit(']');
    subject();
    o.lit(',"period":{"start":');
    o.string(e.start);
    o.lit(',"end":');
    o.string(e.end);
    o.lit('}');
    if (e.reasonCode && e.reasonDisplay) {
      o.lit(',"reasonCode":[');
      o.lit(J.snomedConcept);
      conceptTail(o, e.reasonCode, e.reasonDisplay);
      o.lit(']');
    }
    entryEnd('Encounter');
  }

  for (const c of patient.conditions) {
    entry(prefixes.condition, c.id, 'Condition');
    narrativeText(o, c.display);
    o.lit(' (');
    o.bytes(nameText);
    o.lit(')');
    o.bytes(K.narrativeTail);
    o.lit(',"clinicalStatus":');
    o.lit(c.clinicalStatus === 'active' ? J.conditionClinical.active : J.conditionClinical.resolved);
    o.lit(J.conditionStatusTail);
    o.string(c.snomed);
    o.lit(',"display":');
    o.string(c.display);
    o.lit(J.icd10cm);
    o.string(c.icd10);
    o.lit(',"display":');
    o.string(c.icd10Display);
    o.lit('}],"text":');
    o.string(c.display);
    o.lit('}');
    subject();
    encounterRef(c.encounterId);
    o.lit(',"onsetDateTime":');
    o.string(c.onsetDate);
    if (c.clinicalStatus === 'resolved') o.lit(',"abatementString":"resolved"');
    entryEnd('Condition');
  }

  for (const ob of patient.observations) {
    entry(prefixes.observation, ob.id, 'Observation');
    narrativeText(o, ob.display);
    o.lit(': ');
    narrativeText(o, ob.valueText);
    o.lit(' ');
    narrativeText(o, ob.ucum);
    o.lit(' (');
    o.bytes(nameText);
    o.lit(')');
    observationCodes[ob.category].append(o, ob.loinc, ob.display);
    subject();
    encounterRef(ob.encounterId);
    o.bytes(K.effective);
    o.string(ob.effective);
    o.bytes(K.valueQuantity);
    o.number(ob.value);
    quantityTail(o, ob);
    if (ob.interpretation) o.lit(J.interpretation[ob.interpretation]);
    if (ob.referenceLow !== null || ob.referenceHigh !== null) {
      o.lit(',"referenceRange":[{');
      if (ob.referenceLow !== null) {
        o.lit('"low":{"value":');
        o.number(ob.referenceLow);
        quantityTail(o, ob);
      }
      if (ob.referenceHigh !== null) {
        o.lit(ob.referenceLow !== null ? ',"high":{"value":' : '"high":{"value":');
        o.number(ob.referenceHigh);
        quantityTail(o, ob);
      }
      o.lit('}]');
    }
    entryEnd('Observation');
  }

  for (const m of patient.medications) {
    entry(prefixes.medication, m.id, 'MedicationRequest');
    narrativeText(o, m.display);
    o.lit(': ');
    narrativeText(o, m.sig);
    o.bytes(K.narrativeTail);
    o.lit(',"status":');
    o.string(m.status);
    o.lit(',"intent":"order","medicationCodeableConcept":');
    o.lit(J.rxnormConcept);
    conceptTail(o, m.rxnorm, m.display);
    subject();
    encounterRef(m.encounterId);
    o.lit(',"authoredOn":');
    o.string(m.authoredOn);
    o.lit(',"dosageInstruction":[{"sequence":1,"text":');
    o.string(m.sig);
    o.lit(',"timing":{"repeat":{"frequency":');
    o.number(m.perDay);
    o.lit(',"period":1,"periodUnit":"d"}}');
    o.lit(m.formCode === 'INHL' ? J.inhaledRoute : J.oralRoute);
    entryEnd('MedicationRequest');
  }

  for (const a of patient.allergies) {
    entry(prefixes.allergy, a.id, 'AllergyIntolerance');
    o.lit('Allergy to ');
    narrativeText(o, a.display.toLowerCase());
    o.lit(': ');
    narrativeText(o, a.reactionDisplay.toLowerCase());
    o.bytes(K.narrativeTail);
    o.lit(J.allergyStatus);
    o.string(a.category);
    o.lit('],"criticality":"');
    o.lit(a.severity === 'severe' ? 'high' : 'low');
    o.lit('"');
    o.lit(J.allergyCode[a.system]);
    conceptTail(o, a.code, a.display);
    o.lit(',"patient":{"reference":"');
    o.bytes(prefixes.patient);
    o.hex(patient.id, 12);
    o.lit('","display":');
    o.string(name);
    o.lit('},"recordedDate":');
    o.string(a.recordedDate);
    o.lit(',"reaction":[{"manifestation":[');
    o.lit(J.snomedConcept);
    conceptTail(o, a.reactionCode, a.reactionDisplay);
    o.lit('],"severity":');
    o.string(a.severity);
    o.lit('}]');
    entryEnd('AllergyIntolerance');
  }
  o.lit(']}');
}

/** The transaction Bundle of one patient as one line of JSON text: exactly `JSON.stringify(fhirBundleOf(patient, seed))`. */
export function fhirBundleJson(patient: PatientRecord, seed: number): string {
  const o = new JsonBytes(64 * 1024);
  writeFhirBundle(o, patient, uuidPrefixes(seed));
  return o.take().toString('utf8');
}

/** Opens `population.ndjson` (one Bundle per line) in `directory`. */
export function createFhirWriter(directory: string, seed: number, compress = false): PopulationWriter {
  const sink = new FileSink(join(directory, 'population.ndjson'), 'population.ndjson', 'application/fhir+ndjson', { compress });
  const prefixes = uuidPrefixes(seed);
  // Bundles are gathered into one buffer and handed to the file a chunk at a time.
  const out = new JsonBytes(OUTPUT_CHUNK_BYTES + 256 * 1024);
  // A chunk the file has written is given back and filled again.
  const written = (chunk: Buffer) => out.recycle(chunk);
  return {
    async write(patient) {
      sink.records++;
      writeFhirBundle(out, patient, prefixes);
      out.raw('\n');
      if (out.length >= OUTPUT_CHUNK_BYTES) await sink.writeBytes(out.take(), written);
    },
    async close() {
      if (out.length > 0) await sink.writeBytes(out.take());
      return [await sink.close()];
    },
    abort: () => sink.abort(),
  };
}
