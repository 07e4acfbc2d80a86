/**
 * Maps a person signed in at the issuer to a user of the service: by the issuer's `sub` once seen; on first sight
 * by a role already assigned to the `sub` or to the verified e-mail address; otherwise, with just-in-time
 * provisioning, a new user (id: the e-mail, else the `sub`) with role MonitorViewer; without it, 403.
 */
import type { JWTPayload } from 'jose';
import type { RoleAssignmentStore } from '../../kernel/auth/role-assignments.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { AuditTrail } from '../audit/api.ts';
import type { OidcIssuer } from './oidc-issuer.ts';
import type { SsoStore } from './sso-store.ts';
import { ssoErrors } from './sso-errors.ts';

/** The role a just-in-time provisioned user gets. */
export const JIT_ROLE = 'MonitorViewer';

/** Resolves users of sign-ins and bearer tokens. */
export class UserMapping {
  constructor(
    private readonly store: SsoStore,
    private readonly roles: RoleAssignmentStore,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** The service's user id for the verified claims; throws 403 SSO_USER_UNKNOWN when none may be made. */
  async userOf(issuer: OidcIssuer, claims: JWTPayload, context: { requestId?: string; sourceAddress?: string } = {}): Promise<string> {
    const subject = String(claims.sub);
    const known = await this.store.userFor(issuer.issuer, subject);
    if (known) return known;
    const email = typeof claims.email === 'string' && claims.email_verified !== false ? claims.email.toLowerCase() : null;
    const now = this.clock.now().toISOString();
    for (const candidate of [subject, email]) {
      if (candidate && (await this.roles.get(candidate))) {
        await this.store.rememberUser(issuer.issuer, subject, candidate, email, now);
        return candidate;
      }
    }
    const userId = email ?? subject;
    if (!issuer.jitProvisioning) throw ssoErrors.create('SSO_USER_UNKNOWN', { userId, issuer: issuer.issuer });
    await this.roles.assign(userId, JIT_ROLE);
    await this.store.rememberUser(issuer.issuer, subject, userId, email, now);
    await this.audit.record({
      actor: userId,
      actorKind: 'user',
      action: 'user.provision',
      resourceType: 'user',
      resourceId: userId,
      outcome: 'success',
      details: { role: JIT_ROLE, issuer: issuer.issuer },
      ...context,
    });
    return userId;
  }
}
