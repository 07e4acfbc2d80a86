/**
 * Synthetic FHIR R4 resources: realistic and internally consistent (one synthetic patient per resource or per
 * Bundle, referenced by every clinical resource), never real (people and clinicians come from the synthetic-data
 * service), and reproducible: with a seed, ids, dates and values all derive from the seeded SyntheticRandom, so
 * the output is byte-identical on any machine and day. Output is pretty-printed JSON.
 */
import {
  ALLERGENS,
  ALLERGY_REACTIONS,
  allergenCode,
  BLOOD_PRESSURE,
  CODE_SYSTEM_URIS as SYSTEMS,
  CONDITIONS,
  ENCOUNTER_KINDS,
  fhirConcept as concept,
  fhirNarrative as narrative,
  fhirPatientOf,
  LAB_RESULTS,
  MEDICATIONS,
  type ObservationKind,
  type SyntheticClinician,
  type SyntheticDataService,
  type SyntheticPerson,
  SYNTHETIC_MR_SYSTEM,
  type SyntheticRandom,
  VACCINES,
  VITAL_SIGNS,
} from '../synthetic-data/api.ts';

/** Chronic conditions: the problem-list entries and encounter reasons the generator draws. */
const CHRONIC_CONDITIONS = CONDITIONS.filter((c) => c.course === 'chronic');

/** Resource types `generate` accepts; the first is the default. */
export const FHIR_MESSAGE_TYPES = [
  'Patient',
  'Encounter',
  'Observation',
  'Condition',
  'MedicationRequest',
  'AllergyIntolerance',
  'Immunization',
  'Bundle',
] as const;

/** One of {@link FHIR_MESSAGE_TYPES}. */
export type FhirMessageType = (typeof FHIR_MESSAGE_TYPES)[number];

type Json = Record<string, unknown>;

const MR_SYSTEM = SYNTHETIC_MR_SYSTEM;
const HOUR_MS = 3_600_000;

/** FHIR dateTime/instant at second precision, UTC. */
function dateTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

function coding(system: string, code: string, display: string): Json {
  return { system, code, display };
}

