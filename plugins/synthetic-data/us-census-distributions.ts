/**
 * Demographic distributions of the US population for drawing a census-like synthetic population: age by five-year
 * band with the female share of each band, state populations, and the race and Hispanic-origin shares of each state.
 *
 * Sources (public data, rounded): US Census Bureau, 2020 Census Demographic Profile (DP1) and Redistricting Data
 * (P.L. 94-171) for state populations, race alone and Hispanic or Latino origin; 2020 Census age and sex
 * composition brief (C2020BR-06) for the age pyramid and sex ratios. "Other" gathers Some Other Race and Two or More
 * Races, most of which are Hispanic respondents, as the CDC code 2131-1 (Other Race) does in HL7 and FHIR feeds.
 */

/** Age bands with their share of the whole population (percent) and the female share within the band (percent). */
export const US_AGE_BANDS: ReadonlyArray<{ minAge: number; maxAge: number; percent: number; femalePercent: number }> = [
  { minAge: 0, maxAge: 4, percent: 5.7, femalePercent: 48.9 },
  { minAge: 5, maxAge: 9, percent: 6.0, femalePercent: 48.9 },
  { minAge: 10, maxAge: 14, percent: 6.4, femalePercent: 48.9 },
  { minAge: 15, maxAge: 19, percent: 6.6, femalePercent: 48.8 },
  { minAge: 20, maxAge: 24, percent: 6.4, femalePercent: 48.9 },
  { minAge: 25, maxAge: 29, percent: 6.8, femalePercent: 49.2 },
  { minAge: 30, maxAge: 34, percent: 6.9, femalePercent: 49.6 },
  { minAge: 35, maxAge: 39, percent: 6.6, femalePercent: 50.0 },
  { minAge: 40, maxAge: 44, percent: 6.3, femalePercent: 50.2 },
  { minAge: 45, maxAge: 49, percent: 6.0, femalePercent: 50.4 },
  { minAge: 50, maxAge: 54, percent: 6.3, femalePercent: 50.7 },
  { minAge: 55, maxAge: 59, percent: 6.5, femalePercent: 51.2 },
  { minAge: 60, maxAge: 64, percent: 6.4, femalePercent: 52.0 },
  { minAge: 65, maxAge: 69, percent: 5.5, femalePercent: 53.0 },
  { minAge: 70, maxAge: 74, percent: 4.5, femalePercent: 54.0 },
  { minAge: 75, maxAge: 79, percent: 2.9, femalePercent: 55.5 },
  { minAge: 80, maxAge: 84, percent: 1.9, femalePercent: 58.5 },
  { minAge: 85, maxAge: 99, percent: 2.0, femalePercent: 63.5 },
];

/**
 * Per state: population in thousands (2020 Census), then the percent Hispanic or Latino (any race), Black, Asian,
 * American Indian or Alaska Native and Native Hawaiian or Other Pacific Islander (race alone).
 */
export type StateDemographicsRow = readonly [population: number, hispanic: number, black: number, asian: number, aian: number, nhpi: number];

