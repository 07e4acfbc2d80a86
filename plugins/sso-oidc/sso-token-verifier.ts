/**
 * Bearer tokens from the configured issuer (ID tokens, and JWT access tokens whose audience is configured): the
 * signature is checked with jose against the issuer's JWKS, `iss` must be the issuer, `aud` the client id or a
 * configured audience, `exp` must lie ahead. The issuer's own roles claim is dropped: roles come from the service's
 * role assignments only. Tokens of other issuers are left to the other verifiers.
 */
import type { JWTPayload } from 'jose';
import { TokenRejected, type TokenVerifier } from '../../kernel/auth/credential-contracts.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { OidcIssuer } from './oidc-issuer.ts';
import type { UserMapping } from './user-mapping.ts';

/** Allowed clock skew between the issuer and this machine. */
const CLOCK_TOLERANCE_SECONDS = 60;

/** The verifier added to the kernel's auth service. */
export function createSsoTokenVerifier(current: () => Promise<OidcIssuer | undefined>, users: UserMapping, clock: Clock): TokenVerifier {
  return {
    async verify(token) {
      // jose is loaded on first use (module cache afterwards).
      const { decodeJwt, jwtVerify } = await import('jose');
      let unverified: JWTPayload;
      try {
        unverified = decodeJwt(token);
      } catch {
        return undefined;
      }
      const issuer = await current();
      if (!issuer || unverified.iss !== issuer.issuer) return undefined;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, issuer.jwks, {
          issuer: issuer.issuer,
          audience: issuer.audiences,
          algorithms: issuer.algorithms,
          requiredClaims: ['exp', 'sub'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: clock.now(),
        }));
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ERR_JWT_EXPIRED') throw new TokenRejected('The bearer token has expired.');
        if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
          throw new TokenRejected(`The bearer token was refused: ${(error as Error).message}.`);
        }
        throw new TokenRejected('The bearer token signature could not be verified with the issuer keys.');
      }
      const userId = await users.userOf(issuer, payload);
      return {
        sub: userId,
        iss: payload.iss,
        exp: payload.exp,
        ...(typeof payload.org === 'string' ? { org: payload.org } : {}),
      };
    },
  };
}
