/** zod schemas of the monitor's routes: request bodies and queries, and the records they answer with. */
import { z } from 'zod';
import { pageQueryShape } from '../../kernel/http/paging.ts';
import { ALERT_SEVERITIES } from './api.ts';

/** Per-interface alert rule overrides (every field optional). */
export const alertRuleOverridesSchema = z
  .object({
    errorRateWarning: z.number().min(0).max(1),
    errorRateCritical: z.number().min(0).max(1),
    windowMinutes: z.number().int().min(1).max(1440),
    minimumMessages: z.number().int().min(1).max(1_000_000),
    silenceMinutes: z.number().int().min(0).max(525_600),
    latencyP99Ms: z.number().int().min(0),
  })
  .partial()
  .strict();

const name = z.string().trim().min(1, 'name may not be empty').max(200);
const directoryPath = z.string().min(1, 'directoryPath may not be empty').max(4096);
const profileName = z.string().trim().min(1).max(200).nullable();
const filePattern = z.string().min(1, 'filePattern may not be empty').max(1000);
const validationMode = z.enum(['strict', 'compatibility']);
const standard = z.enum(['hl7', 'fhir', 'ncpdp', 'auto']);
/** `pinned` (default): watched by the node that created it, its folder a path on that machine; `any`: a shared folder any node of the team can read. */
const placement = z.enum(['pinned', 'any']);

/** Body of POST /api/monitor/interfaces. */
export const createInterfaceBody = z
  .object({
    name,
    /** Default `auto` (detected per file); a profile alone fixes the standard to the profile's. */
    standard: standard.optional(),
    directoryPath,
    profileName: profileName.optional(),
    /** Default: the standard's usual file names (`*.hl7`; FHIR `*.{json,ndjson}`; NCPDP `*.{xml,ncpdp,d0,dat}`; auto all). */
    filePattern: filePattern.optional(),
    validationMode: validationMode.default('compatibility'),
    recursive: z.boolean().default(false),
    usePolling: z.boolean().default(false),
    alertRules: alertRuleOverridesSchema.default({}),
    placement: placement.default('pinned'),
  })
  .strict();

/** Body of PUT /api/monitor/interfaces/{id}: every field optional. */
export const updateInterfaceBody = z
  .object({
    name,
    standard,
    directoryPath,
    profileName,
    filePattern,
    validationMode,
    enabled: z.boolean(),
    recursive: z.boolean(),
    usePolling: z.boolean(),
    alertRules: alertRuleOverridesSchema,
    /** `pinned` pins it to the node answering the request. */
    placement,
  })
  .partial()
  .strict();

/** A monitored interface as answered. */
export const interfaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  standard,
  directoryPath: z.string(),
  filePattern: z.string(),
  profileName: z.string().nullable(),
  validationMode: validationMode,
  enabled: z.boolean(),
  recursive: z.boolean(),
  usePolling: z.boolean(),
  alertRules: alertRuleOverridesSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  placement,
  /** The node a pinned interface belongs to (null for `any`, or before a node took it). */
  pinnedNode: z.string().nullable(),
  /** The live node watching it now, and since when; null while no live node does. */
  owner: z.object({ node: z.string(), since: z.string() }).nullable(),
  /** Why its owner cannot read its folder (another node that can takes a shared one), or null. */
  ownerProblem: z.string().nullable(),
});

/** A node of the team sharing the store, as GET /api/monitor/nodes answers it. */
export const nodeSchema = z.object({
  name: z.string(),
  version: z.string(),
  host: z.string(),
  pid: z.number().int(),
  startedAt: z.string(),
  lastHeartbeatAt: z.string(),
  /** Heartbeat within the lease (`node.leaseMs`). */
  live: z.boolean(),
  /** The node answering. */
  self: z.boolean(),
  /** Ids of the interfaces it watches. */
  interfaces: z.array(z.string()),
});

/** Path parameter `{name}` of a node. */
export const nodeNameParams = z.object({ name: z.string().min(1).max(200) }).strict();

/** Path parameter `{id}`. */
export const idParams = z.object({ id: z.string().min(1).max(100) }).strict();

/** `sinceHours`: 1..8760, default 24. */
export const sinceHours = z.coerce
  .number({ error: 'sinceHours must be a whole number of hours from 1 to 8760' })
  .int('sinceHours must be a whole number of hours from 1 to 8760')
  .min(1, 'sinceHours must be at least 1')
  .max(8760, 'sinceHours must be at most 8760 (one year)')
  .default(24);

/** Query of GET /api/monitor/alerts. */
export const alertsQuery = z
  .object({ severity: z.enum(ALERT_SEVERITIES).optional(), sinceHours, interfaceId: z.string().max(100).optional(), ...pageQueryShape() })
  .strict();