/** The 50 states and DC. */
export const US_STATE_DEMOGRAPHICS: Readonly<Record<string, StateDemographicsRow>> = {
  AL: [5024, 5.3, 25.8, 1.5, 0.7, 0.1], AK: [733, 7.3, 3.0, 6.5, 14.8, 1.7], AZ: [7152, 30.7, 4.7, 3.7, 4.5, 0.2],
  AR: [3012, 8.5, 15.1, 1.7, 0.9, 0.4], CA: [39538, 39.4, 5.7, 15.5, 1.6, 0.4], CO: [5774, 21.9, 3.9, 3.5, 1.3, 0.2],
  CT: [3606, 17.3, 10.8, 4.8, 0.5, 0.0], DE: [990, 10.5, 22.1, 4.2, 0.5, 0.0], DC: [690, 11.3, 41.4, 4.8, 0.5, 0.1],
  FL: [21538, 26.5, 14.5, 3.0, 0.4, 0.1], GA: [10712, 10.5, 31.0, 4.5, 0.5, 0.1], HI: [1455, 10.7, 1.6, 37.2, 0.3, 10.8],
  ID: [1839, 13.0, 0.8, 1.5, 1.3, 0.2], IL: [12813, 18.2, 13.9, 6.0, 0.5, 0.0], IN: [6786, 8.2, 9.5, 2.6, 0.3, 0.0],
  IA: [3190, 6.8, 4.1, 2.5, 0.4, 0.2], KS: [2938, 13.0, 5.7, 3.0, 1.1, 0.1], KY: [4506, 4.6, 8.0, 1.6, 0.2, 0.1],
  LA: [4658, 6.9, 31.4, 1.8, 0.6, 0.0], ME: [1362, 2.0, 1.8, 1.2, 0.6, 0.0], MD: [6177, 11.8, 29.5, 6.8, 0.4, 0.0],
  MA: [7030, 12.6, 7.0, 7.2, 0.2, 0.0], MI: [10077, 5.6, 13.5, 3.3, 0.5, 0.0], MN: [5706, 6.1, 7.0, 5.2, 1.0, 0.0],
  MS: [2961, 3.6, 36.6, 1.0, 0.5, 0.0], MO: [6155, 5.1, 11.3, 2.2, 0.4, 0.2], MT: [1084, 4.5, 0.4, 0.8, 6.2, 0.1],
  NE: [1962, 12.0, 4.7, 2.7, 1.0, 0.1], NV: [3105, 28.7, 9.9, 8.7, 1.3, 0.8], NH: [1377, 4.3, 1.5, 2.6, 0.2, 0.0],
  NJ: [9289, 21.6, 12.4, 10.0, 0.4, 0.0], NM: [2118, 47.7, 2.1, 1.8, 10.0, 0.1], NY: [20201, 19.5, 14.8, 9.6, 0.6, 0.0],
  NC: [10439, 10.7, 20.5, 3.3, 1.2, 0.1], ND: [779, 4.3, 3.4, 1.7, 5.0, 0.1], OH: [11799, 4.4, 12.5, 2.5, 0.2, 0.0],
  OK: [3959, 11.9, 7.3, 2.3, 8.0, 0.2], OR: [4237, 14.4, 2.0, 4.6, 1.3, 0.5], PA: [13002, 8.1, 11.0, 3.9, 0.2, 0.0],
  RI: [1097, 16.6, 5.7, 3.6, 0.6, 0.0], SC: [5118, 6.9, 25.0, 1.8, 0.4, 0.1], SD: [887, 4.5, 2.0, 1.5, 8.8, 0.0],
  TN: [6911, 6.9, 15.8, 2.0, 0.3, 0.1], TX: [29146, 39.3, 12.1, 5.4, 0.7, 0.1], UT: [3272, 15.1, 1.2, 2.5, 1.0, 1.1],
  VT: [643, 2.4, 1.4, 1.8, 0.3, 0.0], VA: [8631, 10.5, 18.6, 7.1, 0.3, 0.1], WA: [7705, 13.7, 4.0, 9.5, 1.4, 0.8],
  WV: [1794, 1.9, 3.6, 0.8, 0.2, 0.0], WI: [5894, 7.6, 6.4, 3.0, 0.9, 0.0], WY: [577, 10.2, 0.9, 0.9, 2.4, 0.1],
};

/** Race shares (percent, summing to 100) keyed by CDC race code, and the Hispanic share, of one area. */
export interface AreaDemographics {
  /** USPS state codes the area covers. */
  states: readonly string[];
  /** Population of each state of the area, in thousands (draw weights). */
  stateWeights: readonly number[];
  racePercent: Readonly<Record<string, number>>;
  hispanicPercent: number;
}

function raceShares(row: StateDemographicsRow): Record<string, number> {
  const [, hispanic, black, asian, aian, nhpi] = row;
  // Most "some other race" and multiracial answers come from Hispanic respondents.
  const other = 0.4 * hispanic + 3;
  const white = Math.max(0, 100 - black - asian - aian - nhpi - other);
  return { '1002-5': aian, '2028-9': asian, '2054-5': black, '2076-8': nhpi, '2106-3': white, '2131-1': other };
}

/**
 * Demographics of an area: `us` (the nation, states weighted by population) or `us-XX` (one state). Returns
 * undefined for an unknown area.
 */
export function areaDemographics(area: string): AreaDemographics | undefined {
  const normalised = area.trim().toLowerCase();
  const states = normalised === 'us' ? Object.keys(US_STATE_DEMOGRAPHICS) : /^us-[a-z]{2}$/.test(normalised) ? [normalised.slice(3).toUpperCase()] : [];
  if (states.length === 0 || states.some((s) => !US_STATE_DEMOGRAPHICS[s])) return undefined;
  const rows = states.map((s) => US_STATE_DEMOGRAPHICS[s]);
  const total = rows.reduce((sum, row) => sum + row[0], 0);
  const racePercent: Record<string, number> = {};
  let hispanicPercent = 0;
  for (const row of rows) {
    const weight = row[0] / total;
    hispanicPercent += row[1] * weight;
    for (const [code, share] of Object.entries(raceShares(row))) racePercent[code] = (racePercent[code] ?? 0) + share * weight;
  }
  return { states, stateWeights: rows.map((row) => row[0]), racePercent, hispanicPercent };
}

/** Every area code `areaDemographics` accepts. */
export function knownAreas(): string[] {
  return ['us', ...Object.keys(US_STATE_DEMOGRAPHICS).map((s) => `us-${s.toLowerCase()}`)];
}
