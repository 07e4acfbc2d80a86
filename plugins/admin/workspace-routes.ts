/**
 * Workspace routes (`/api/monitor/admin/workspaces`): list, create, get, delete; add and remove members (user id
 * and role) and interfaces (which must exist in the monitor). Duplicate names, members and interfaces: 409.
 */
import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import { SerialQueue } from '../../kernel/lib/async/serial-queue.ts';
import type { AuditTrail } from '../audit/api.ts';
import type { FeatureFlags } from '../feature-flags/api.ts';
import { interfaceNotFound } from '../monitor/api.ts';
import { adminErrors } from './admin-errors.ts';
import { recordAdminWrite } from './admin-audit.ts';
import { ADMIN_ROUTE } from './admin-route-defaults.ts';
import { requireKnownRole, userIdInput } from './role-routes.ts';
import type { Workspace, WorkspaceStore } from './workspace-store.ts';
import { ADMIN_EXAMPLES } from './admin-examples.ts';

const memberSchema = z.object({ userId: z.string(), role: z.string(), addedAt: z.string() });
/** A workspace as answered. */
export const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  createdAt: z.string(),
  members: z.array(memberSchema),
  interfaceIds: z.array(z.string()),
});
const idParams = z.object({ id: z.string().min(1).max(80) });
const interfaceIdInput = z.string().trim().min(1).max(200);

/** What the workspace routes need besides their store. */
export interface WorkspaceRouteDeps {
  store: WorkspaceStore;
  audit: AuditTrail;
  /** The workspace's own flags go when the workspace goes. */
  flags: FeatureFlags;
  /** Whether the monitor has an interface with this id. */
  interfaceExists(interfaceId: string): Promise<boolean>;
}

/** The workspace, or 404 naming it. */
export async function requireWorkspace(store: WorkspaceStore, id: string): Promise<Workspace> {
  const workspace = await store.get(id);
  if (!workspace) throw kernelErrors.create('NOT_FOUND', { what: `Workspace "${id}"` });
  return workspace;
}

