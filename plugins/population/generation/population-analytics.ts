/**
 * Distributions of a generated population beside the targets it was drawn from: the age pyramid, sex, race,
 * Hispanic origin and states of the area's census figures, and the prevalence each condition should have given the
 * ages and sexes actually drawn. Counted as patients are written, so it costs no second pass.
 */
import {
  type AreaDemographics,
  CDC_RACES,
  conditionPrevalence,
  CONDITIONS,
  US_AGE_BANDS,
} from '../../synthetic-data/api.ts';
import type { PatientRecord } from './patient-record.ts';

/** One category of a distribution: observed count and share beside its target share. */
export interface DistributionEntry {
  key: string;
  label: string;
  count: number;
  percent: number;
  targetPercent: number;
  /** percent - targetPercent, in percentage points. */
  difference: number;
}

/** Every distribution of a population. */
export interface PopulationAnalytics {
  patients: number;
  rows: Record<string, number>;
  agePyramid: DistributionEntry[];
  sex: DistributionEntry[];
  race: DistributionEntry[];
  ethnicity: DistributionEntry[];
  states: DistributionEntry[];
  conditionPrevalence: DistributionEntry[];
  /** Largest absolute difference in each distribution, in percentage points. */
  largestDifference: Record<string, number>;
}

const round = (value: number) => Math.round(value * 100) / 100;

function entries(counts: Map<string, number>, labels: Map<string, string>, targets: Map<string, number>, total: number): DistributionEntry[] {
  return [...labels.keys()].map((key) => {
    const count = counts.get(key) ?? 0;
    const percent = total === 0 ? 0 : (count / total) * 100;
    const targetPercent = targets.get(key) ?? 0;
    return { key, label: labels.get(key) ?? key, count, percent: round(percent), targetPercent: round(targetPercent), difference: round(percent - targetPercent) };
  });
}

/** Counts patients as they are generated and reports the distributions. */
export class AnalyticsAccumulator {
  private patients = 0;
  private readonly ageBands = new Map<string, number>();
  private readonly sexes = new Map<string, number>();
  private readonly races = new Map<string, number>();
  private readonly ethnicities = new Map<string, number>();
  private readonly states = new Map<string, number>();
  private readonly conditions = new Map<string, number>();
  private readonly expectedConditions = new Map<string, number>();
  private readonly rows: Record<string, number> = {};

  constructor(private readonly demographics: AreaDemographics) {}

  private static bump(map: Map<string, number>, key: string, by = 1): void {
    map.set(key, (map.get(key) ?? 0) + by);
  }

  /** Adds one patient. */
  add(patient: PatientRecord): void {
    const p = patient.person;
    this.patients++;
    const band = US_AGE_BANDS.find((b) => p.ageYears >= b.minAge && p.ageYears <= b.maxAge) ?? US_AGE_BANDS[US_AGE_BANDS.length - 1];
    AnalyticsAccumulator.bump(this.ageBands, `${band.minAge}-${band.maxAge}`);
    AnalyticsAccumulator.bump(this.sexes, p.sex);
    AnalyticsAccumulator.bump(this.races, p.race.code);
    AnalyticsAccumulator.bump(this.ethnicities, p.ethnicity.code);
    AnalyticsAccumulator.bump(this.states, p.address.state);
    for (const c of new Set(patient.conditions.map((c) => c.snomed))) AnalyticsAccumulator.bump(this.conditions, c);
    for (const c of CONDITIONS) AnalyticsAccumulator.bump(this.expectedConditions, c.snomed, conditionPrevalence(c, p.sex, p.ageYears));
    const counts: Array<[string, number]> = [
      ['patients', 1],
      ['encounters', patient.encounters.length],
      ['conditions', patient.conditions.length],
      ['observations', patient.observations.length],
      ['medications', patient.medications.length],
      ['allergies', patient.allergies.length],
    ];
    for (const [table, n] of counts) this.rows[table] = (this.rows[table] ?? 0) + n;
  }

  /** Rows written per table so far. */
  rowCounts(): Record<string, number> {
    return { ...this.rows };
  }

  /** The distributions beside their targets. */
  report(): PopulationAnalytics {
    const n = this.patients;
    const d = this.demographics;
    const bandTotal = US_AGE_BANDS.reduce((sum, b) => sum + b.percent, 0);
    const female = US_AGE_BANDS.reduce((sum, b) => sum + (b.percent / bandTotal) * b.femalePercent, 0);
    const stateTotal = d.stateWeights.reduce((a, b) => a + b, 0);
    const agePyramid = entries(
      this.ageBands,
      new Map(US_AGE_BANDS.map((b) => [`${b.minAge}-${b.maxAge}`, b.maxAge >= 99 ? `${b.minAge}+` : `${b.minAge}-${b.maxAge}`])),
      new Map(US_AGE_BANDS.map((b) => [`${b.minAge}-${b.maxAge}`, (b.percent / bandTotal) * 100])),
      n,
    );
    const sex = entries(this.sexes, new Map([['F', 'Female'], ['M', 'Male']]), new Map([['F', female], ['M', 100 - female]]), n);
    const race = entries(this.races, new Map(CDC_RACES.map((r) => [r.code, r.display])), new Map(Object.entries(d.racePercent)), n);
    const ethnicity = entries(
      this.ethnicities,
      new Map([['2135-2', 'Hispanic or Latino'], ['2186-5', 'Not Hispanic or Latino']]),
      new Map([['2135-2', d.hispanicPercent], ['2186-5', 100 - d.hispanicPercent]]),
      n,
    );
    const states = entries(
      this.states,
      new Map(d.states.map((s) => [s, s])),
      new Map(d.states.map((s, i) => [s, (d.stateWeights[i] / stateTotal) * 100])),
      n,
    );
    const conditionPrevalenceEntries = entries(
      this.conditions,
      new Map(CONDITIONS.map((c) => [c.snomed, c.display])),
      new Map(CONDITIONS.map((c) => [c.snomed, n === 0 ? 0 : (this.expectedConditions.get(c.snomed) ?? 0) / n])),
      n,
    );
    const largest = (list: DistributionEntry[]) => round(Math.max(0, ...list.map((e) => Math.abs(e.difference))));
    return {
      patients: n,
      rows: this.rowCounts(),
      agePyramid,
      sex,
      race,
      ethnicity,
      states,
      conditionPrevalence: conditionPrevalenceEntries,
      largestDifference: {
        agePyramid: largest(agePyramid),
        sex: largest(sex),
        race: largest(race),
        ethnicity: largest(ethnicity),
        states: largest(states),
        conditionPrevalence: largest(conditionPrevalenceEntries),
      },
    };
  }
}
