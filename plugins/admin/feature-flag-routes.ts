/**
 * Feature-flag writes for admins (`/api/monitor/admin/features`): set a flag globally or for one workspace
 * (organisation), remove a stored value so the default applies again, and list what is stored. Every change is
 * audited. `GET /api/features` (feature-flags plugin) keeps answering the effective flags.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.ts';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import type { FeatureFlags } from '../feature-flags/api.ts';
import type { AuditTrail } from '../audit/api.ts';
import { recordAdminWrite } from './admin-audit.ts';
import { ADMIN_ROUTE } from './admin-route-defaults.ts';
import { requireWorkspace } from './workspace-routes.ts';
import type { WorkspaceStore } from './workspace-store.ts';
import { ADMIN_EXAMPLES } from './admin-examples.ts';

const flagName = z.string().regex(/^[a-zA-Z][\w.-]*$/, 'flag names are letters, digits, . _ - (starting with a letter)').max(100);
const workspaceIdInput = z.string().min(1).max(80);
const storedFlagSchema = z.object({
  name: z.string(),
  workspaceId: z.string().nullable(),
  enabled: z.boolean(),
  updatedAt: z.string(),
});

/** What the flag routes work with. */
export interface FeatureFlagRouteDeps {
  /** The flags, global and per workspace. */
  flags: FeatureFlags;
  /** The workspaces a flag may be scoped to. */
  workspaces: WorkspaceStore;
  /** Where each change is recorded. */
  audit: AuditTrail;
  /** The clock a change's time is read from. */
  clock: Clock;
}

/** Registers the flag routes. */
export function registerFeatureFlagRoutes(routes: RouteRegistrar, deps: FeatureFlagRouteDeps): void {
  const { flags, workspaces, audit } = deps;
  const scopeOf = (workspaceId: string | undefined) => workspaceId ?? '';

  routes.route({
    ...ADMIN_ROUTE,
    method: 'GET',
    url: '/api/monitor/admin/features',
    examples: ADMIN_EXAMPLES.listFlags,
    summary: 'Config defaults, effective global flags and every stored flag (global and per workspace)',
    response: z.object({
      defaults: z.record(z.string(), z.boolean()),
      global: z.record(z.string(), z.boolean()),
      stored: z.array(storedFlagSchema),
    }),
    async handler() {
      const stored = await flags.stored();
      return {
        defaults: flags.defaults(),
        global: await flags.global(),
        stored: stored.map((f) => ({
          name: f.name,
          workspaceId: f.organizationId === '' ? null : f.organizationId,
          enabled: f.enabled,
          updatedAt: f.updatedAt,
        })),
      };
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'PUT',
    url: '/api/monitor/admin/features/:name',
    examples: ADMIN_EXAMPLES.setFlag,
    summary: 'Set a flag globally, or for one workspace with workspaceId',
    params: z.object({ name: flagName }),
    body: z.object({ enabled: z.boolean(), workspaceId: workspaceIdInput.optional() }).strict(),
    response: storedFlagSchema,
    async handler(request) {
      const { name } = request.params;
      const { enabled, workspaceId } = request.body;
      if (workspaceId !== undefined) await requireWorkspace(workspaces, workspaceId);
      const updatedAt = deps.clock.now().toISOString();
      await flags.set(name, enabled, scopeOf(workspaceId), updatedAt);
      await recordAdminWrite(audit, request, 'flag.set', 'feature-flag', name, { enabled, workspaceId: workspaceId ?? null });
      return { name, workspaceId: workspaceId ?? null, enabled, updatedAt };
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'DELETE',
    url: '/api/monitor/admin/features/:name',
    examples: ADMIN_EXAMPLES.removeFlag,
    summary: 'Remove a stored flag (global, or of the workspace named by ?workspaceId) so the default applies again',
    params: z.object({ name: flagName }),
    query: z.object({ workspaceId: workspaceIdInput.optional() }).strict(),
    response: z.object({ name: z.string(), workspaceId: z.string().nullable(), removed: z.boolean() }),
    async handler(request) {
      const { name } = request.params;
      const { workspaceId } = request.query;
      if (!(await flags.remove(name, scopeOf(workspaceId)))) {
        const scope = workspaceId === undefined ? 'globally' : `for workspace "${workspaceId}"`;
        throw kernelErrors.create('NOT_FOUND', { what: `A stored flag "${name}" ${scope}` });
      }
      await recordAdminWrite(audit, request, 'flag.unset', 'feature-flag', name, { workspaceId: workspaceId ?? null });
      return { name, workspaceId: workspaceId ?? null, removed: true };
    },
  });
}
