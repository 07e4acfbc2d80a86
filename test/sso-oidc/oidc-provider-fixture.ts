/**
 * A real OpenID provider (the `oidc-provider` package) on an ephemeral loopback port, with its own RSA signing key
 * (so tests can also forge expired or wrongly addressed tokens with the very key it signs with), accounts with
 * e-mail addresses, JWT access tokens for the `urn:workbench:api` resource, and a tiny cookie-keeping browser that
 * signs in through the provider's own login and consent forms.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** The resource (audience) of the JWT access tokens the provider issues. */
export const API_RESOURCE = 'urn:workbench:api';

/** A running provider. */
export interface ProviderFixture {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Signs arbitrary claims with the provider's own key (for expired and wrong-audience tokens). */
  sign(claims: Record<string, unknown>, expiresAt: number): Promise<string>;
  close(): Promise<void>;
}

/** Starts the provider; `redirectUris` are the callbacks its client may use. */
export async function startOidcProvider(redirectUris: string[]): Promise<ProviderFixture> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'fixture-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'workbench-test';
  const clientSecret = 'fixture-client-secret-0123456789-abcdefghijklmnop';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['fixture-cookie-key-0123456789'] },
    ttl: { AccessToken: 300, AuthorizationCode: 60, IdToken: 300, Interaction: 600, Session: 3600, Grant: 3600 },
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile', 'api'],
    async findAccount(_ctx: unknown, id: string) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: `${id}@example.test`, email_verified: true, name: id };
        },
      };
    },
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'api',
          audience: API_RESOURCE,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  } as ConstructorParameters<typeof Provider>[1]);
  const handle = provider.callback();
  // Koa's handler answers every request itself, errors included; node's server has nothing to wait for
  server.on('request', (request, response) => void handle(request, response));
  return {
    issuer,
    clientId,
    clientSecret,
    sign: (claims, expiresAt) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'fixture-key' }).setIssuedAt(expiresAt - 600).setExpirationTime(expiresAt).sign(privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser reduced to what a sign-in needs: cookies per origin and following redirects. */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  /** Cookies kept for an origin. */
  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  private keep(url: URL, response: Response): void {
    const jar = this.jars.get(url.origin) ?? new Map<string, string>();
    this.jars.set(url.origin, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
  }

  /** One request with the origin's cookies, not following redirects. */
  async request(url: URL, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const cookies = [...(this.jars.get(url.origin) ?? new Map<string, string>())].map(([n, v]) => `${n}=${v}`).join('; ');
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        ...(cookies ? { cookie: cookies } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    this.keep(url, response);
    return response;
  }

  /**
   * Follows redirects from `start`, filling the provider's login form as `login` and confirming consent, until a
   * URL satisfying `stop` (fetched, unless `fetchLast` is false) or no further step.
   */
  async signIn(
    start: URL,
    login: string,
    stop: (url: URL) => boolean,
    fetchLast = true,
  ): Promise<{ url: URL; response?: Response; text: string }> {
    let url = start;
    let form: Record<string, string> | undefined;
    for (let step = 0; step < 20; step++) {
      if (stop(url)) {
        if (!fetchLast) return { url, text: '' };
        const response = await this.request(url);
        return { url, response, text: await response.text() };
      }
      const response = await this.request(url, form ? { form } : {});
      form = undefined;
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url);
        continue;
      }
      const text = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(text)?.[1];
      const prompt = /name="prompt" value="([^"]+)"/.exec(text)?.[1];
      if (!action || !prompt) return { url, response, text };
      url = new URL(action, url);
      form = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
    }
    throw new Error('Sign-in did not finish in 20 steps.');
  }
}
