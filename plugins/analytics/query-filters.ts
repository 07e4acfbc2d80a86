/**
 * The filters of `POST /api/monitor/analytics/query` and how they become the monitor's message filter and alert
 * filter. Unknown filter keys are refused with the list of known ones, so a misspelt key never silently widens a
 * query to every message.
 */
import { z } from 'zod';
import { ALERT_SEVERITIES, type AlertSeverity, type MessageFilter } from '../monitor/api.ts';

/** The filter keys the query knows, in the order the docs list them. */
export const QUERY_FILTER_KEYS = ['interfaceId', 'severity', 'messageType', 'status', 'errorCode', 'sendingFacility'] as const;

const oneOrMany = z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(100)]);

/** Schema of the `filters` object. */
export const queryFiltersSchema = z.strictObject(
  {
    /** One interface id or several. */
    interfaceId: oneOrMany.optional(),
    /** Alert severity (alerts only; messages carry none). */
    severity: z.enum(ALERT_SEVERITIES).optional(),
    /** `ADT` (every ADT event) or `ADT^A01`; one or several. */
    messageType: oneOrMany.optional(),
    /** `valid` or `invalid` messages. */
    status: z.enum(['valid', 'invalid']).optional(),
    /** Messages with at least one error of this code (or of any of these codes). */
    errorCode: oneOrMany.optional(),
    /** MSH-4 (sending facility). */
    sendingFacility: z.string().min(1).max(200).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown filter ${issue.keys.map((key) => `"${key}"`).join(', ')}; known filters: ${QUERY_FILTER_KEYS.join(', ')}`
        : undefined,
  },
);

/** The parsed filters. */
export type QueryFilters = z.infer<typeof queryFiltersSchema>;

const list = (value: string | string[] | undefined): string[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** The interface ids the filters name (empty: every interface). */
export function filterInterfaceIds(filters: QueryFilters): string[] {
  return list(filters.interfaceId) ?? [];
}

/** The monitor's message filter of the query (severity is about alerts, so it narrows no message). */
export function messageFilterOf(filters: QueryFilters, window: { since: Date; until: Date }): MessageFilter {
  const filter: MessageFilter = { since: window.since, until: window.until };
  const interfaceIds = list(filters.interfaceId);
  if (interfaceIds) filter.interfaceIds = interfaceIds;
  const messageTypes = list(filters.messageType);
  if (messageTypes) filter.messageTypes = messageTypes;
  if (filters.status) filter.isValid = filters.status === 'valid';
  const errorCodes = list(filters.errorCode);
  if (errorCodes) filter.errorCodes = errorCodes;
  if (filters.sendingFacility) filter.sendingFacility = filters.sendingFacility;
  return filter;
}

/** What an alert must match: its interface among the named ones and its severity, when given. */
export function alertMatches(filters: QueryFilters): (alert: { interfaceId: string | null; severity: AlertSeverity }) => boolean {
  const interfaceIds = new Set(list(filters.interfaceId) ?? []);
  // a system alert is about no interface: never among the alerts of named interfaces
  return (alert) =>
    (interfaceIds.size === 0 || (alert.interfaceId !== null && interfaceIds.has(alert.interfaceId))) &&
    (filters.severity === undefined || alert.severity === filters.severity);
}
