/**
 * Browser sign-in on the monitor base: `/auth/login` starts an authorization-code flow with PKCE (S256), state and
 * nonce; `/auth/callback` redeems the code, maps the user, opens a session and sets its cookie (HttpOnly,
 * SameSite=Strict, expiring); `/auth/logout` ends it; `/auth/me` says who is signed in. The cookie is accepted like
 * a bearer credential on every route (see the session verifier registered in index.ts).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.ts';
import type { RouteRegistrar, RawResponse, RouteDefinition, RouteRequest } from '../../kernel/plugin-api.ts';
import { readCookie } from '../../kernel/auth/credential-contracts.ts';
import { WorkbenchError } from '../../kernel/errors.ts';
import { auditContextOf, type AuditTrail } from '../audit/api.ts';
import type { ActiveIssuer } from './active-issuer.ts';
import type { SsoStore } from './sso-store.ts';
import type { UserMapping } from './user-mapping.ts';
import { ssoErrors } from './sso-errors.ts';
import { SSO_EXAMPLES } from './sso-examples.ts';
import { escapeHtml } from '../../kernel/lib/text/html-escape.ts';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'wb_session';

/** Settings of the sign-in flow. */
export interface SignInSettings {
  sessionHours: number;
  /** How long a started sign-in may take before its state is forgotten. */
  loginTimeoutMinutes: number;
}

interface PendingLogin {
  codeVerifier: string;
  nonce: string;
  returnTo: string;
  redirectUri: string;
  startedAt: number;
}

/** Most sign-ins in flight at once; the oldest is dropped beyond it, so the table stays bounded. */
const MAX_PENDING = 1000;
const SIGN_IN: Pick<RouteDefinition, 'tags' | 'tier'> = { tags: ['sso'], tier: 'enterprise' };

/** A same-origin path to return to after sign-in, or the default. */
function safeReturnTo(value: string | undefined): string {
  return value && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : '/auth/me';
}

function hostOf(request: RouteRequest): string {
  // The request guard has already refused any Host that is not a loopback name of this server.
  return String(request.headers.host);
}

/** What the sign-in routes work with. */
export interface SignInRouteDeps {
  /** The providers, pending sign-ins and sessions. */
  store: SsoStore;
  /** The issuer sign-in currently uses. */
  active: ActiveIssuer;
  /** Maps a signed-in identity to a workbench user. */
  users: UserMapping;
  /** Where each sign-in and sign-out is recorded. */
  audit: AuditTrail;
  /** The sign-in settings of the plugin's configuration. */
  settings: SignInSettings;
  /** The clock sessions expire by. */
  clock: Clock;
}

