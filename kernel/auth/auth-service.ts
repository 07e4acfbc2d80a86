/**
 * The MonitorAdmin policy and caller identification. A request carries `Authorization: Bearer <token>` where the
 * token is an API key (`wbk_...`) or a JWT from any registered verifier. Missing, malformed, expired or unknown
 * credentials: 401; valid but without the role: 403.
 */
import type { JWTPayload } from 'jose';
import { kernelErrors } from '../errors.ts';
import type { ApiKeyStore } from './api-keys.ts';
import type { RoleAssignmentStore } from './role-assignments.ts';
import { TokenRejected, type TokenVerifier } from './jwt-verifier.ts';
import { MONITOR_ADMIN_ROLE, type Principal } from './principal.ts';

export type { Principal } from './principal.ts';

/** Identifies callers and enforces policies. */
export class AuthService {
  private readonly verifiers: TokenVerifier[] = [];

  constructor(
    readonly apiKeys: ApiKeyStore,
    readonly roles: RoleAssignmentStore,
    private readonly rolesClaim: string,
  ) {}

  /** Adds a token source (the single sign-on plugin adds its providers here). */
  addTokenVerifier(verifier: TokenVerifier): void {
    this.verifiers.push(verifier);
  }

  /**
   * The caller named by an Authorization header value, or `undefined` when none was sent.
   * Throws 401 for anything sent that does not prove an identity.
   */
  async identify(authorization: string | undefined): Promise<Principal | undefined> {
    if (authorization === undefined || authorization === '') return undefined;
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    if (!match) {
      throw kernelErrors.create('UNAUTHORIZED', { reason: 'The Authorization header must be "Bearer <token>".' });
    }
    const token = match[1];
    if (token.startsWith('wbk_')) {
      const key = await this.apiKeys.verify(token);
      if (!key) throw kernelErrors.create('UNAUTHORIZED', { reason: 'The API key is unknown or revoked.' });
      return { kind: 'api-key', subject: key.id, roles: [key.role] };
    }
    const payload = await this.verifyJwt(token);
    return this.principalFromClaims(payload);
  }

  /** Identifies the caller and requires the MonitorAdmin role. */
  async requireAdmin(authorization: string | undefined): Promise<Principal> {
    const principal = await this.identify(authorization);
    if (!principal) {
      throw kernelErrors.create('UNAUTHORIZED', {
        reason: 'This route needs an admin credential: send Authorization: Bearer <API key or JWT>.',
      });
    }
    if (!principal.roles.includes(MONITOR_ADMIN_ROLE)) {
      throw kernelErrors.create('FORBIDDEN', { reason: `This route needs the ${MONITOR_ADMIN_ROLE} role.` });
    }
    return principal;
  }

  private async verifyJwt(token: string): Promise<JWTPayload> {
    let lastRejection: TokenRejected | undefined;
    for (const verifier of this.verifiers) {
      try {
        const payload = await verifier.verify(token);
        if (payload) return payload;
      } catch (error) {
        if (!(error instanceof TokenRejected)) throw error;
        lastRejection = error;
      }
    }
    throw kernelErrors.create('UNAUTHORIZED', {
      reason: lastRejection?.message ?? 'No token verifier is configured for JWT bearer tokens.',
    });
  }

  private async principalFromClaims(payload: JWTPayload): Promise<Principal> {
    const subject = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : undefined;
    if (!subject) throw kernelErrors.create('UNAUTHORIZED', { reason: 'The bearer token has no subject (sub).' });
    const claim = payload[this.rolesClaim];
    const roles = Array.isArray(claim) ? claim.filter((r): r is string => typeof r === 'string') : [];
    if (typeof claim === 'string') roles.push(...claim.split(/[ ,]+/).filter(Boolean));
    const assigned = await this.roles.get(subject);
    if (assigned && !roles.includes(assigned.role)) roles.push(assigned.role);
    const organizationId = typeof payload.org === 'string' ? payload.org : undefined;
    return { kind: 'jwt', subject, roles, ...(organizationId ? { organizationId } : {}) };
  }
}
