/** The authenticated caller of a request, and the roles the service knows. */
export interface Principal {
  /** How the caller proved who it is: an API key, a bearer JWT, or a browser session cookie. */
  kind: 'api-key' | 'jwt' | 'session';
  /** User id (JWT `sub`, or the user a session belongs to) or API key id. */
  subject: string;
  roles: string[];
  /** Organisation of the caller, when the token names one (claim `org`). */
  organizationId?: string;
}

/** The role the admin policy requires. */
export const MONITOR_ADMIN_ROLE = 'MonitorAdmin';

/**
 * Every role the service knows, most powerful first: an admin may do everything, an operator may change what it
 * operates (a route declares this with `minimumRole`), a viewer only reads.
 */
export const MONITOR_ROLES = ['MonitorAdmin', 'MonitorOperator', 'MonitorViewer'] as const;

/** One of {@link MONITOR_ROLES}. */
export type MonitorRole = (typeof MONITOR_ROLES)[number];

/** True when the text names a known role. */
export function isMonitorRole(role: string): role is MonitorRole {
  return (MONITOR_ROLES as readonly string[]).includes(role);
}

/** True when any of the roles is `minimum` or ranks above it. */
export function holdsAtLeast(roles: readonly string[], minimum: MonitorRole): boolean {
  const needed = MONITOR_ROLES.indexOf(minimum);
  return roles.some((role) => isMonitorRole(role) && MONITOR_ROLES.indexOf(role) <= needed);
}
