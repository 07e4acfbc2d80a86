/** The audit routes on the monitor base: query, export and verify (policy MonitorAdmin, enterprise tier). */
import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import { timestampInput } from '../../kernel/http/input-validation.ts';
import type { AuditStore, AuditFilter } from './audit-store.ts';
import { auditCsvStream, auditJsonStream } from './audit-export.ts';
import { decodeCursor, encodeCursor, pagedAnswer, pageQueryShape } from '../../kernel/http/paging.ts';
import { windowInvalid } from '../../kernel/lib/time/time-window.ts';
import { AUDIT_EXAMPLES } from './audit-examples.ts';

const filterShape = {
  action: z.string().min(1).max(100).optional(),
  resourceType: z.string().min(1).max(100).optional(),
  from: timestampInput.optional(),
  to: timestampInput.optional(),
};

const entrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.string(),
  actorKind: z.string(),
  action: z.string(),
  resourceType: z.string(),
  resourceId: z.string().nullable(),
  outcome: z.string(),
  requestId: z.string().nullable(),
  sourceAddress: z.string().nullable(),
  details: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]).nullable())
    .nullable()
    .describe('facts of the action (names and plain values: never a secret or message content)'),
  previousHash: z.string(),
  hash: z.string(),
});

const verificationSchema = z.object({
  intact: z.boolean(),
  checked: z.number(),
  anchor: z
    .object({ lastPrunedId: z.number(), lastPrunedHash: z.string(), prunedAt: z.string(), prunedTotal: z.number() })
    .nullable(),
  firstBroken: z.object({ id: z.number(), reason: z.string() }).nullable(),
  brokenLinks: z.array(z.object({ id: z.number(), reason: z.string() })),
  brokenTotal: z.number(),
  checkpoint: z
    .object({
      headId: z.number(),
      headHash: z.string(),
      at: z.string(),
      anchorId: z.number().nullable(),
      anchorHash: z.string().nullable(),
      keyedFromId: z.number(),
    })
    .nullable(),
});

function checkedFilter(filter: AuditFilter): AuditFilter {
  if (filter.from && filter.to && filter.from > filter.to) {
    throw windowInvalid(`from (${filter.from.toISOString()}) is after to (${filter.to.toISOString()}); give a window that starts before it ends`, 'from');
  }
  return filter;
}

/** What the audit routes work with. */
export interface AuditRouteDeps {
  /** The audit trail the routes query, export and verify. */
  store: AuditStore;
}

/** Registers the audit routes. */
export function registerAuditRoutes(routes: RouteRegistrar, deps: AuditRouteDeps): void {
  const { store } = deps;
  const listRoute = (url: string, summary: string) =>
    routes.route({
      method: 'GET',
      url,
      summary,
      tags: ['audit'],
      tier: 'enterprise',
      policy: 'MonitorAdmin',
      examples: AUDIT_EXAMPLES.query,
      query: z
        .object({
          ...filterShape,
          ...pageQueryShape(),
          offset: z.coerce.number().int().min(0).default(0),
        })
        .strict(),
      errors: ['WINDOW_INVALID', 'CURSOR_INVALID'],
      paged: true,
      response: z.object({
        total: z.number(),
        limit: z.number(),
        offset: z.number(),
        entries: z.array(entrySchema),
      }),
      async handler({ query }) {
        const { limit, offset, cursor, ...filter } = query;
        const beforeId = cursor === undefined ? undefined : Number(decodeCursor(cursor, ['number'])[0]);
        const { total, entries, more } = await store.query(checkedFilter(filter), limit, offset, beforeId);
        const last = entries[entries.length - 1];
        const next = more && last ? encodeCursor([last.id]) : null;
        return pagedAnswer({ total, limit, offset, entries }, { next, truncated: more, limit });
      },
    });
  listRoute('/api/monitor/audit/', 'Audit entries, newest first (filters action, resourceType, from, to; limit ≤ 1000; offset, or cursor = the envelope\'s page.next)');
  listRoute('/api/monitor/audit', 'Audit entries (the same as /api/monitor/audit/)');

  routes.route({
    method: 'GET',
    url: '/api/monitor/audit/export',
    summary: 'Export audit entries, oldest first, as a streamed CSV (formula-safe) or JSON file carrying the chain checkpoint',
    tags: ['audit'],
    tier: 'enterprise',
    policy: 'MonitorAdmin',
    query: z.object({ ...filterShape, format: z.enum(['csv', 'json']).default('json') }).strict(),
    examples: AUDIT_EXAMPLES.export,
    errors: ['WINDOW_INVALID'],
    response: z.string(),
    async handler({ query }) {
      const { format, ...filter } = query;
      const entries = store.stream(checkedFilter(filter));
      // Read before the entries: every entry it names is in the export (entries only ever follow it).
      const checkpoint = store.currentCheckpoint();
      return {
        raw: true,
        contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        headers: {
          'content-disposition': `attachment; filename="audit.${format}"`,
          ...(checkpoint ? { 'x-audit-checkpoint': JSON.stringify(checkpoint) } : {}),
        },
        body: format === 'csv' ? auditCsvStream(entries) : auditJsonStream(entries, checkpoint),
      };
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/audit/verify',
    summary: 'Verify the keyed chain of the audit trail against its checkpoint and name every broken link',
    tags: ['audit'],
    tier: 'enterprise',
    policy: 'MonitorAdmin',
    response: verificationSchema,
    examples: AUDIT_EXAMPLES.verify,
    handler: () => store.verify(),
  });
}
