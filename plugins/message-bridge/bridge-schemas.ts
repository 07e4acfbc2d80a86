/** Request and response schemas of the bridge routes (they also feed the bridge's OpenAPI document). */
import { z } from 'zod';
import { findingPositionSchema } from '../../kernel/positions/position-schema.ts';
import { MAX_SEED } from '../../kernel/standards-registry.ts';
import { scenarioBodyFields } from './journey-scenario.ts';

/** HL7 versions `hl7Version` accepts (2.3 to 2.8). */
export const HL7_GENERATE_VERSIONS = ['2.3', '2.3.1', '2.4', '2.5', '2.5.1', '2.6', '2.7', '2.7.1', '2.8'] as const;

const standardField = z
  .string()
  .min(1)
  .optional()
  .describe('hl7, fhir or ncpdp, any letter case (any registered standard); detected from the content when omitted');

/** A message: its text, or a FHIR resource as a JSON object. */
function messageField(name: string) {
  return z
    .union([
      z.string().min(1, `${name} is required and must not be empty`),
      z.record(z.string(), z.unknown()).describe('a FHIR resource as a JSON object'),
    ])
    .describe('the message text (HL7 v2, FHIR JSON or XML, NCPDP), or a FHIR resource as a JSON object');
}

const modeField = z
  .enum(['strict', 'compatibility'])
  .default('strict')
  .describe('strict: everything the standard says SHALL is an error; compatibility: only what a receiver cannot read');
const profileField = z.string().min(1).optional().describe('name of a loaded profile (GET /api/profiles)');
const versionField = z
  .string()
  .min(1)
  .optional()
  .describe('validate against this version instead of the declared one (NCPDP accepts D.0 and D0)');

/** Body of POST /api/validate. */
export const validateBodySchema = z
  .object({
    messageContent: messageField('messageContent'),
    standard: standardField,
    mode: modeField,
    profile: profileField,
    version: versionField,
    positions: z
      .boolean()
      .optional()
      .describe('true: each listed finding also says where it is in messageContent (position: its character range, and segment and field where the standard has them)'),
  })
  .strict();

/** Query of POST /api/validate when the body is the raw message (text/plain, application/fhir+json, ...). */
export const validateQuerySchema = z.object({
  standard: standardField,
  mode: z.enum(['strict', 'compatibility']).optional().describe('with a raw body: strict (default) or compatibility'),
  profile: profileField,
  version: versionField,
});

const issueSchema = z.object({
  field: z.string(),
  code: z.string(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
  expected: z.string().optional().describe('what the check wanted: allowed codes (bounded), a data type and format, a cardinality'),
  actual: z.string().optional().describe('the value found, excerpted to about 60 characters ("empty" when missing)'),
});

/** A listed finding of the validated content, with its place in the text when asked for (`positions: true`). */
const placedIssueSchema = issueSchema.extend({
  position: findingPositionSchema
    .nullable()
    .optional()
    .describe('with positions: true, where it is in messageContent (character range, and segment and field where the standard has them); null when it names no place, or the content holds several messages'),
});

/**
 * Facts the standard's adapter found while validating: which of them are present depends on the standard (HL7 v2,
 * FHIR, NCPDP Telecommunication, SCRIPT or batch), so each is optional; no other field is answered.
 */
const validationSummarySchema = z
  .object({
    mode: z.enum(['strict', 'compatibility']).optional(),
    format: z.string().optional().describe('FHIR: json or xml (unknown when unreadable); NCPDP: SCRIPT, Telecommunication or Batch'),
    version: z.string().optional().describe('the version the message declares (HL7 MSH-12, NCPDP, SCRIPT) or validated against (FHIR)'),
    validatedAgainst: z.string().optional().describe('HL7: the version whose definitions were used'),
    declaredVersion: z.string().optional().describe('SCRIPT: a declared version no definitions exist for'),
    bestEffortAgainst: z.string().optional().describe('SCRIPT: the close supported version such a message was checked against'),
    messageType: z.string().optional(),
    controlId: z.string().optional().describe('HL7: MSH-10 of the first message'),
    messageId: z.string().optional().describe('SCRIPT: the message id'),
    structure: z.string().optional().describe('HL7: the message structure (MSH-9.3 or the event table)'),
    messageCount: z.number().int().optional().describe('HL7: messages in the content'),
    charset: z.string().optional().describe('HL7: the character set the content was read in'),
    resourceType: z.string().optional().describe('FHIR'),
    profiles: z.array(z.string()).optional().describe('FHIR: profiles applied (given, declared in meta.profile, or loaded for the type)'),
    profile: z.string().optional().describe('the profile given with the request'),
    direction: z.enum(['request', 'response']).optional().describe('NCPDP Telecommunication'),
    transactions: z.number().int().optional().describe('NCPDP: transactions in the message or batch'),
    records: z.number().int().optional().describe('NCPDP batch: records in the file'),
    batchVersion: z.string().optional(),
    senderId: z.string().optional(),
    batchNumber: z.string().optional(),
    fileType: z.string().optional(),
  })
  .describe('facts found while validating; which are present depends on the standard');

/** `data` of POST /api/validate. */
export const validationResultSchema = z.object({
  isValid: z.boolean(),
  errors: z.array(placedIssueSchema).describe('errors listed: with warnings, at most plugins.message-bridge.maxIssues (default 1000)'),
  warnings: z.array(placedIssueSchema).describe('warnings listed (errors are listed first when not all fit)'),
  totals: z
    .object({
      errors: z.number().int(),
      warnings: z.number().int(),
      byCode: z.record(z.string(), z.number().int()).describe('findings per code, both severities'),
    })
    .describe('exact counts of every finding, listed or not'),
  truncated: z.boolean().describe('true when findings (or per-message results) were counted but not listed'),
  standard: z.string(),
  messages: z
    .array(
      z.object({
        index: z.number().int(),
        messageType: z.string().optional(),
        controlId: z.string().optional(),
        isValid: z.boolean(),
        errors: z.array(issueSchema),
        warnings: z.array(issueSchema),
      }),
    )
    .optional(),
  summary: validationSummarySchema.optional(),
});

/** Body of POST /api/diff. */
export const diffBodySchema = z
  .object({
    leftMessage: messageField('leftMessage'),
    rightMessage: messageField('rightMessage'),
    standard: standardField,
    ignoredFields: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'paths to leave out of the comparison, with wildcards (*, **, [*]); at most 100 patterns of at most 256 characters',
      ),
  })
  .strict();

