/**
 * Generates coherent synthetic patients one at a time: census-like demographics for the chosen area, then a record
 * that fits the person's age and sex: chronic conditions drawn by their prevalence in the person's age band and sex,
 * encounters over the last three years (more for the old and the chronically ill), vital signs in age-appropriate
 * ranges, laboratory results shifted by the conditions they monitor, medications that treat the conditions, and
 * allergies. One seeded source drives every draw in a fixed order, so the same seed gives the same population.
 */
import {
  ALLERGENS,
  ALLERGY_REACTIONS,
  allergenCode,
  BLOOD_PRESSURE,
  type CensusPersonSource,
  CONDITIONS,
  type ConditionConcept,
  conditionPrevalence,
  createCensusPersonSource,
  ENCOUNTER_KINDS,
  LAB_PANELS,
  medicationsFor,
  MEDICATIONS,
  PREVALENCE_AGE_BANDS,
  type ObservationKind,
  SINGLE_LAB_TESTS,
  type SyntheticRandom,
  VITAL_SIGNS,
} from '../../synthetic-data/api.ts';
import { isoDateOf, isoInstantOf, msOfIsoDate, ONE_DAY_MS } from './calendar-format.ts';
import type {
  AllergyRecord,
  ConditionRecord,
  EncounterRecord,
  MedicationRecord,
  ObservationRecord,
  PatientRecord,
  RecordCounters,
} from './patient-record.ts';

/** A stream of patients for one population. */
export interface PatientGenerator {
  /** The area's demographics the people follow. */
  readonly source: CensusPersonSource;
  /** The next patient (1-based ids continue across calls). */
  next(): PatientRecord;
}

const vital = (loinc: string): ObservationKind => {
  const kind = VITAL_SIGNS.find((k) => k.loinc === loinc);
  if (!kind) throw new Error(`Vital sign ${loinc} is missing from the vocabulary.`);
  return kind;
};
const HEIGHT = vital('8302-2');
const WEIGHT = vital('29463-7');
const HEART_RATE = vital('8867-4');
const RESPIRATORY_RATE = vital('9279-1');
const TEMPERATURE = vital('8310-5');
const OXYGEN_SATURATION = vital('2708-6');
const BMI = vital('39156-5');
const HBA1C = SINGLE_LAB_TESTS[0];
const CHOLESTEROL = SINGLE_LAB_TESTS[1];
const BASIC_METABOLIC = LAB_PANELS[0];
const BLOOD_COUNT = LAB_PANELS[1];
const DIABETES = '44054006';
const HYPERTENSION = '38341003';
const HYPERLIPIDEMIA = '55822004';
const COPD = '13645005';
const CHECK_UP = ENCOUNTER_KINDS[0];
const IBUPROFEN = MEDICATIONS.find((m) => m.treats.length === 0);
const REACTION_WEIGHTS = [45, 35, 15, 5];

/** Mean height (cm) by age and sex: CDC growth-chart medians, rounded, joined to adult means (NHANES). */
function meanHeight(age: number, sex: 'F' | 'M'): number {
  if (age === 0) return 62;
  if (age === 1) return 80;
  if (age <= 12) return 86 + (age - 2) * 6;
  if (sex === 'F') return Math.min(162, 146 + (age - 12) * 4);
  return Math.min(176, 146 + (age - 12) * 6.5);
}

/** Youngest age a chronic condition plausibly starts at: the first age band where at least 1% have it. */
function onsetAge(condition: ConditionConcept, sex: 'F' | 'M', age: number): number {
  const shares = condition.prevalence[sex];
  let band = shares.findIndex((share) => share >= 1);
  if (band < 0) band = Math.max(0, shares.findIndex((share) => share > 0));
  return Math.min(age, PREVALENCE_AGE_BANDS[band].minAge);
}

/** Draws an index with integer-scaled weights. */
function weightedIndex(random: SyntheticRandom, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let point = (random.int(0, 999_999) / 1_000_000) * total;
  for (let i = 0; i < weights.length; i++) {
    point -= weights[i];
    if (point < 0) return i;
  }
  return weights.length - 1;
}

