/**
 * Typed access to the US place data: a city, its state, ZIP and county, and the state's area codes.
 */
import { US_PLACE_ROWS, US_STATE_AREA_CODES } from './us-places-data.ts';

/** A real city with its USPS state code, a ZIP of that city and its county. */
export interface UsPlace {
  city: string;
  state: string;
  zip: string;
  county: string;
}

/** Every known place, as objects (built once: the data is immutable). */
export const US_PLACES: readonly UsPlace[] = US_PLACE_ROWS.map(([city, state, zip, county]) => ({
  city,
  state,
  zip,
  county,
}));

/** Area codes of a state; throws for a state the data does not know, which would be a data bug. */
export function areaCodesOfState(state: string): readonly string[] {
  const codes = US_STATE_AREA_CODES[state];
  if (!codes) throw new Error(`No area codes are known for state "${state}".`);
  return codes;
}