/** Registers the sign-in routes. */
export function registerSignInRoutes(routes: RouteRegistrar, deps: SignInRouteDeps): void {
  const { store, active, users, audit, settings } = deps;
  const pending = new Map<string, PendingLogin>();

  const forgetStale = () => {
    const cutoff = Date.now() - settings.loginTimeoutMinutes * 60_000;
    for (const [state, login] of pending) {
      if (login.startedAt >= cutoff && pending.size < MAX_PENDING) break;
      pending.delete(state);
    }
  };

  routes.route({
    ...SIGN_IN,
    method: 'GET',
    url: '/auth/login',
    examples: SSO_EXAMPLES.login,
    // The browser is sent on to the provider.
    successStatus: 302,
    summary: 'Start browser sign-in at the configured provider (authorization code with PKCE); redirects',
    query: z.object({ returnTo: z.string().max(2000).optional() }).strict(),
    errors: ['SSO_NOT_CONFIGURED'],
    response: z.string(),
    async handler(request): Promise<RawResponse> {
      const issuer = await active.current();
      if (!issuer) throw ssoErrors.create('SSO_NOT_CONFIGURED');
      forgetStale();
      const client = await import('openid-client');
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const redirectUri = `http://${hostOf(request)}/auth/callback`;
      pending.set(state, { codeVerifier, nonce, returnTo: safeReturnTo(request.query.returnTo), redirectUri, startedAt: Date.now() });
      const url = client.buildAuthorizationUrl(issuer.configuration, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { raw: true, status: 302, contentType: 'text/plain; charset=utf-8', headers: { location: url.href }, body: '' };
    },
  });

  routes.route({
    ...SIGN_IN,
    method: 'GET',
    url: '/auth/callback',
    examples: SSO_EXAMPLES.callback,
    summary: 'Where the provider returns after sign-in: redeems the code, opens a session (cookie), returns',
    // The provider's parameters (RFC 6749 and 9207); any others it adds are passed on to the code exchange as they came.
    query: z.looseObject({
      code: z.string().max(4000).optional(),
      state: z.string().max(4000).optional(),
      iss: z.string().max(4000).optional(),
      error: z.string().max(4000).optional(),
      error_description: z.string().max(4000).optional(),
    }),
    errors: ['SSO_SIGN_IN_FAILED', 'SSO_NOT_CONFIGURED', 'SSO_USER_UNKNOWN'],
    response: z.string(),
    async handler(request): Promise<RawResponse> {
      const context2 = auditContextOf(request);
      const refuse = async (error: WorkbenchError, actor = 'anonymous') => {
        await audit.record({
          ...context2,
          actor,
          actorKind: actor === 'anonymous' ? 'anonymous' : 'user',
          action: 'session.sign-in',
          resourceType: 'session',
          outcome: 'denied',
          details: { code: error.code },
        });
        return error;
      };
      const state = request.query.state;
      const login = state ? pending.get(state) : undefined;
      if (!state || !login) {
        throw await refuse(ssoErrors.create('SSO_SIGN_IN_FAILED', { reason: 'this sign-in is unknown or has expired; start again at /auth/login.' }));
      }
      pending.delete(state);
      if (request.query.error) {
        const reason = `the provider answered ${request.query.error}${request.query.error_description ? `: ${request.query.error_description}` : ''}.`;
        throw await refuse(ssoErrors.create('SSO_SIGN_IN_FAILED', { reason }));
      }
      const issuer = await active.current();
      if (!issuer) throw ssoErrors.create('SSO_NOT_CONFIGURED');
      const currentUrl = new URL(login.redirectUri);
      for (const [name, value] of Object.entries(request.query)) {
        if (typeof value === 'string') currentUrl.searchParams.set(name, value);
      }
      const client = await import('openid-client');
      let claims;
      try {
        const tokens = await client.authorizationCodeGrant(issuer.configuration, currentUrl, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        const reason = `${(error as Error).message}`.replace(/\s+/g, ' ').slice(0, 300);
        throw await refuse(ssoErrors.create('SSO_SIGN_IN_FAILED', { reason }));
      }
      if (!claims) throw await refuse(ssoErrors.create('SSO_SIGN_IN_FAILED', { reason: 'the provider sent no ID token.' }));
      let userId: string;
      try {
        userId = await users.userOf(issuer, claims, { requestId: request.requestId, sourceAddress: request.sourceAddress });
      } catch (error) {
        if (error instanceof WorkbenchError) throw await refuse(error, String(claims.sub));
        throw error;
      }
      const value = randomBytes(32).toString('base64url');
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + settings.sessionHours * 3_600_000);
      await store.createSession(value, { userId, issuer: issuer.issuer, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
      await audit.record({
        ...context2,
        actor: userId,
        actorKind: 'user',
        action: 'session.sign-in',
        resourceType: 'session',
        resourceId: userId,
        outcome: 'success',
        details: { issuer: issuer.issuer, expiresAt: expiresAt.toISOString() },
      });
      const cookie = `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${settings.sessionHours * 3600}`;
      // A page that moves on by itself: a redirect straight from the provider's cross-site navigation would not
      // carry the SameSite=Strict cookie, a same-site navigation from this page does.
      const target = escapeHtml(login.returnTo);
      return {
        raw: true,
        contentType: 'text/html; charset=utf-8',
        headers: { 'set-cookie': cookie, 'cache-control': 'no-store' },
        body: `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}"><title>Signed in</title><p>Signed in as ${escapeHtml(userId)}. <a href="${target}">Continue</a></p>`,
      };
    },
  });

  const logout = async (request: RouteRequest): Promise<RawResponse> => {
    const value = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = value ? await store.session(value, deps.clock.now().toISOString()) : undefined;
    const ended = value ? await store.endSession(value) : false;
    if (ended && session) {
      await audit.record({
        ...auditContextOf(request),
        actor: session.userId,
        actorKind: 'user',
        action: 'session.sign-out',
        resourceType: 'session',
        resourceId: session.userId,
        outcome: 'success',
      });
    }
    return {
      raw: true,
      contentType: 'application/json; charset=utf-8',
      headers: { 'set-cookie': `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`, 'cache-control': 'no-store' },
      body: JSON.stringify({ success: true, data: { signedOut: ended }, error: null }),
    };
  };
  for (const method of ['GET', 'POST'] as const) {
    routes.route({
      ...SIGN_IN,
      method,
      url: '/auth/logout',
      summary: 'End the browser session and clear its cookie',
      examples: SSO_EXAMPLES.logout,
      // The handler sends the whole envelope itself, with the cookie that clears the session.
      envelope: false,
      response: z.object({ success: z.boolean(), data: z.object({ signedOut: z.boolean() }), error: z.null() }),
      handler: logout,
    });
  }

  routes.route({
    ...SIGN_IN,
    method: 'GET',
    url: '/auth/me',
    examples: SSO_EXAMPLES.me,
    summary: 'Who is signed in (session cookie or bearer credential)',
    optionalAuth: true,
    response: z.object({
      authenticated: z.boolean(),
      userId: z.string().nullable(),
      kind: z.string().nullable(),
      roles: z.array(z.string()),
      organizationId: z.string().nullable(),
    }),
    handler({ principal }) {
      if (!principal) return { authenticated: false, userId: null, kind: null, roles: [], organizationId: null };
      return {
        authenticated: true,
        userId: principal.kind === 'api-key' ? `wbk_${principal.subject}` : principal.subject,
        kind: principal.kind,
        roles: principal.roles,
        organizationId: principal.organizationId ?? null,
      };
    },
  });
}
