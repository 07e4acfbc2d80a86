/** Error catalogue of the admin plugin. */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the admin routes raise (plain 404s use the kernel's NOT_FOUND). */
export const adminErrors = defineErrorCatalogue({
  ROLE_UNKNOWN: { status: 400, message: 'Role "{role}" is not known; valid roles: {valid}.' },
  LAST_ADMIN: {
    status: 409,
    message:
      '"{userId}" is the last MonitorAdmin; make someone else MonitorAdmin first (`workbench keys create --role MonitorAdmin` stays the way back in).',
  },
  WORKSPACE_EXISTS: { status: 409, message: 'A workspace named "{name}" already exists (id "{id}").' },
  MEMBER_EXISTS: { status: 409, message: '"{userId}" is already a member of workspace "{workspaceId}" (role {role}).' },
  INTERFACE_IN_WORKSPACE: { status: 409, message: 'Interface "{interfaceId}" is already in workspace "{workspaceId}".' },
});