/** `data` of POST /api/diff. */
export const diffResultSchema = z.object({
  differences: z.array(
    z.object({
      field: z.string(),
      leftValue: z.string(),
      rightValue: z.string(),
      changeType: z.enum(['modified', 'added', 'removed']),
    }),
  ),
  totalDifferences: z.number().int().describe('every difference, listed or not'),
  totals: z
    .object({ modified: z.number().int(), added: z.number().int(), removed: z.number().int() })
    .describe('exact counts by change type'),
  truncated: z.boolean().describe('true when differences were counted but not listed (over plugins.message-bridge.maxDifferences)'),
  ignoredFields: z.array(z.string()),
  unmatchedIgnoredFields: z
    .array(z.string())
    .optional()
    .describe('ignoredFields entries that match no path of either message (a typo, most likely); absent when the check stopped at its work limit'),
  standard: z.string(),
});

/** Body of POST /api/generate. */
export const generateBodySchema = z
  .object({
    messageType: z.string().min(1).optional().describe('default ADT^A01 for hl7, Patient for fhir, NewRx for ncpdp'),
    standard: z
      .string()
      .min(1)
      .optional()
      .describe('hl7, fhir or ncpdp, any letter case; when omitted, the standard whose message type messageType is (else hl7)'),
    count: z.number().int().min(1).max(100).default(1).describe('how many messages, 1 to 100 (default 1)'),
    hl7Version: z
      .enum(HL7_GENERATE_VERSIONS)
      .optional()
      .describe('HL7 version, 2.3 to 2.8; default 2.3. Give this or version, not two different values'),
    version: z
      .string()
      .min(1)
      .optional()
      .describe('version of any standard (e.g. 2.5.1 for HL7, 2017071, 10.6 or D.0 for NCPDP)'),
    seed: z
      .number()
      .int('seed must be a whole number')
      .min(0, `seed must be from 0 to ${MAX_SEED}`)
      .max(MAX_SEED, `seed must be from 0 to ${MAX_SEED}`)
      .nullable()
      .default(null)
      .describe(`0 to ${MAX_SEED}: the same seed gives the same messages (byte for byte with the same referenceTime); omitted or null: fresh output`),
    referenceTime: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('HL7: the instant the messages are stamped near (MSH-7 in the minute before it, the other times following); default now'),
    ...scenarioBodyFields,
  })
  .strict();

/** `data` of POST /api/generate: one raw message per element. */
export const generateResultSchema = z.array(z.string());

/** `data` of GET /api/profiles. */
export const profileListSchema = z.array(
  z.object({
    name: z.string(),
    pack: z.string(),
    standard: z.string(),
    description: z.string().optional(),
    version: z.string().optional(),
    messageTypes: z.array(z.string()).optional(),
  }),
);

/** `data` of GET /api/standards. */
export const standardListSchema = z.array(
  z.object({
    id: z.string(),
    displayName: z.string(),
    versions: z.array(z.string()),
    defaultVersion: z.string(),
    messageTypes: z.array(z.string()),
  }),
);

/** Query of GET /api/describe. */
export const describeQuerySchema = z.object({
  standard: z.string().min(1).default('hl7'),
  path: z.string().min(1),
  version: z.string().min(1).optional(),
});

/** `data` of GET /api/describe. */
export const fieldDescriptionSchema = z.object({
  path: z.string(),
  name: z.string(),
  dataType: z.string().optional(),
  optionality: z.string().optional(),
  repeatable: z.boolean().optional(),
  maxLength: z.number().optional(),
  table: z.string().optional(),
  description: z.string().optional(),
});