/** Registers the workspace routes. */
export function registerWorkspaceRoutes(routes: RouteRegistrar, deps: WorkspaceRouteDeps): void {
  const { store, audit } = deps;
  // Check-then-insert sequences (duplicate names, members, interfaces) must not interleave.
  const queue = new SerialQueue();

  routes.route({
    ...ADMIN_ROUTE,
    method: 'GET',
    url: '/api/monitor/admin/workspaces',
    examples: ADMIN_EXAMPLES.listWorkspaces,
    summary: 'Workspaces with their members and interfaces',
    response: z.array(workspaceSchema),
    handler: () => store.list(),
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'POST',
    url: '/api/monitor/admin/workspaces',
    errors: ['WORKSPACE_EXISTS'],
    examples: ADMIN_EXAMPLES.createWorkspace,
    summary: 'Create a workspace (its id, made from the name, is the organisation id of observability and flags)',
    body: z.object({ name: z.string().trim().min(1).max(100), description: z.string().max(1000).default('') }).strict(),
    response: workspaceSchema,
    successStatus: 201,
    handler(request) {
      const { name, description } = request.body;
      return queue.run(async () => {
        const existing = await store.findByName(name);
        if (existing) throw adminErrors.create('WORKSPACE_EXISTS', { name: existing.name, id: existing.id });
        const workspace = await store.create(name, description);
        await recordAdminWrite(audit, request, 'workspace.create', 'workspace', workspace.id, { name });
        return workspace;
      });
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'GET',
    url: '/api/monitor/admin/workspaces/:id',
    examples: ADMIN_EXAMPLES.getWorkspace,
    summary: 'One workspace',
    params: idParams,
    response: workspaceSchema,
    handler: ({ params }) => requireWorkspace(store, params.id),
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'DELETE',
    url: '/api/monitor/admin/workspaces/:id',
    examples: ADMIN_EXAMPLES.deleteWorkspace,
    summary: 'Delete a workspace with its memberships and interface links (the interfaces stay in the monitor)',
    params: idParams,
    response: z.object({ id: z.string(), deleted: z.boolean() }),
    handler(request) {
      const { id } = request.params;
      return queue.run(async () => {
        const workspace = await requireWorkspace(store, id);
        await store.delete(id);
        for (const flag of await deps.flags.stored(id)) await deps.flags.remove(flag.name, id);
        await recordAdminWrite(audit, request, 'workspace.delete', 'workspace', id, { name: workspace.name });
        return { id, deleted: true };
      });
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'POST',
    url: '/api/monitor/admin/workspaces/:id/members',
    errors: ['NOT_FOUND', 'MEMBER_EXISTS'],
    examples: ADMIN_EXAMPLES.addMember,
    summary: 'Add a member with a role',
    params: idParams,
    body: z.object({ userId: userIdInput, role: z.string().min(1).max(100) }).strict(),
    response: memberSchema,
    successStatus: 201,
    handler(request) {
      const { id } = request.params;
      const { userId } = request.body;
      const role = requireKnownRole(request.body.role);
      return queue.run(async () => {
        await requireWorkspace(store, id);
        const existing = await store.member(id, userId);
        if (existing) throw adminErrors.create('MEMBER_EXISTS', { userId, workspaceId: id, role: existing.role });
        const member = await store.addMember(id, userId, role);
        await recordAdminWrite(audit, request, 'workspace.member-add', 'workspace', id, { userId, role });
        return member;
      });
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'DELETE',
    url: '/api/monitor/admin/workspaces/:id/members/:userId',
    examples: ADMIN_EXAMPLES.removeMember,
    summary: 'Remove a member',
    params: idParams.extend({ userId: userIdInput }),
    response: z.object({ id: z.string(), userId: z.string(), removed: z.boolean() }),
    handler(request) {
      const { id, userId } = request.params;
      return queue.run(async () => {
        await requireWorkspace(store, id);
        if (!(await store.removeMember(id, userId))) {
          throw kernelErrors.create('NOT_FOUND', { what: `Member "${userId}" of workspace "${id}"` });
        }
        await recordAdminWrite(audit, request, 'workspace.member-remove', 'workspace', id, { userId });
        return { id, userId, removed: true };
      });
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'POST',
    url: '/api/monitor/admin/workspaces/:id/interfaces',
    errors: ['NOT_FOUND', 'INTERFACE_NOT_FOUND', 'INTERFACE_IN_WORKSPACE'],
    examples: ADMIN_EXAMPLES.addInterface,
    summary: 'Add a monitored interface (it must exist in the monitor)',
    params: idParams,
    body: z.object({ interfaceId: interfaceIdInput }).strict(),
    response: z.object({ id: z.string(), interfaceId: z.string() }),
    successStatus: 201,
    handler(request) {
      const { id } = request.params;
      const { interfaceId } = request.body;
      return queue.run(async () => {
        await requireWorkspace(store, id);
        if (!(await deps.interfaceExists(interfaceId))) {
          throw interfaceNotFound(interfaceId, 'interfaceId', 'body');
        }
        if (await store.hasInterface(id, interfaceId)) {
          throw adminErrors.create('INTERFACE_IN_WORKSPACE', { interfaceId, workspaceId: id });
        }
        await store.addInterface(id, interfaceId);
        await recordAdminWrite(audit, request, 'workspace.interface-add', 'workspace', id, { interfaceId });
        return { id, interfaceId };
      });
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'DELETE',
    url: '/api/monitor/admin/workspaces/:id/interfaces/:interfaceId',
    examples: ADMIN_EXAMPLES.removeInterface,
    summary: 'Remove an interface from the workspace (it stays in the monitor)',
    params: idParams.extend({ interfaceId: interfaceIdInput }),
    response: z.object({ id: z.string(), interfaceId: z.string(), removed: z.boolean() }),
    handler(request) {
      const { id, interfaceId } = request.params;
      return queue.run(async () => {
        await requireWorkspace(store, id);
        if ((await store.removeInterface(interfaceId, id)) === 0) {
          throw kernelErrors.create('NOT_FOUND', { what: `Interface "${interfaceId}" in workspace "${id}"` });
        }
        await recordAdminWrite(audit, request, 'workspace.interface-remove', 'workspace', id, { interfaceId });
        return { id, interfaceId, removed: true };
      });
    },
  });
}
