/**
 * Verifies JWTs with jose against the configured keys: a local HS256 secret and/or a JWKS address. Algorithms are
 * pinned per key kind (so an HS256 token can never be checked with a public key, and `alg: none` is never
 * accepted), `exp` is required, `iss`/`aud` are checked when configured, with the configured clock tolerance.
 */
import type { JWTVerifyGetKey } from 'jose';
import type { KernelConfig } from '../config-schema.ts';
import type { Clock } from '../clock.ts';
import { TokenRejected, type TokenVerifier } from './credential-contracts.ts';

type JwtConfig = KernelConfig['auth']['jwt'];

/** The verifier built from the kernel's `auth.jwt` config. */
export function createConfiguredJwtVerifier(config: JwtConfig, clock: Clock): TokenVerifier {
  const secret = config.hs256Secret ? new TextEncoder().encode(config.hs256Secret) : undefined;
  // jose loads on the first token: commands and requests without a bearer token never need it.
  let jose: typeof import('jose') | undefined;
  let jwks: JWTVerifyGetKey | undefined;
  const common = {
    requiredClaims: ['exp'],
    clockTolerance: config.clockToleranceSeconds,
    currentDate: undefined as Date | undefined,
    ...(config.issuer ? { issuer: config.issuer } : {}),
    ...(config.audience ? { audience: config.audience } : {}),
  };
  return {
    async verify(token) {
      jose ??= await import('jose');
      const { decodeProtectedHeader, jwtVerify } = jose;
      if (config.jwksUrl) jwks ??= jose.createRemoteJWKSet(new URL(config.jwksUrl));
      let alg: string | undefined;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        throw new TokenRejected('The bearer token is not a well-formed JWT.');
      }
      const options = { ...common, currentDate: clock.now() };
      try {
        if (alg === 'HS256') {
          if (!secret) throw new TokenRejected('HS256 tokens are not accepted: no shared secret is configured.');
          return (await jwtVerify(token, secret, { ...options, algorithms: ['HS256'] })).payload;
        }
        if (jwks && alg && (config.asymmetricAlgorithms as string[]).includes(alg)) {
          return (await jwtVerify(token, jwks, { ...options, algorithms: config.asymmetricAlgorithms })).payload;
        }
      } catch (error) {
        if (error instanceof TokenRejected) throw error;
        const code = (error as { code?: string }).code;
        if (code === 'ERR_JWT_EXPIRED') throw new TokenRejected('The bearer token has expired.');
        if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
          throw new TokenRejected(`The bearer token was refused: ${(error as Error).message}.`);
        }
        throw new TokenRejected('The bearer token signature or claims could not be verified.');
      }
      throw new TokenRejected(`Tokens signed with "${alg ?? 'no algorithm'}" are not accepted.`);
    },
  };
}