/** A value in [min, max] with `decimals` digits. */
function between(random: SyntheticRandom, min: number, max: number, decimals: number): number {
  const scale = 10 ** decimals;
  return random.int(Math.round(min * scale), Math.round(max * scale)) / scale;
}

/** Creates the generator of one population. Throws for an unknown area (callers validate first). */
export function createPatientGenerator(random: SyntheticRandom, area: string): PatientGenerator {
  const source = createCensusPersonSource(area);
  if (!source) throw new Error(`Unknown area "${area}".`);
  const reference = random.referenceDate.getTime();
  const midnight = reference - (reference % ONE_DAY_MS);
  const counters: RecordCounters = { encounter: 0, condition: 0, observation: 0, medication: 0, allergy: 0 };
  let patients = 0;

  function observation(
    encounter: EncounterRecord,
    kind: ObservationKind,
    category: ObservationRecord['category'],
    value: number,
    adultRange: boolean,
  ): ObservationRecord {
    const low = adultRange ? (kind.low ?? null) : null;
    const high = adultRange ? (kind.high ?? null) : null;
    const interpretation = low === null && high === null ? null : low !== null && value < low ? 'L' : high !== null && value > high ? 'H' : 'N';
    return {
      id: ++counters.observation,
      encounterId: encounter.id,
      loinc: kind.loinc,
      display: kind.display,
      category,
      value,
      valueText: value.toFixed(kind.decimals),
      ucum: kind.ucum,
      unitDisplay: kind.unitDisplay,
      referenceLow: low,
      referenceHigh: high,
      interpretation,
      effective: encounter.start,
    };
  }

  /**
   * Vital signs of an encounter, as charted: the full set at a check-up, weight, heart rate and blood pressure at a
   * follow-up, the acute set (no height, weight or BMI) in the emergency room or on admission.
   */
  function vitals(encounter: EncounterRecord, age: number, sex: 'F' | 'M', has: Set<string>, out: ObservationRecord[]): void {
    const adult = age >= 18;
    const checkUp = encounter.typeCode === CHECK_UP.type.code;
    const followUp = encounter.patientClass === 'O' && !checkUp;
    const acute = encounter.patientClass !== 'O';
    const height = Math.max(45, meanHeight(age, sex) + random.int(-8, 8));
    const bmi = adult ? between(random, 19, has.has(DIABETES) ? 38 : 33, 1) : between(random, 14.5, 21, 1);
    const weight = Math.round(bmi * (height / 100) ** 2 * 10) / 10;
    if (checkUp) out.push(observation(encounter, HEIGHT, 'vital-signs', height, adult));
    if (!acute) out.push(observation(encounter, WEIGHT, 'vital-signs', weight, adult));
    if (checkUp && age >= 2) out.push(observation(encounter, BMI, 'vital-signs', bmi, adult));
    const [hrLow, hrHigh] = age < 1 ? [100, 160] : age < 6 ? [80, 130] : age < 12 ? [70, 110] : [58, 102];
    out.push(observation(encounter, HEART_RATE, 'vital-signs', random.int(hrLow, hrHigh), adult));
    if (!followUp) {
      const [rrLow, rrHigh] = age < 1 ? [30, 50] : age < 6 ? [22, 34] : age < 12 ? [18, 26] : [12, 20];
      out.push(observation(encounter, RESPIRATORY_RATE, 'vital-signs', random.int(rrLow, rrHigh), adult));
      const fever = acute && random.int(1, 5) === 1;
      out.push(observation(encounter, TEMPERATURE, 'vital-signs', fever ? between(random, 37.8, 39.4, 1) : between(random, 36.1, 37.2, 1), true));
      out.push(observation(encounter, OXYGEN_SATURATION, 'vital-signs', has.has(COPD) ? random.int(89, 96) : random.int(95, 100), true));
    }
    if (age >= 3) {
      const hypertensive = has.has(HYPERTENSION);
      const systolic = adult ? (hypertensive ? random.int(128, 165) : random.int(102, 134)) : random.int(90, 116);
      const diastolic = Math.min(systolic - 25, adult ? (hypertensive ? random.int(80, 100) : random.int(62, 84)) : random.int(52, 74));
      out.push(observation(encounter, BLOOD_PRESSURE.systolic, 'vital-signs', systolic, adult));
      out.push(observation(encounter, BLOOD_PRESSURE.diastolic, 'vital-signs', diastolic, adult));
    }
  }

  function labs(encounter: EncounterRecord, age: number, has: Set<string>, out: ObservationRecord[]): void {
    const acute = encounter.patientClass !== 'O';
    if (acute) {
      for (const kind of [...BASIC_METABOLIC.members, ...BLOOD_COUNT.members]) {
        const diabeticGlucose = kind.loinc === '2345-7' && has.has(DIABETES);
        const value = diabeticGlucose ? between(random, 110, 240, 0) : between(random, kind.min, kind.max, kind.decimals);
        out.push(observation(encounter, kind, 'laboratory', value, true));
      }
    }
    if (has.has(DIABETES) && !acute) out.push(observation(encounter, HBA1C, 'laboratory', between(random, 6.5, 9.8, 1), true));
    if (age >= 20 && encounter.typeCode === CHECK_UP.type.code && random.int(1, 2) === 1) {
      const value = has.has(HYPERLIPIDEMIA) ? between(random, 205, 285, 0) : between(random, 135, 215, 0);
      out.push(observation(encounter, CHOLESTEROL, 'laboratory', value, true));
    }
  }

  return {
    source,
    next(): PatientRecord {
      const id = ++patients;
      const person = source.person(random, id - 1);
      const age = person.ageYears;
      const sex = person.sex;
      const born = msOfIsoDate(person.birthDate);
      const daysAlive = Math.max(1, Math.floor((reference - born) / ONE_DAY_MS));

      // Conditions the person has, by prevalence in their age band and sex.
      const drawn: ConditionConcept[] = [];
      for (const condition of CONDITIONS) {
        if (random.int(0, 99_999) < conditionPrevalence(condition, sex, age) * 1000) drawn.push(condition);
      }
      const has = new Set(drawn.map((c) => c.snomed));
      const chronic = drawn.filter((c) => c.course === 'chronic').length;

      // Encounters over the last three years (never before birth), oldest first.
      const base = age < 2 ? random.int(3, 6) : age < 18 ? random.int(1, 3) : age < 65 ? random.int(1, 4) : random.int(2, 6);
      const encounterCount = Math.min(8, base + Math.floor(chronic / 2));
      const window = Math.min(3 * 365, daysAlive);
      const starts: number[] = [];
      for (let i = 0; i < encounterCount; i++) {
        // A visit in office hours on one of the days since birth, within the last three years.
        starts.push(midnight - random.int(1, window) * ONE_DAY_MS + random.int(8 * 60, 17 * 60) * 60_000);
      }
      starts.sort((a, b) => a - b);
      const encounters: EncounterRecord[] = starts.map((start, index) => {
        const kind = index === 0 ? CHECK_UP : ENCOUNTER_KINDS[weightedIndex(random, ENCOUNTER_KINDS.map((k) => k.weight))];
        const minutes = random.int(kind.hours[0] * 60 + 15, kind.hours[1] * 60 + 45);
        const reason = kind === CHECK_UP || drawn.length === 0 ? null : drawn[random.int(0, drawn.length - 1)];
        return {
          id: ++counters.encounter,
          classCode: kind.class.code,
          patientClass: kind.patientClass,
          typeCode: kind.type.code,
          typeDisplay: kind.type.display,
          start: isoInstantOf(start),
          end: isoInstantOf(Math.min(start + minutes * 60_000, reference)),
          reasonCode: reason?.snomed ?? null,
          reasonDisplay: reason?.display ?? null,
        };
      });

      // Each condition is recorded at one encounter: acute ones at a recent visit, chronic ones at the first.
      const conditions: ConditionRecord[] = drawn.map((c) => {
        const encounter = c.course === 'acute' ? encounters[random.int(0, encounters.length - 1)] : encounters[0];
        const encounterMs = Date.parse(encounter.start);
        // A chronic condition starts at an age where it occurs: from the first age band where it is common.
        const earliest = Math.max(born, born + onsetAge(c, sex, age) * 365.25 * ONE_DAY_MS);
        const onsetMs =
          c.course === 'acute'
            ? encounterMs - random.int(0, 3) * ONE_DAY_MS
            : earliest >= encounterMs
              ? encounterMs
              : encounterMs - random.int(0, Math.floor((encounterMs - earliest) / ONE_DAY_MS)) * ONE_DAY_MS;
        return {
          id: ++counters.condition,
          encounterId: encounter.id,
          snomed: c.snomed,
          icd10: c.icd10,
          display: c.display,
          icd10Display: c.icd10Display,
          onsetDate: isoDateOf(Math.max(born, onsetMs)),
          clinicalStatus: c.course === 'chronic' || reference - encounterMs < 30 * ONE_DAY_MS ? 'active' : 'resolved',
        };
      });

      const observations: ObservationRecord[] = [];
      for (const encounter of encounters) {
        vitals(encounter, age, sex, has, observations);
        labs(encounter, age, has, observations);
      }

      // Medications that treat the conditions; an antibiotic course is completed once the infection resolved.
      const medications: MedicationRecord[] = [];
      for (const condition of conditions) {
        const choices = medicationsFor(condition.snomed, age);
        if (choices.length === 0 || random.int(1, 100) > 85) continue;
        const drug = choices[random.int(0, choices.length - 1)];
        const encounter = encounters.find((e) => e.id === condition.encounterId) ?? encounters[0];
        medications.push({
          id: ++counters.medication,
          encounterId: encounter.id,
          rxnorm: drug.rxnorm,
          display: drug.display,
          sig: drug.sig,
          formCode: drug.form.code,
          perDay: drug.perDay,
          status: condition.clinicalStatus === 'active' ? 'active' : 'completed',
          authoredOn: encounter.start,
          reasonSnomed: condition.snomed,
        });
      }
      if (IBUPROFEN && age >= IBUPROFEN.minAge && random.int(1, 100) <= 5) {
        const encounter = encounters[encounters.length - 1];
        medications.push({
          id: ++counters.medication,
          encounterId: encounter.id,
          rxnorm: IBUPROFEN.rxnorm,
          display: IBUPROFEN.display,
          sig: IBUPROFEN.sig,
          formCode: IBUPROFEN.form.code,
          perDay: IBUPROFEN.perDay,
          status: 'active',
          authoredOn: encounter.start,
          reasonSnomed: null,
        });
      }

      // Allergies: about one person in five records one; food allergies are commoner in children.
      const allergies: AllergyRecord[] = [];
      const allergyCount = random.int(1, 100) <= 18 ? (random.int(1, 100) <= 20 ? 2 : 1) : 0;
      const weights = ALLERGENS.map((a) => a.weight * (a.category === 'food' && age < 18 ? 3 : a.category === 'medication' && age < 18 ? 0.5 : 1));
      const chosen = new Set<number>();
      for (let i = 0; i < allergyCount; i++) {
        const index = weightedIndex(random, weights);
        if (chosen.has(index)) continue;
        chosen.add(index);
        const allergen = ALLERGENS[index];
        const reaction = ALLERGY_REACTIONS[weightedIndex(random, REACTION_WEIGHTS)];
        const { code, system } = allergenCode(allergen);
        allergies.push({
          id: ++counters.allergy,
          system,
          code,
          display: allergen.display,
          category: allergen.category,
          reaction: allergen.reaction,
          reactionCode: reaction.code,
          reactionDisplay: reaction.display,
          severity: reaction.severity,
          recordedDate: isoDateOf(reference - random.int(0, daysAlive - 1) * ONE_DAY_MS),
        });
      }
      return { id, person, encounters, conditions, observations, medications, allergies };
    },
  };
}
