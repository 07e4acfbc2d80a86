/**
 * CDC Race & Ethnicity code set (PHIN VADS, OID 2.16.840.1.113883.6.238) top-level concepts, as HL7 v2 (table 0005 /
 * 0189 in US guides) and US Core use them.
 */

/** A coded concept with its display text. */
export interface CodedConcept {
  code: string;
  display: string;
}

/** The five OMB race categories plus "Other Race". */
export const CDC_RACES: readonly CodedConcept[] = [
  { code: '1002-5', display: 'American Indian or Alaska Native' },
  { code: '2028-9', display: 'Asian' },
  { code: '2054-5', display: 'Black or African American' },
  { code: '2076-8', display: 'Native Hawaiian or Other Pacific Islander' },
  { code: '2106-3', display: 'White' },
  { code: '2131-1', display: 'Other Race' },
];

/** The two OMB ethnicity categories. */
export const CDC_ETHNICITIES: readonly CodedConcept[] = [
  { code: '2135-2', display: 'Hispanic or Latino' },
  { code: '2186-5', display: 'Not Hispanic or Latino' },
];

/**
 * Rough US population shares (Census 2020, rounded) used as draw weights, so a generated population looks like a
 * plausible US one rather than a uniform mix.
 */
export const CDC_RACE_WEIGHTS: Readonly<Record<string, number>> = {
  '1002-5': 1,
  '2028-9': 6,
  '2054-5': 13,
  '2076-8': 1,
  '2106-3': 70,
  '2131-1': 9,
};

/** Share of Hispanic or Latino ethnicity (percent). */
export const HISPANIC_SHARE_PERCENT = 19;
