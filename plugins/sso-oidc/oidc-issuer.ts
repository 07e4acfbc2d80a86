/**
 * The configured OpenID provider as the service uses it: the openid-client configuration for the sign-in flow and
 * the issuer's JWKS (jose) for bearer tokens. Built from the stored discovery document, so a restart needs no
 * network; discovery itself runs only when an admin configures the provider. openid-client and jose are loaded on
 * first use, so commands that never meet a provider do not pay for them.
 */
import type { Configuration, ServerMetadata } from 'openid-client';
import type { JWTVerifyGetKey } from 'jose';
import { ssoErrors } from './sso-errors.ts';

/** Asymmetric algorithms accepted from an issuer (never `none`, never a shared-secret HMAC). */
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** True for `localhost`, `127.0.0.0/8` and `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Checks the issuer address: https, or http on a loopback address; throws 400 otherwise. */
export function checkIssuerUrl(issuerUrl: string): URL {
  let url: URL;
  try {
    url = new URL(issuerUrl);
  } catch {
    throw ssoErrors.create('SSO_DISCOVERY_FAILED', { issuerUrl, reason: 'it is not a URL.' });
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  throw ssoErrors.create('SSO_ISSUER_INSECURE', { issuerUrl });
}


/** Runs OpenID discovery; answers the issuer's metadata, or throws 400 with the reason. */
export async function discoverIssuer(issuerUrl: string, clientId: string, clientSecret: string): Promise<Record<string, unknown>> {
  const url = checkIssuerUrl(issuerUrl);
  const client = await import('openid-client');
  try {
    const configuration = await client.discovery(url, clientId, clientSecret, client.ClientSecretBasic(clientSecret), {
      ...(url.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      timeout: 10,
    });
    const metadata = configuration.serverMetadata();
    if (typeof metadata.jwks_uri !== 'string') throw new Error('the discovery document names no jwks_uri');
    if (typeof metadata.authorization_endpoint !== 'string') throw new Error('the discovery document names no authorization_endpoint');
    return { ...metadata };
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    const reason = `${(error as Error).message}${cause ? ` (${cause})` : ''}`.replace(/\s+/g, ' ').slice(0, 300);
    throw ssoErrors.create('SSO_DISCOVERY_FAILED', { issuerUrl, reason: reason.endsWith('.') ? reason : `${reason}.` });
  }
}

/** A provider ready for sign-ins and token checks. */
export class OidcIssuer {
  private constructor(
    /** The issuer identifier tokens carry in `iss`. */
    readonly issuer: string,
    readonly configuration: Configuration,
    readonly jwks: JWTVerifyGetKey,
    /** Algorithms a token from this issuer may be signed with. */
    readonly algorithms: string[],
    readonly clientId: string,
    /** Accepted `aud` values: the client id (ID tokens) and any configured API audience (access tokens). */
    readonly audiences: string[],
    readonly jitProvisioning: boolean,
  ) {}

  /** Builds the provider from its stored discovery document (no network). */
  static async create(
    metadata: Record<string, unknown>,
    clientId: string,
    clientSecret: string,
    audiences: string[],
    jitProvisioning: boolean,
  ): Promise<OidcIssuer> {
    const [client, { createRemoteJWKSet }] = await Promise.all([import('openid-client'), import('jose')]);
    const issuer = String(metadata.issuer);
    const configuration = new client.Configuration(metadata as unknown as ServerMetadata, clientId, clientSecret, client.ClientSecretBasic(clientSecret));
    if (new URL(issuer).protocol === 'http:') client.allowInsecureRequests(configuration);
    const jwks = createRemoteJWKSet(new URL(String(metadata.jwks_uri)), { timeoutDuration: 5_000 });
    const advertised = Array.isArray(metadata.id_token_signing_alg_values_supported)
      ? (metadata.id_token_signing_alg_values_supported as string[])
      : [];
    const asymmetric = advertised.filter((alg) => ASYMMETRIC.includes(alg));
    return new OidcIssuer(issuer, configuration, jwks, asymmetric.length > 0 ? asymmetric : ['RS256'], clientId, audiences, jitProvisioning);
  }
}
