/**
 * What plugins that bring their own credentials implement or use: token verifiers (JWTs from a single sign-on
 * issuer), session verifiers (browser cookies), the rejection that becomes a 401, and the cookie reader.
 */
import type { JWTPayload } from 'jose';
import type { Principal } from './principal.ts';

/** Why a token was refused (becomes the 401 message). */
export class TokenRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TokenRejected';
  }
}

/** A source of verified JWT payloads. Other plugins (single sign-on) add more verifiers to the auth service. */
export interface TokenVerifier {
  /** Verified payload, `undefined` when the token is not for this verifier, or throws {@link TokenRejected}. */
  verify(token: string): Promise<JWTPayload | undefined>;
}

/**
 * A source of identities carried in a cookie (the single sign-on plugin's browser sessions). A cookie it does not
 * know, or one that has expired, makes {@link SessionVerifier.verify} answer `undefined` (the request is then anonymous).
 */
export interface SessionVerifier {
  /** Name of the cookie holding the session. */
  readonly cookieName: string;
  verify(value: string): Promise<Principal | undefined>;
}

/** The value of one cookie in a Cookie header, or undefined. */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (!text) return undefined;
  for (const part of text.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}
