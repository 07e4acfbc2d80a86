/** Zod schemas of the tracing routes' queries, bodies and answers (they also feed the OpenAPI document). */
import { z } from 'zod';
import { timestampInput } from '../../kernel/http/input-validation.ts';
import { GAP_KINDS } from './trace-model.ts';

const key = (name: string, what: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} must not be empty`)
    .max(200, `${name} must be at most 200 characters`)
    .describe(what);

/** Query of GET /api/monitor/traces. */
export const traceQuery = z
  .object({
    patient_id: key('patient_id', 'patient identifier (any PID-3 repetition, FHIR Patient.identifier)').optional(),
    assigning_authority: key('assigning_authority', 'only the patient id of this assigning authority (PID-3.4)').optional(),
    account_number: key('account_number', 'account or visit number (PID-18, PV1-19)').optional(),
    control_id: key('control_id', 'message control id (MSH-10)').optional(),
    since: timestampInput.optional().describe('only messages received at or after this instant'),
    limit: z.coerce
      .number({ error: 'limit must be a whole number from 1 to 1000' })
      .int('limit must be a whole number from 1 to 1000')
      .min(1, 'limit must be at least 1')
      .max(1000, 'limit must be at most 1000')
      .default(100),
  })
  .strict();

/** Query of GET /api/monitor/traces/{traceId} (the same keys but the patient id, which is the path). */
export const tracePathQuery = traceQuery.omit({ patient_id: true, account_number: true, control_id: true });

/** Path of GET /api/monitor/traces/{traceId}. */
export const traceParams = z.object({ traceId: key('traceId', 'the patient id to trace') }).strict();

/** Query of GET /api/monitor/gaps. */
export const gapsQuery = z
  .object({
    interface_id: key('interface_id', 'only gaps concerning this interface').optional(),
    sequence: z.string().min(1, 'sequence must not be empty').max(1000, 'sequence must be at most 1000 characters').optional().describe('a sequence to judge instead of the defined ones, e.g. ADT^A01>ORM^O01<1h>ORU^R01<4h'),
    since: timestampInput.optional().describe('start of the window (default 24 hours ago)'),
    patient_id: key('patient_id', 'only this patient').optional(),
    limit: z.coerce
      .number({ error: 'limit must be a whole number from 1 to 1000' })
      .int('limit must be a whole number from 1 to 1000')
      .min(1, 'limit must be at least 1')
      .max(1000, 'limit must be at most 1000')
      .default(100),
  })
  .strict();

/** Query of GET /api/monitor/latency. */
export const latencyQuery = z
  .object({
    from_interface: key('from_interface', 'source interface id'),
    to_interface: key('to_interface', 'destination interface id'),
    message_type: z
      .string()
      .regex(/^[A-Za-z0-9_]{1,20}(\^[A-Za-z0-9_]{1,20})?$/, 'message_type must look like ADT or ADT^A01')
      .optional()
      .describe('only messages of this type (ADT or ADT^A01); acknowledgements on the destination still pair'),
    since: timestampInput.optional().describe('start of the window (default 24 hours ago)'),
    until: timestampInput.optional().describe('end of the window, exclusive (default now; a later instant is taken as now)'),
    match_window_ms: z.coerce
      .number({ error: 'match_window_ms must be a whole number of milliseconds from 0 to 86400000' })
      .int('match_window_ms must be a whole number of milliseconds from 0 to 86400000')
      .min(0, 'match_window_ms must be at least 0')
      .max(86_400_000, 'match_window_ms must be at most 86400000 (one day)')
      .optional()
      .describe('how far apart MSH-7 may be when pairing by patient and type (default from config, 5 minutes)'),
  })
  .strict();

/** Body of POST /api/monitor/sequences. */
export const sequenceBody = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/, 'name must be 1 to 100 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit'),
    sequence: z.string().min(1, 'sequence must not be empty').max(1000, 'sequence must be at most 1000 characters'),
    alert: z.boolean().default(false).describe('raise an alert on the interfaces concerned when a gap of this sequence is found'),
  })
  .strict();

/** Path of DELETE /api/monitor/sequences/{name}. */
export const sequenceParams = z.object({ name: z.string().min(1).max(100) }).strict();

const patientIdSchema = z.object({ id: z.string(), assigningAuthority: z.string().nullable() });

/** One event of a trace. */
export const traceEventSchema = z
  .object({
    messageId: z.string(),
    interface: z.string().describe('interface name'),
    interfaceId: z.string(),
    messageType: z.string().describe('ADT^A01'),
    timestamp: z.string().describe('MSH-7 when known, else the received time: the instant that orders the trace'),
    receivedAt: z.string(),
    messageTime: z.string().nullable(),
    status: z.enum(['valid', 'invalid', 'unparsed']),
    controlId: z.string().nullable(),
    sequenceNumber: z.number().nullable().describe('MSH-13'),
    sendingApplication: z.string().nullable(),
    sendingFacility: z.string().nullable(),
    patientIds: z.array(patientIdSchema),
    accountNumber: z.string().nullable(),
    errorCount: z.number(),
    warningCount: z.number(),
  })
  .describe('A stored message of the trace');

const seenSchema = z.object({
  messageId: z.string(),
  interface: z.string(),
  messageType: z.string(),
  timestamp: z.string(),
  controlId: z.string().nullable(),
  sequenceNumber: z.number().nullable(),
});

/** A gap. */
export const gapSchema = z
  .object({
    kind: z.enum(GAP_KINDS),
    sequence: z.string().nullable(),
    sequenceName: z.string().nullable(),
    stepIndex: z.number().nullable(),
    expected: z.string().describe('what should have happened, in words'),
    seen: z.array(seenSchema).describe('the messages around the gap'),
    patientId: z.string().nullable(),
    interfaceId: z.string().nullable(),
    window: z.object({ from: z.string(), to: z.string() }),
    amount: z.number().nullable().describe('ms late (late), ms early (out-of-order), numbers missing (sequence-number)'),
  })
  .describe('Something expected that did not happen, not in time, not in order, or not once');

/** `data` of GET /api/monitor/traces. */
export const traceSchema = z.object({
  patientId: z.string().nullable(),
  assigningAuthorities: z.array(z.string().nullable()).describe('authorities the patient id was found under; more than one: several patients'),
  events: z.array(traceEventSchema),
  totalSpanMs: z.number(),
  gaps: z.array(gapSchema),
  truncated: z.boolean(),
});

/** `data` of GET /api/monitor/gaps. */
export const gapsSchema = z.object({
  since: z.string(),
  sequences: z.array(z.string()),
  gaps: z.array(gapSchema),
  counts: z.object(Object.fromEntries(GAP_KINDS.map((kind) => [kind, z.number()])) as Record<(typeof GAP_KINDS)[number], z.ZodNumber>),
  resends: z.number(),
  contentUnknown: z.number(),
  messagesRead: z.number(),
  truncated: z.boolean(),
});

const summaryShape = {
  count: z.number(),
  minMs: z.number().nullable(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  maxMs: z.number().nullable(),
};

/** `data` of GET /api/monitor/latency. */
export const latencySchema = z.object({
  fromInterface: z.string(),
  toInterface: z.string(),
  messageType: z.string().nullable(),
  since: z.string(),
  until: z.string(),
  matchWindowMs: z.number(),
  ...summaryShape,
  unmatched: z.object({ source: z.number(), destination: z.number() }),
  pairedBy: z.object({ controlId: z.number(), ack: z.number(), patientAndTime: z.number() }),
  series: z.array(z.object({ hour: z.string(), ...summaryShape })),
  truncated: z.boolean(),
});

/** A defined sequence. */
export const definedSequenceSchema = z.object({
  name: z.string(),
  sequence: z.string(),
  alert: z.boolean(),
  source: z.enum(['config', 'api']),
  createdAt: z.string().nullable(),
});

/** `data` of GET /api/monitor/sequences. */
export const sequencesSchema = z.object({
  defined: z.array(definedSequenceSchema),
  observed: z.array(z.object({ sequence: z.string(), patients: z.number() })),
  observedWindow: z.object({ since: z.string(), messagesRead: z.number(), truncated: z.boolean() }),
});
