/** Request and response schemas of the AI triage routes (they also feed the bridge's OpenAPI document). */
import { z } from 'zod';
import { TRIAGE_CATEGORIES } from './triage/knowledge-base.ts';
import { CHANGE_KINDS } from './interfaces/upgrade-detector.ts';

/** Body of POST /api/monitor/triage. */
export const triageBodySchema = z
  .object({
    messageContent: z
      .union([z.string(), z.record(z.string(), z.unknown()).describe('a FHIR resource as a JSON object')])
      .describe('the failed message (HL7 v2, FHIR, NCPDP); unreadable content is triaged as a parse failure'),
    validationErrors: z
      .array(z.string().max(2_000))
      .max(1_000)
      .optional()
      .describe('the findings as the receiver reported them (one string each, e.g. "PID.5 REQUIRED_FIELD_MISSING"); when absent the message is validated first'),
    interfaceContext: z.string().max(2_000).optional().describe('free text describing the interface (sender, receiver, recent changes)'),
  })
  .strict();

const fixSchema = z.object({ order: z.number().int(), side: z.enum(['sender', 'receiver']), field: z.string(), action: z.string() });

/** `data` of POST /api/monitor/triage. */
export const triageResultSchema = z.object({
  rootCause: z.string(),
  explanation: z.string(),
  suggestedFixes: z.array(fixSchema),
  affectedFields: z.array(
    z.object({ path: z.string(), name: z.string().nullable(), dataType: z.string().nullable(), table: z.string().nullable(), codes: z.array(z.string()) }),
  ),
  category: z.enum(TRIAGE_CATEGORIES),
  confidence: z.number().min(0).max(1),
  engine: z.string().describe('rules for the offline engine, else the name of the model that rephrased it'),
  standard: z.string().nullable(),
  messageType: z.string().nullable(),
  version: z.string().nullable(),
  knowledgeEntry: z.string().nullable(),
  findings: z.object({ errors: z.number().int(), warnings: z.number().int(), byCode: z.record(z.string(), z.number().int()) }),
  signals: z.array(z.string()),
  notes: z.array(z.string()),
});

/** Body of patterns, summary and upgrade-check. */
export const interfaceWindowBodySchema = z
  .object({
    interfaceId: z.string().min(1, 'interfaceId is required').max(200),
    sinceHours: z.number().int().min(1).max(24 * 90).default(24).describe('window length in hours before now (default 24)'),
  })
  .strict();

const windowSchema = z.object({ since: z.string(), until: z.string() });

const patternSchema = z.object({
  key: z.string().describe('versioned cluster key (v1:code|field|messageType|sendingApplication)'),
  code: z.string(),
  field: z.string(),
  messageType: z.string().nullable(),
  sendingApplication: z.string().nullable(),
  standard: z.string(),
  version: z.string().nullable(),
  count: z.number().int(),
  share: z.number(),
  previousCount: z.number().int(),
  trend: z.enum(['new', 'rising', 'steady', 'falling']),
  firstSeen: z.string(),
  lastSeen: z.string(),
  exampleControlIds: z.array(z.string()),
  explanation: z.object({ rootCause: z.string(), category: z.string(), suggestedFix: z.string().nullable(), knowledgeEntry: z.string().nullable() }),
});

/** `data` of POST /api/monitor/patterns. */
export const patternsResultSchema = z.object({
  interfaceId: z.string(),
  interfaceName: z.string(),
  window: windowSchema,
  previousWindow: windowSchema,
  clusterKeyVersion: z.number().int(),
  failedMessages: z.number().int(),
  previousFailedMessages: z.number().int(),
  clusterCount: z.number().int(),
  patterns: z.array(patternSchema),
  truncated: z.boolean(),
});

/** `data` of POST /api/monitor/summary. */
export const summaryResultSchema = z.object({
  interfaceId: z.string(),
  interfaceName: z.string(),
  window: windowSchema,
  summary: z.string(),
  facts: z.object({
    messages: z.number().int(),
    previousMessages: z.number().int(),
    volumeChange: z.number().nullable(),
    failed: z.number().int(),
    errorRate: z.number().nullable(),
    previousErrorRate: z.number().nullable(),
    averageLatencyMs: z.number().nullable(),
    p99LatencyMs: z.number().nullable(),
    lastMessageAt: z.string().nullable(),
    silentMinutes: z.number().int().nullable(),
    openAlerts: z.array(z.object({ id: z.string(), severity: z.string(), title: z.string(), triggeredAt: z.string() })),
    topPatterns: z.array(z.object({ key: z.string(), code: z.string(), field: z.string(), messageType: z.string().nullable(), count: z.number().int(), trend: z.string() })),
  }),
});

/** `data` of POST /api/monitor/upgrade-check: the SPEC's UpgradeDetectionResult. */
export const upgradeResultSchema = z.object({
  interfaceId: z.string(),
  interfaceName: z.string(),
  assessment: z.enum(['detected', 'not-detected', 'insufficient-data']),
  upgradeDetected: z.boolean(),
  confidence: z.number().min(0).max(1),
  changePoint: z.string().nullable().describe('when the change started (the first message showing it), ISO 8601 UTC'),
  changes: z.array(
    z.object({
      kind: z.enum(CHANGE_KINDS),
      before: z.array(z.string()),
      after: z.array(z.string()),
      firstSeen: z.string(),
      messages: z.number().int(),
    }),
  ),
  baselineMessages: z.number().int(),
  afterMessages: z.number().int(),
  explanation: z.string(),
  window: windowSchema,
  baselineWindow: windowSchema,
  messagesRead: z.number().int(),
  confidenceMethod: z.string(),
});
