/** Query and answer of GET /api/lookup (the field lookup), on the bridge and monitor bases. */
import { z } from 'zod';
import { DEFAULT_LOOKUP_CODES, MAX_LOOKUP_CODES } from './field-lookup.ts';

/** Longest path a lookup accepts (the longest real paths, SCRIPT element paths, are well under it). */
export const MAX_LOOKUP_PATH_LENGTH = 300;

/** Query of GET /api/lookup. */
export const lookupQuerySchema = z.object({
  path: z
    .string()
    .min(1, 'path is required: PID.5, Patient.birthDate, AM07.D2 or NewRx.Patient.HumanPatient.Gender')
    .max(MAX_LOOKUP_PATH_LENGTH)
    .describe('the path in the standard\'s own syntax: PID.5, PID.5.1, MSH, Patient.birthDate, AM07.D2, NewRx.Patient.HumanPatient.Gender'),
  standard: z
    .string()
    .min(1)
    .optional()
    .describe('hl7, fhir or ncpdp (any letter case); omitted: every registered standard is asked in turn, the first that knows the path answers'),
  version: z.string().min(1).optional().describe('the version whose definitions answer (HL7 2.3 to 2.8, FHIR 4.0.1, NCPDP D.0 or a SCRIPT version); the standard\'s default when omitted'),
  maxCodes: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_LOOKUP_CODES)
    .default(DEFAULT_LOOKUP_CODES)
    .describe(`most codes of the table or value set listed (0 to ${MAX_LOOKUP_CODES}); codeTotal counts them all`),
  missing: z
    .enum(['error', 'answer'])
    .default('error')
    .describe('a well-written path the definitions lack: error (default) refuses it with 404 NOT_FOUND; answer says so with 200 and found: false'),
});

const codeSchema = z.object({ code: z.string(), display: z.string().optional(), system: z.string().optional() });
const childSchema = z.object({
  path: z.string(),
  name: z.string(),
  dataType: z.string().optional(),
  optionality: z.string().optional(),
});

/** `data` of GET /api/lookup for a path the definitions know. */
export const fieldLookupSchema = z.object({
  found: z.literal(true),
  standard: z.string().describe('the standard that answered'),
  version: z.string().nullable().describe('the version asked for; null: the standard\'s default definitions'),
  path: z.string(),
  name: z.string(),
  dataType: z.string().optional(),
  optionality: z.string().optional().describe('HL7: required, optional, conditional...; FHIR: min..max; NCPDP: required in B1, situational...'),
  cardinality: z.string().optional().describe('min..max occurrences (* for unbounded)'),
  repeatable: z.boolean().optional(),
  maxLength: z.number().optional(),
  table: z.string().optional().describe('HL7 table number, FHIR value set URL with its binding strength, NCPDP code list'),
  tableName: z.string().optional(),
  codes: z.array(codeSchema).optional().describe('the first codes of the table or value set (at most maxCodes)'),
  codeTotal: z.number().int().optional().describe('how many codes the table or value set holds'),
  codesNote: z.string().optional().describe('why a table or value set named here lists no codes'),
  description: z.string().optional(),
  children: z.array(childSchema).optional().describe('a segment\'s fields, a data type\'s components, an element\'s child elements'),
});

/** `data` of GET /api/lookup?missing=answer for a well-written path the definitions lack. */
export const missingFieldSchema = z.object({
  found: z.literal(false),
  path: z.string(),
  standard: z.string().nullable().describe('the standard asked; null when none was named (none of them knows the path)'),
  version: z.string().nullable(),
  message: z.string().describe('what a 404 NOT_FOUND would say'),
});

/** `data` of GET /api/lookup: a described path, or (with missing=answer) one the definitions lack. */
export const lookupAnswerSchema = z.union([fieldLookupSchema, missingFieldSchema]);
