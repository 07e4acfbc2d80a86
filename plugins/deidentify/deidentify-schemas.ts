/** Request and response schemas of POST /api/deidentify (they also feed the bridge's OpenAPI document). */
import { z } from 'zod';
import { IDENTIFIER_KINDS } from './replacement/pseudonyms.ts';

/** Body of POST /api/deidentify. */
export const deidentifyBodySchema = z
  .object({
    messageContent: z
      .union([
        z.string().min(1, 'messageContent is required and must not be empty'),
        z.record(z.string(), z.unknown()).describe('a FHIR resource as a JSON object'),
      ])
      .describe('the message text (HL7 v2, FHIR JSON, NCPDP SCRIPT XML or Telecommunication D.0), or a FHIR resource as a JSON object'),
    standard: z
      .enum(['hl7', 'fhir', 'ncpdp', 'HL7', 'FHIR', 'NCPDP'])
      .optional()
      .describe('hl7, fhir or ncpdp; detected from the content when omitted'),
  })
  .strict();

const kindSchema = z.enum(IDENTIFIER_KINDS);

/** The report: replacements by kind and path, never values. */
export const deidentificationReportSchema = z.object({
  replacements: z.array(z.object({ path: z.string(), kind: kindSchema, count: z.number().int().min(1) })),
  byKind: z.record(z.string(), z.number().int()),
  total: z.number().int().min(0),
  notes: z.array(z.string()),
  redacted: z.array(z.string()).describe('paths whose unclassifiable values were replaced by same-shape placeholders (mark them safe in plugins.deidentify.safePaths)'),
});

/** `data` of POST /api/deidentify. */
export const deidentifyResultSchema = z.object({
  standard: z.enum(['hl7', 'fhir', 'ncpdp']),
  messageContent: z.string().describe('the de-identified message, in the same standard and layout'),
  report: deidentificationReportSchema,
});
