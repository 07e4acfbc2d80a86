/**
 * The configured OpenID provider as the service uses it: the openid-client configuration for the sign-in flow and
 * the issuer's JWKS (jose) for bearer tokens. Built from the stored discovery document, so a restart needs no
 * network; discovery itself runs only when an admin configures the provider.
 */
import * as client from 'openid-client';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
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

function clientOptions(url: URL): { execute?: Array<(config: client.Configuration) => void> } {
  return url.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {};
}

/** Runs OpenID discovery; answers the issuer's metadata, or throws 400 with the reason. */
export async function discoverIssuer(issuerUrl: string, clientId: string, clientSecret: string): Promise<Record<string, unknown>> {
  const url = checkIssuerUrl(issuerUrl);
  try {
    const configuration = await client.discovery(url, clientId, clientSecret, client.ClientSecretBasic(clientSecret), {
      ...clientOptions(url),
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
  /** The issuer identifier tokens carry in `iss`. */
  readonly issuer: string;
  readonly configuration: client.Configuration;
  readonly jwks: JWTVerifyGetKey;
  /** Algorithms a token from this issuer may be signed with. */
  readonly algorithms: string[];

  constructor(
    metadata: Record<string, unknown>,
    readonly clientId: string,
    clientSecret: string,
    /** Accepted `aud` values: the client id (ID tokens) and any configured API audience (access tokens). */
    readonly audiences: string[],
    readonly jitProvisioning: boolean,
  ) {
    this.issuer = String(metadata.issuer);
    const serverMetadata = metadata as unknown as client.ServerMetadata;
    this.configuration = new client.Configuration(serverMetadata, clientId, clientSecret, client.ClientSecretBasic(clientSecret));
    const issuerUrl = new URL(this.issuer);
    if (issuerUrl.protocol === 'http:') client.allowInsecureRequests(this.configuration);
    this.jwks = createRemoteJWKSet(new URL(String(metadata.jwks_uri)), { timeoutDuration: 5_000 });
    const advertised = Array.isArray(metadata.id_token_signing_alg_values_supported)
      ? (metadata.id_token_signing_alg_values_supported as string[])
      : [];
    const asymmetric = advertised.filter((alg) => ASYMMETRIC.includes(alg));
    this.algorithms = asymmetric.length > 0 ? asymmetric : ['RS256'];
  }
}
