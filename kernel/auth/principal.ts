/** The authenticated caller of a request. */
export interface Principal {
  /** How the caller proved who it is. */
  kind: 'api-key' | 'jwt';
  /** User id (JWT `sub`) or API key id. */
  subject: string;
  roles: string[];
  /** Organisation of the caller, when the token names one (claim `org`). */
  organizationId?: string;
}

/** The role the admin policy requires. */
export const MONITOR_ADMIN_ROLE = 'MonitorAdmin';
