/** zod schemas of the message routes (`/api/monitor/messages`): the list's query, a summary, a message's view. */
import { z } from 'zod';
import { findingPositionSchema } from '../../../kernel/positions/position-schema.ts';
import { PAGE_LIMIT_MAX } from './message-query.ts';

/** A query text: 1..max characters, no control characters (they never occur in stored facts). */
function queryText(name: string, max = 200) {
  return z
    .string()
    .min(1, `${name} may not be empty`)
    .max(max, `${name} may be at most ${max} characters`)
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), `${name} may not hold control characters`);
}

/** Statuses of a stored message: `failed` has at least one error; `valid` has none (warnings may remain). */
export const MESSAGE_STATUSES = ['valid', 'failed'] as const;

/** Query of GET /api/monitor/messages. */
export const messageListQuery = z
  .object({
    /** An interface id, or several separated by commas. */
    interfaceId: queryText('interfaceId', 4000).optional(),
    status: z.enum(MESSAGE_STATUSES).optional(),
    /** `ADT` or `ADT^A01`, or several separated by commas. */
    messageType: queryText('messageType', 1000).optional(),
    /** An error code, or several separated by commas. */
    errorCode: queryText('errorCode', 2000).optional(),
    patientId: queryText('patientId').optional(),
    accountNumber: queryText('accountNumber').optional(),
    controlId: queryText('controlId').optional(),
    /** The file's name or its path under the watched folder; `*` matches any characters. */
    fileName: queryText('fileName', 1000).optional(),
    /** Words of the retained raw text, every one required (full-text index). */
    q: queryText('q').optional(),
    /** Received at or after (ISO 8601). */
    since: queryText('since', 40).optional(),
    /** Received before (ISO 8601). */
    until: queryText('until', 40).optional(),
    limit: z.coerce
      .number({ error: `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}` })
      .int(`limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}`)
      .min(1, 'limit must be at least 1')
      .max(PAGE_LIMIT_MAX, `limit must be at most ${PAGE_LIMIT_MAX}`)
      .default(50),
    /** The `next` of the previous page. */
    cursor: queryText('cursor', 100).optional(),
  })
  .strict();

/** Path parameter `{id}` of a message (`FILE.INDEX`). */
export const messageIdParams = z.object({ id: z.string().min(1).max(100) }).strict();

/** A finding as stored: severity, code, sentence and path in the standard's syntax. */
const findingSchema = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
  /** `PID.5`, `Patient.name[0].family`, `NewRx.Patient.HumanPatient.Name.LastName`, `AM07.D2`. */
  path: z.string(),
  /** What the standard wanted there (`a value`, `one of F, M, U`), when the finding says. */
  expected: z.string().optional(),
  /** What was found there, excerpted (`empty`, `X`), when the finding says. */
  actual: z.string().optional(),
});

/** One message of a list: its facts, its first finding and its file's name; never its raw text. */
export const messageSummarySchema = z.object({
  /** `FILE.INDEX`. */
  id: z.string(),
  interfaceId: z.string(),
  /** Null when the interface was deleted since. */
  interfaceName: z.string().nullable(),
  standard: z.enum(['hl7', 'fhir', 'ncpdp']),
  status: z.enum(MESSAGE_STATUSES),
  /** `ADT^A01` (HL7 type and trigger event), the FHIR event or resource type, the NCPDP transaction. */
  messageType: z.string().nullable(),
  controlId: z.string().nullable(),
  /** The first patient identifier. */
  patientId: z.string().nullable(),
  accountNumber: z.string().nullable(),
  receivedAt: z.string(),
  /** When the sender says it sent it. */
  messageTime: z.string().nullable(),
  /** Name of the file it came from (the last part of its path). */
  fileName: z.string().nullable(),
  /** The first error, else the first warning; null for a clean message. */
  firstFinding: findingSchema.nullable(),
  /** Errors and warnings kept with the message. */
  errorCount: z.number().int(),
  warningCount: z.number().int(),
});

/** A page of the message list. */
export const messageListSchema = z.object({
  items: z.array(messageSummarySchema),
  /** Cursor of the next page, or null when no more match now. */
  next: z.string().nullable(),
});

/** A finding with its place in the raw text (null when the text is not there or the path names no place). */
const placedFindingSchema = findingSchema.extend({ position: findingPositionSchema.nullable() });

/** The file a message came from. */
const messageFileSchema = z.object({
  /** Absolute path (the interface's folder and the path under it); the path under the folder when the interface was deleted. */
  path: z.string(),
  name: z.string(),
  size: z.number(),
  modifiedAt: z.string(),
  /** 0-based place of the message in the file. */
  indexInFile: z.number().int(),
  messagesInFile: z.number().int(),
});

/** Why raw text is what it is. */
export const RAW_STATES = ['retained', 'expired', 'withheld'] as const;

/** GET /api/monitor/messages/{id}. */
export const messageViewSchema = z.object({
  message: messageSummarySchema.extend({
    triggerEvent: z.string().nullable(),
    version: z.string().nullable(),
    sendingApplication: z.string().nullable(),
    sendingFacility: z.string().nullable(),
    receivingApplication: z.string().nullable(),
    receivingFacility: z.string().nullable(),
    sequenceNumber: z.number().nullable(),
    acknowledgedControlId: z.string().nullable(),
    patientIds: z.array(z.object({ id: z.string(), assigningAuthority: z.string().nullable() })),
    visitNumber: z.string().nullable(),
    segmentIds: z.array(z.string()),
    latencyMs: z.number().nullable(),
    latencyClass: z.enum(['ok', 'none', 'stale', 'skew']),
    contentDigest: z.string().nullable(),
  }),
  /** The text as received while retained and readable by the caller; else null (`rawState` says why). */
  raw: z.string().nullable(),
  rawState: z.enum(RAW_STATES),
  /** A sentence saying why raw is null; null when it is there. */
  rawNote: z.string().nullable(),
  findings: z.array(placedFindingSchema),
  file: messageFileSchema.nullable(),
});

/** The validated list query. */
export type MessageListQuery = z.output<typeof messageListQuery>;
/** A summary as answered. */
export type MessageSummary = z.input<typeof messageSummarySchema>;
/** A message view as answered. */
export type MessageView = z.input<typeof messageViewSchema>;
