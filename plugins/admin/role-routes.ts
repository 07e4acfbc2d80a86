/**
 * Role assignments (`/api/monitor/admin/roles`): list, assign (or replace) and revoke. The last MonitorAdmin
 * assignment can be neither revoked nor demoted through the API, so nobody locks the organisation out; changes are
 * applied one at a time so two concurrent demotions cannot both pass that check.
 */
import { z } from 'zod';
import type { RoleAssignmentStore } from '../../kernel/auth/role-assignments.ts';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import { MONITOR_ADMIN_ROLE, MONITOR_ROLES, isMonitorRole, type MonitorRole } from '../../kernel/auth/principal.ts';
import type { AuditTrail } from '../audit/api.ts';
import { recordAdminWrite } from './admin-audit.ts';
import { ADMIN_ROUTE } from './admin-route-defaults.ts';
import { adminErrors } from './admin-errors.ts';
import { SerialQueue } from '../../kernel/lib/async/serial-queue.ts';
import { ADMIN_EXAMPLES } from './admin-examples.ts';

/** A user id as routes accept it. */
export const userIdInput = z.string().trim().min(1).max(200);

/** Checks a role name, answering 400 with the valid ones. */
export function requireKnownRole(role: string): MonitorRole {
  if (!isMonitorRole(role)) {
    throw adminErrors.create('ROLE_UNKNOWN', { role, valid: MONITOR_ROLES.join(', ') }, { validRoles: [...MONITOR_ROLES] });
  }
  return role;
}

const assignmentSchema = z.object({ userId: z.string(), role: z.string(), assignedAt: z.string() });

/** What the role routes work with. */
export interface RoleRouteDeps {
  /** The role assignments of users. */
  roles: RoleAssignmentStore;
  /** Where each change is recorded. */
  audit: AuditTrail;
}

/** Registers the role routes. */
export function registerRoleRoutes(routes: RouteRegistrar, deps: RoleRouteDeps): void {
  const { roles, audit } = deps;
  const queue = new SerialQueue();

  const ensureNotLastAdmin = async (userId: string) => {
    const assignments = await roles.list();
    const admins = assignments.filter((a) => a.role === MONITOR_ADMIN_ROLE);
    if (admins.length === 1 && admins[0].userId === userId) throw adminErrors.create('LAST_ADMIN', { userId });
  };

  routes.route({
    method: 'GET',
    url: '/api/monitor/admin/roles',
    examples: ADMIN_EXAMPLES.listRoles,
    summary: 'Role assignments of the organisation',
    ...ADMIN_ROUTE,
    response: z.object({ assignments: z.array(assignmentSchema), validRoles: z.array(z.string()) }),
    async handler() {
      return { assignments: await roles.list(), validRoles: [...MONITOR_ROLES] };
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/monitor/admin/roles',
    errors: ['LAST_ADMIN'],
    examples: ADMIN_EXAMPLES.assignRole,
    summary: 'Assign a role to a user (replaces the role the user had)',
    ...ADMIN_ROUTE,
    body: z.object({ userId: userIdInput, role: z.string().min(1).max(100) }).strict(),
    response: assignmentSchema.extend({ previousRole: z.string().nullable() }),
    handler(request) {
      const { userId, role: requested } = request.body;
      const role = requireKnownRole(requested);
      return queue.run(async () => {
        const previous = await roles.get(userId);
        if (previous?.role === MONITOR_ADMIN_ROLE && role !== MONITOR_ADMIN_ROLE) await ensureNotLastAdmin(userId);
        const assignment = await roles.assign(userId, role);
        await recordAdminWrite(audit, request, 'role.assign', 'role', userId, { role, previousRole: previous?.role ?? null });
        return { ...assignment, previousRole: previous?.role ?? null };
      });
    },
  });

  routes.route({
    method: 'DELETE',
    url: '/api/monitor/admin/roles/:userId',
    errors: ['LAST_ADMIN', 'NOT_FOUND'],
    examples: ADMIN_EXAMPLES.revokeRole,
    summary: "Revoke a user's role",
    ...ADMIN_ROUTE,
    params: z.object({ userId: userIdInput }),
    response: z.object({ userId: z.string(), revokedRole: z.string() }),
    handler(request) {
      const { userId } = request.params;
      return queue.run(async () => {
        const previous = await roles.get(userId);
        if (!previous) throw kernelErrors.create('NOT_FOUND', { what: `A role assignment of user "${userId}"` });
        if (previous.role === MONITOR_ADMIN_ROLE) await ensureNotLastAdmin(userId);
        await roles.revoke(userId);
        await recordAdminWrite(audit, request, 'role.revoke', 'role', userId, { role: previous.role });
        return { userId, revokedRole: previous.role };
      });
    },
  });
}
