/** The JSON shape of a finding's place in a message's text ({@link FindingPosition}), for the routes that answer it. */
import { z } from 'zod';

/** Where a finding is in the raw text (fields a standard has no notion of are null). */
export const findingPositionSchema = z.object({
  segmentIndex: z.number().int().nullable(),
  segment: z.string().nullable(),
  field: z.number().int().nullable(),
  repetition: z.number().int().nullable(),
  component: z.number().int().nullable(),
  subcomponent: z.number().int().nullable(),
  /** JSON and XML: the element path located (the element, or its nearest present parent). */
  element: z.string().nullable(),
  /** Character range [start, end) in the text (UTF-16 code units, as JavaScript indexes strings). */
  start: z.number().int(),
  end: z.number().int(),
  /** False when the element is absent and the range is where it would be. */
  exact: z.boolean(),
});
