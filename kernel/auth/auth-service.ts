/**
 * The MonitorAdmin policy and caller identification. A request carries `Authorization: Bearer <token>` where the
 * token is an API key (`wbk_...`) or a JWT from any registered verifier, or (without an Authorization header) a
 * session cookie that a registered session verifier recognises. Missing, malformed, expired or unknown
 * credentials: 401; valid but without the role: 403.
 */
import type { JWTPayload } from 'jose';
import { kernelErrors } from '../errors.ts';
import type { ApiKeyRefusal, ApiKeyStore } from './api-keys.ts';
import type { RoleAssignmentStore } from './role-assignments.ts';
import { TokenRejected, readCookie, type SessionVerifier, type TokenVerifier } from './credential-contracts.ts';
import { MONITOR_ADMIN_ROLE, holdsAtLeast, type MonitorRole, type Principal } from './principal.ts';

export type { Principal } from './principal.ts';

/** Request headers as the auth layer reads them. */
export type CredentialHeaders = Record<string, string | string[] | undefined>;

/** The 401 reason for each way a presented API key is refused. */
const API_KEY_REFUSALS: Record<ApiKeyRefusal['refused'], string> = {
  malformed: 'The API key is malformed (a key reads wbk_<12 letters or digits>_<secret>); check that it was copied whole.',
  unknown:
    'The API key is unknown to this service: no key with its prefix is in its store. Created in another data folder? ' +
    '`workbench keys create` prints the store it wrote to, and the start-up lines print the service\'s data folder.',
  revoked: 'The API key has been revoked.',
  mismatch: 'The API key is not valid: its prefix is known but the secret does not match; check that it was copied whole.',
};

/** Three base64url parts separated by dots: the shape of a JWS compact serialisation. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Identifies callers and enforces policies. */
export class AuthService {
  private readonly verifiers: TokenVerifier[] = [];
  private readonly sessionVerifiers: SessionVerifier[] = [];

  constructor(
    readonly apiKeys: ApiKeyStore,
    readonly roles: RoleAssignmentStore,
    private readonly rolesClaim: string,
  ) {}

  /** Adds a token source (the single sign-on plugin adds its providers here). */
  addTokenVerifier(verifier: TokenVerifier): void {
    this.verifiers.push(verifier);
  }

  /** Adds a cookie-borne identity source (browser sign-in sessions). */
  addSessionVerifier(verifier: SessionVerifier): void {
    this.sessionVerifiers.push(verifier);
  }

  /**
   * The caller of a request: the Authorization header when one is sent, else a session cookie of a registered
   * session verifier; `undefined` when the request carries neither (or only a session cookie that is no longer
   * valid). Throws 401 for an Authorization header that proves nothing.
   */
  async identifyRequest(headers: CredentialHeaders): Promise<Principal | undefined> {
    const authorization = headers.authorization;
    if (typeof authorization === 'string' && authorization !== '') return this.identify(authorization);
    for (const verifier of this.sessionVerifiers) {
      const value = readCookie(headers.cookie, verifier.cookieName);
      if (value === undefined) continue;
      // An expired or unknown session cookie proves nothing but is no forged credential either: the browser simply
      // still holds it. The request goes on as anonymous (an admin route then answers 401 as for any anonymous call).
      const principal = await verifier.verify(value);
      if (principal) return principal;
    }
    return undefined;
  }

  /** Identifies the caller of a request and requires the MonitorAdmin role. */
  async requireAdminRequest(headers: CredentialHeaders): Promise<Principal> {
    return this.requireRole(await this.identifyRequest(headers));
  }

  /**
   * For routes open to anonymous local callers but guarded once the caller is identified: a caller who sends
   * credentials must hold `minimum` or a higher role (403 otherwise); an anonymous caller passes.
   */
  async requireRoleIfIdentified(headers: CredentialHeaders, minimum: MonitorRole): Promise<Principal | undefined> {
    const principal = await this.identifyRequest(headers);
    if (principal && !holdsAtLeast(principal.roles, minimum)) {
      throw kernelErrors.create('FORBIDDEN', { reason: `This change needs the ${minimum} role or a higher one.` });
    }
    return principal;
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
      if ('refused' in key) throw kernelErrors.create('UNAUTHORIZED', { reason: API_KEY_REFUSALS[key.refused] });
      return { kind: 'api-key', subject: key.id, roles: [key.role] };
    }
    // A JWT is three dot-separated base64url parts; anything else is neither credential, whatever verifiers exist.
    if (!JWT_SHAPE.test(token)) {
      throw kernelErrors.create('UNAUTHORIZED', {
        reason: 'The bearer token is not an API key (wbk_...) or a JWT; check what was copied into the Authorization header.',
      });
    }
    const payload = await this.verifyJwt(token);
    return this.principalFromClaims(payload);
  }

  /** Identifies the caller and requires the MonitorAdmin role. */
  async requireAdmin(authorization: string | undefined): Promise<Principal> {
    return this.requireRole(await this.identify(authorization));
  }

  private requireRole(principal: Principal | undefined): Principal {
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