function fullName(person: SyntheticPerson): string {
  return `${person.givenName} ${person.familyName}`;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Context shared by the resources of one generated item (one patient, one clinician, one visit time). */
interface Scene {
  random: SyntheticRandom;
  person: SyntheticPerson;
  clinician: SyntheticClinician;
  patientId: string;
  /** How resources refer to the patient (`Patient/<id>` or a Bundle's `urn:uuid:`). */
  patientReference: string;
  encounterReference?: string;
  visit: Date;
}

/** Builds the generator over the synthetic-data service. */
export function createFhirGenerator(synthetic: SyntheticDataService) {
  function uuid(random: SyntheticRandom): string {
    return random.faker.string.uuid();
  }

  function between(random: SyntheticRandom, min: number, max: number, decimals: number): number {
    const steps = Math.round((max - min) * 10 ** decimals);
    return round(min + random.int(0, steps) / 10 ** decimals, decimals);
  }

  function subject(scene: Scene): Json {
    return { reference: scene.patientReference, display: fullName(scene.person) };
  }

  function clinicianReference(clinician: SyntheticClinician): Json {
    return {
      identifier: { system: SYSTEMS.npi, value: clinician.npi },
      display: `Dr. ${clinician.givenName} ${clinician.familyName}`,
    };
  }

  function patient(scene: Scene, withId: boolean): Json {
    const { resourceType, ...rest } = fhirPatientOf(scene.person);
    return { resourceType, ...(withId ? { id: scene.patientId } : {}), ...rest };
  }

  function encounter(scene: Scene, withId: boolean): Json {
    const kind = scene.random.pick(ENCOUNTER_KINDS);
    const end = new Date(scene.visit.getTime() + scene.random.int(kind.hours[0] * 60, kind.hours[1] * 60 + 45) * 60_000);
    const reason = scene.random.pick(CHRONIC_CONDITIONS);
    return {
      resourceType: 'Encounter',
      ...(withId ? { id: uuid(scene.random) } : {}),
      text: narrative(`${kind.type.display} of ${fullName(scene.person)} on ${dateTime(scene.visit).slice(0, 10)}`),
      identifier: [{ use: 'official', system: `${MR_SYSTEM}.2`, value: scene.person.accountNumber }],
      status: 'finished',
      class: coding(SYSTEMS.actCode, kind.class.code, kind.class.display),
      type: [concept(SYSTEMS.snomed, kind.type.code, kind.type.display)],
      subject: subject(scene),
      participant: [{ individual: clinicianReference(scene.clinician) }],
      period: { start: dateTime(scene.visit), end: dateTime(end) },
      reasonCode: [concept(SYSTEMS.snomed, reason.snomed, reason.display)],
    };
  }

  function interpretation(value: number, kind: { low?: number; high?: number }): Json | undefined {
    if (kind.low === undefined && kind.high === undefined) return undefined;
    const code = kind.low !== undefined && value < kind.low ? 'L' : kind.high !== undefined && value > kind.high ? 'H' : 'N';
    const display = code === 'L' ? 'Low' : code === 'H' ? 'High' : 'Normal';
    return concept(SYSTEMS.interpretation, code, display);
  }

  function quantity(value: number, unit: string, ucum: string): Json {
    return { value, unit, system: SYSTEMS.ucum, code: ucum };
  }

  function referenceRange(kind: { low?: number; high?: number }, unit: string, ucum: string): Json[] | undefined {
    if (kind.low === undefined && kind.high === undefined) return undefined;
    const range: Json = {};
    if (kind.low !== undefined) range.low = quantity(kind.low, unit, ucum);
    if (kind.high !== undefined) range.high = quantity(kind.high, unit, ucum);
    return [range];
  }

  function observationBase(scene: Scene, withId: boolean, category: 'vital-signs' | 'laboratory', code: Json, title: string): Json {
    return {
      resourceType: 'Observation',
      ...(withId ? { id: uuid(scene.random) } : {}),
      text: narrative(`${title} for ${fullName(scene.person)}`),
      status: 'final',
      category: [concept(SYSTEMS.observationCategory, category, category === 'vital-signs' ? 'Vital Signs' : 'Laboratory')],
      code,
      subject: subject(scene),
      ...(scene.encounterReference ? { encounter: { reference: scene.encounterReference } } : {}),
      effectiveDateTime: dateTime(scene.visit),
      issued: dateTime(new Date(scene.visit.getTime() + (category === 'laboratory' ? 4 : 0.25) * HOUR_MS)),
      performer: [clinicianReference(scene.clinician)],
    };
  }

  function quantityObservation(scene: Scene, withId: boolean, category: 'vital-signs' | 'laboratory', kind: ObservationKind): Json {
    const value = between(scene.random, kind.min, kind.max, kind.decimals);
    const flag = interpretation(value, kind);
    const range = referenceRange(kind, kind.unitDisplay, kind.ucum);
    return {
      ...observationBase(scene, withId, category, concept(SYSTEMS.loinc, kind.loinc, kind.display), kind.display),
      valueQuantity: quantity(value, kind.unitDisplay, kind.ucum),
      ...(flag ? { interpretation: [flag] } : {}),
      ...(range ? { referenceRange: range } : {}),
    };
  }

  function bloodPressure(scene: Scene, withId: boolean): Json {
    const component = (part: ObservationKind, value: number): Json => ({
      code: concept(SYSTEMS.loinc, part.loinc, part.display),
      valueQuantity: quantity(value, part.unitDisplay, part.ucum),
      interpretation: [interpretation(value, part) as Json],
      referenceRange: referenceRange(part, part.unitDisplay, part.ucum),
    });
    const systolic = scene.random.int(BLOOD_PRESSURE.systolic.min, BLOOD_PRESSURE.systolic.max);
    const diastolic = Math.min(scene.random.int(BLOOD_PRESSURE.diastolic.min, BLOOD_PRESSURE.diastolic.max), systolic - 25);
    return {
      ...observationBase(scene, withId, 'vital-signs', concept(SYSTEMS.loinc, BLOOD_PRESSURE.panel.code, BLOOD_PRESSURE.panel.display), 'Blood pressure'),
      component: [component(BLOOD_PRESSURE.systolic, systolic), component(BLOOD_PRESSURE.diastolic, diastolic)],
    };
  }

  function observation(scene: Scene, withId: boolean, kind?: 'vital' | 'lab'): Json {
    const pick = kind ?? scene.random.pick(['vital', 'vital', 'lab'] as const);
    if (pick === 'lab') return quantityObservation(scene, withId, 'laboratory', scene.random.pick(LAB_RESULTS));
    const index = scene.random.int(0, VITAL_SIGNS.length);
    return index === VITAL_SIGNS.length ? bloodPressure(scene, withId) : quantityObservation(scene, withId, 'vital-signs', VITAL_SIGNS[index]);
  }

  function condition(scene: Scene, withId: boolean): Json {
    const picked = scene.random.pick(CHRONIC_CONDITIONS);
    const onsetYearsAgo = scene.random.int(1, Math.max(1, Math.min(20, scene.person.ageYears - 18)));
    const onset = new Date(scene.visit.getTime() - onsetYearsAgo * 365 * 24 * HOUR_MS - scene.random.int(0, 300) * 24 * HOUR_MS);
    return {
      resourceType: 'Condition',
      ...(withId ? { id: uuid(scene.random) } : {}),
      text: narrative(`${picked.display} (${fullName(scene.person)})`),
      clinicalStatus: concept(SYSTEMS.conditionClinical, 'active', 'Active'),
      verificationStatus: concept(SYSTEMS.conditionVerification, 'confirmed', 'Confirmed'),
      category: [concept(SYSTEMS.conditionCategory, 'problem-list-item', 'Problem List Item')],
      code: concept(SYSTEMS.snomed, picked.snomed, picked.display),
      subject: subject(scene),
      ...(scene.encounterReference ? { encounter: { reference: scene.encounterReference } } : {}),
      onsetDateTime: dateTime(onset).slice(0, 10),
      recordedDate: dateTime(scene.visit),
      recorder: clinicianReference(scene.clinician),
    };
  }

  function medicationRequest(scene: Scene, withId: boolean): Json {
    const drug = scene.random.pick(MEDICATIONS);
    const days = scene.random.pick([30, 60, 90]);
    const doses = /^(Take|Inhale) 2/.test(drug.sig) ? 2 : 1;
    const doseUnit = drug.form.code === 'INHL' ? 'puff' : drug.form.display.toLowerCase();
    return {
      resourceType: 'MedicationRequest',
      ...(withId ? { id: uuid(scene.random) } : {}),
      text: narrative(`${drug.display}: ${drug.sig}`),
      status: 'active',
      intent: 'order',
      medicationCodeableConcept: concept(SYSTEMS.rxnorm, drug.rxnorm, drug.display),
      subject: subject(scene),
      ...(scene.encounterReference ? { encounter: { reference: scene.encounterReference } } : {}),
      authoredOn: dateTime(scene.visit),
      requester: clinicianReference(scene.clinician),
      dosageInstruction: [
        {
          sequence: 1,
          text: drug.sig,
          timing: { repeat: { frequency: drug.perDay, period: 1, periodUnit: 'd' } },
          route: drug.form.code === 'INHL' ? concept(SYSTEMS.snomed, '447694001', 'Respiratory tract route') : concept(SYSTEMS.snomed, '26643006', 'Oral route'),
          doseAndRate: [{ doseQuantity: { value: doses, unit: doseUnit, system: 'http://terminology.hl7.org/CodeSystem/v3-orderableDrugForm', code: drug.form.code } }],
        },
      ],
      dispenseRequest: {
        numberOfRepeatsAllowed: scene.random.int(0, 5),
        quantity: { value: days * drug.perDay * doses, unit: doseUnit, system: 'http://terminology.hl7.org/CodeSystem/v3-orderableDrugForm', code: drug.form.code },
        expectedSupplyDuration: { value: days, unit: 'days', system: SYSTEMS.ucum, code: 'd' },
      },
    };
  }

  function allergyIntolerance(scene: Scene, withId: boolean): Json {
    const allergen = scene.random.pick(ALLERGENS);
    const reaction = scene.random.pick(ALLERGY_REACTIONS);
    const substance = allergenCode(allergen);
    const onset = new Date(scene.visit.getTime() - scene.random.int(30, 3000) * 24 * HOUR_MS);
    return {
      resourceType: 'AllergyIntolerance',
      ...(withId ? { id: uuid(scene.random) } : {}),
      text: narrative(`Allergy to ${allergen.display.toLowerCase()}: ${reaction.display.toLowerCase()}`),
      clinicalStatus: concept(SYSTEMS.allergyClinical, 'active', 'Active'),
      verificationStatus: concept(SYSTEMS.allergyVerification, 'confirmed', 'Confirmed'),
      type: 'allergy',
      category: [allergen.category],
      criticality: reaction.severity === 'severe' ? 'high' : 'low',
      code: concept(SYSTEMS[substance.system], substance.code, allergen.display),
      patient: subject(scene),
      onsetDateTime: dateTime(onset).slice(0, 10),
      recordedDate: dateTime(scene.visit),
      recorder: clinicianReference(scene.clinician),
      reaction: [{ manifestation: [concept(SYSTEMS.snomed, reaction.code, reaction.display)], severity: reaction.severity }],
    };
  }

  function immunization(scene: Scene, withId: boolean): Json {
    const vaccine = scene.random.pick(VACCINES);
    const given = new Date(scene.visit.getTime() - scene.random.int(0, 365) * 24 * HOUR_MS);
    const expiration = new Date(given.getTime() + scene.random.int(120, 540) * 24 * HOUR_MS);
    return {
      resourceType: 'Immunization',
      ...(withId ? { id: uuid(scene.random) } : {}),
      text: narrative(`${vaccine.display} given to ${fullName(scene.person)}`),
      status: 'completed',
      vaccineCode: concept(SYSTEMS.cvx, vaccine.cvx, vaccine.display),
      patient: subject(scene),
      occurrenceDateTime: dateTime(given),
      primarySource: true,
      lotNumber: `${scene.random.faker.string.alpha({ length: 2, casing: 'upper' })}${scene.random.int(1000, 9999)}`,
      expirationDate: dateTime(expiration).slice(0, 10),
      site: scene.random.pick([concept(SYSTEMS.actSite, 'LA', 'left arm'), concept(SYSTEMS.actSite, 'RA', 'right arm')]),
      route: concept(SYSTEMS.routeOfAdministration, 'IM', 'Injection, intramuscular'),
      doseQuantity: quantity(0.5, 'mL', 'mL'),
    };
  }

  function transactionBundle(scene: Scene): Json {
    const entries: Json[] = [];
    const add = (resource: Json, fullUrl: string): void => {
      entries.push({ fullUrl, resource, request: { method: 'POST', url: resource.resourceType } });
    };
    add(patient(scene, false), scene.patientReference);
    const encounterUrl = `urn:uuid:${uuid(scene.random)}`;
    add(encounter(scene, false), encounterUrl);
    const clinical: Scene = { ...scene, encounterReference: encounterUrl };
    const more: Json[] = [
      observation(clinical, false, 'vital'),
      observation(clinical, false, 'vital'),
      observation(clinical, false, 'lab'),
      condition(clinical, false),
      medicationRequest(clinical, false),
      allergyIntolerance(clinical, false),
      immunization(clinical, false),
    ];
    for (const resource of more) add(resource, `urn:uuid:${uuid(scene.random)}`);
    return { resourceType: 'Bundle', id: uuid(scene.random), type: 'transaction', entry: entries };
  }

  function scene(random: SyntheticRandom, inBundle: boolean): Scene {
    const person = random.person({ minAge: 18, maxAge: 90 });
    const clinician = random.clinician();
    const patientId = uuid(random);
    const visit = random.recentDate(120);
    visit.setUTCSeconds(0, 0);
    return {
      random,
      person,
      clinician,
      patientId,
      patientReference: inBundle ? `urn:uuid:${patientId}` : `Patient/${patientId}`,
      visit,
    };
  }

  const builders: Record<FhirMessageType, (s: Scene) => Json> = {
    Patient: (s) => patient(s, true),
    Encounter: (s) => encounter(s, true),
    Observation: (s) => observation(s, true),
    Condition: (s) => condition(s, true),
    MedicationRequest: (s) => medicationRequest(s, true),
    AllergyIntolerance: (s) => allergyIntolerance(s, true),
    Immunization: (s) => immunization(s, true),
    Bundle: (s) => transactionBundle(s),
  };

  return {
    /** Generates `count` resources of one type (validated by the adapter) as pretty JSON strings. */
    generate(messageType: FhirMessageType, count: number, seed?: number): string[] {
      const random = synthetic.createRandom(seed);
      const out: string[] = [];
      for (let i = 0; i < count; i++) {
        out.push(JSON.stringify(builders[messageType](scene(random, messageType === 'Bundle')), null, 2));
      }
      return out;
    },
  };
}
