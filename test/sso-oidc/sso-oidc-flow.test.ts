// Single sign-on against a real OpenID provider running in-process on a loopback port: configuration through the
// API (discovery, https rule, sealed write-only secret), browser sign-in with authorization code + PKCE and a session
// cookie, the issuer's ID and access tokens used as bearer credentials on an admin route, and refusals (other
// issuer, expired, wrong audience, unknown user without just-in-time provisioning).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { SignJWT, generateKeyPair } from 'jose';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { createRoleKeys, expectAdminOnly, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import type { TestRequest } from '../helpers/http-client.ts';
import { API_RESOURCE, TestBrowser, startOidcProvider, type ProviderFixture } from './oidc-provider-fixture.ts';

/** Where the test's own client (standing in for a command-line tool) receives its code; never listened on. */
const TOOL_REDIRECT = 'http://127.0.0.1:9/tool-callback';
let wb: TestWorkbench;
let keys: RoleKeys;
let idp: ProviderFixture;
const logLines: string[] = [];

const asAdmin = (request: TestRequest) => wb.call('monitor', withBearer(request, keys.admin));
const configure = (overrides: Record<string, unknown> = {}) =>
  asAdmin({
    method: 'POST',
    path: '/api/monitor/sso/configure',
    body: {
      providerType: 'oidc',
      displayName: 'Fixture IdP',
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      issuerUrl: idp.issuer,
      jitProvisioning: true,
      audiences: [API_RESOURCE],
      ...overrides,
    },
  });

beforeAll(async () => {
  wb = await startTestWorkbench({
    config: { logging: { level: 'debug' } },
    logDestination: new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  });
  keys = await createRoleKeys(wb);
  idp = await startOidcProvider([`${wb.urls.monitor}/auth/callback`, TOOL_REDIRECT]);
});
afterAll(async () => {
  await wb.stop();
  await idp.close();
});

describe('provider configuration', () => {
  it('refuses a plain-http issuer that is not loopback, and one whose discovery fails, naming the reason', async () => {
    const insecure = await configure({ issuerUrl: 'http://idp.example.com/realms/x' });
    expect(insecure.status).toBe(400);
    expect(insecure.json.error.code).toBe('SSO_ISSUER_INSECURE');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nothingHere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/nothing-here`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await configure({ issuerUrl: nothingHere });
    expect(unreachable.status).toBe(400);
    expect(unreachable.json.error.code).toBe('SSO_DISCOVERY_FAILED');
    expect(unreachable.json.error.message).toContain(nothingHere);
    expect((await configure({ providerType: 'saml' })).status).toBe(400);
    expect((await configure({ clientSecret: undefined })).status).toBe(400);
  });

  it('configures through discovery; the secret is sealed at rest, never answered, never logged', async () => {
    const configured = await expectAdminOnly(wb, keys, {
      method: 'POST',
      path: '/api/monitor/sso/configure',
      body: { providerType: 'oidc', displayName: 'Fixture IdP', clientId: idp.clientId, clientSecret: idp.clientSecret, issuerUrl: idp.issuer, jitProvisioning: true, audiences: [API_RESOURCE] },
    });
    expect(configured.status).toBe(200);
    expect(configured.json.data).toMatchObject({ providerType: 'oidc', issuer: idp.issuer, clientSecretSet: true, jitProvisioning: true });
    const listed = await expectAdminOnly(wb, keys, { path: '/api/monitor/sso/providers' });
    expect(listed.json.data).toHaveLength(1);
    expect(listed.text).not.toContain(idp.clientSecret);
    expect(configured.text).not.toContain(idp.clientSecret);

    const rows = await wb.workbench.storage.db.selectFrom('sso_providers').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(idp.clientSecret);
    expect(rows[0].client_secret_sealed).toMatch(/^v1\./);
    const keyFile = join(wb.dataDir, 'sso-secret.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile)).toHaveLength(32);
    const audit = await asAdmin({ path: '/api/monitor/audit/export?format=json' });
    expect(audit.text).toContain('sso.configure');
    expect(audit.text).not.toContain(idp.clientSecret);
    expect(logLines.join('')).not.toContain(idp.clientSecret);
  });
});

describe('browser sign-in', () => {
  it('signs in through the code flow with PKCE, keeps an HttpOnly SameSite=Strict expiring cookie, and signs out', async () => {
    const browser = new TestBrowser();
    const monitor = new URL(wb.urls.monitor);
    const start = await browser.request(new URL('/auth/login?returnTo=/api/monitor/admin/roles', monitor));
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location') ?? '');
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();

    const landed = await browser.signIn(authorize, 'alice', (url) => url.origin === monitor.origin && url.pathname === '/auth/callback');
    expect(landed.response?.status).toBe(200);
    const setCookie = landed.response?.headers.getSetCookie().join('\n') ?? '';
    expect(setCookie).toMatch(/wb_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=28800/);
    expect(landed.text).toContain('url=/api/monitor/admin/roles');
    const session = browser.cookie(monitor.origin, 'wb_session') ?? '';
    const cookie = { cookie: `wb_session=${session}` };

    // Just-in-time provisioning made alice@example.test a MonitorViewer: signed in, but not an admin.
    const me = await wb.call('monitor', { path: '/auth/me', headers: cookie });
    expect(me.json.data).toEqual({ authenticated: true, userId: 'alice@example.test', kind: 'session', roles: ['MonitorViewer'], organizationId: null });
    expect((await wb.call('monitor', { path: '/api/monitor/admin/roles', headers: cookie })).status).toBe(403);
    await asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: 'alice@example.test', role: 'MonitorAdmin' } });
    const asSession = await wb.call('monitor', { path: '/api/monitor/admin/roles', headers: cookie });
    expect(asSession.status).toBe(200);

    // A state-changing request with the cookie from a foreign page is refused before routing.
    const crossSite = await wb.call('monitor', {
      method: 'POST',
      path: '/api/monitor/admin/roles',
      headers: { ...cookie, origin: 'http://evil.example' },
      body: { userId: 'mallory', role: 'MonitorAdmin' },
    });
    expect(crossSite.status).toBe(403);

    const out = await wb.call('monitor', { method: 'POST', path: '/auth/logout', headers: cookie });
    expect(out.json.data).toEqual({ signedOut: true });
    expect(out.headers['set-cookie']?.[0]).toContain('Max-Age=0');
    expect((await wb.call('monitor', { path: '/api/monitor/admin/roles', headers: cookie })).status).toBe(401);
    // The browser may still send the ended session's cookie: it counts as no credential at all.
    expect((await wb.call('monitor', { path: '/auth/me', headers: cookie })).json.data.authenticated).toBe(false);
    expect((await wb.call('monitor', { path: '/api/features', headers: cookie })).json.data.scope).toBe('global');

    const actions = (await asAdmin({ path: '/api/monitor/audit/?resourceType=session' })).json.data.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['session.sign-out', 'session.sign-in']);
    const provisioned = await asAdmin({ path: '/api/monitor/audit/?action=user.provision' });
    expect(provisioned.json.data.entries[0]).toMatchObject({ resourceId: 'alice@example.test', details: { role: 'MonitorViewer' } });
  });

  it('documents the sign-in and provider routes in the monitor OpenAPI document', async () => {
    const doc = await wb.call('monitor', { path: '/openapi.json' });
    expect(doc.status).toBe(200);
    for (const path of ['/auth/login', '/auth/callback', '/auth/logout', '/auth/me', '/api/monitor/sso/configure', '/metrics']) {
      expect(Object.keys(doc.json.paths)).toContain(path);
    }
  });

  it('refuses a callback with an unknown state', async () => {
    const answer = await wb.call('monitor', { path: '/auth/callback?code=abc&state=forged' });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('SSO_SIGN_IN_FAILED');
  });
});

describe('bearer tokens from the issuer', () => {
  let idToken: string;
  let accessToken: string;

  beforeAll(async () => {
    // A tool signs in at the provider on its own and receives the provider's tokens.
    const config = await client.discovery(new URL(idp.issuer), idp.clientId, idp.clientSecret, client.ClientSecretBasic(idp.clientSecret), {
      execute: [client.allowInsecureRequests],
    });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: TOOL_REDIRECT,
      scope: 'openid email profile api',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource: API_RESOURCE,
    });
    const browser = new TestBrowser();
    const landed = await browser.signIn(url, 'alice', (next) => next.href.startsWith(TOOL_REDIRECT), false);
    const tokens = await client.authorizationCodeGrant(config, landed.url, { pkceCodeVerifier: verifier, expectedState: state });
    idToken = tokens.id_token ?? '';
    accessToken = tokens.access_token;
  });

  it('accepts the ID token and the JWT access token on an admin route, with the role from role assignments', async () => {
    expect(idToken.split('.')).toHaveLength(3);
    expect(accessToken.split('.')).toHaveLength(3);
    expect((await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles' }, idToken))).status).toBe(200);
    expect((await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles' }, accessToken))).status).toBe(200);
    const me = await wb.call('monitor', withBearer({ path: '/auth/me' }, accessToken));
    expect(me.json.data).toMatchObject({ userId: 'alice@example.test', kind: 'jwt', roles: ['MonitorAdmin'] });
  });

  it('401 for another issuer, an expired token and a wrong audience; 403 for an unknown user without provisioning', async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ sub: 'alice', aud: idp.clientId, iss: 'http://127.0.0.1:9/other' })
      .setProtectedHeader({ alg: 'RS256' })
      .setExpirationTime(now + 300)
      .sign(other.privateKey);
    const expired = await idp.sign({ sub: 'alice', aud: idp.clientId, iss: idp.issuer }, now - 3600);
    const wrongAudience = await idp.sign({ sub: 'alice', aud: 'someone-else', iss: idp.issuer }, now + 300);
    const forgedKey = await new SignJWT({ sub: 'alice', aud: idp.clientId, iss: idp.issuer })
      .setProtectedHeader({ alg: 'RS256', kid: 'fixture-key' })
      .setExpirationTime(now + 300)
      .sign(other.privateKey);
    for (const [label, token] of [['other issuer', foreign], ['expired', expired], ['wrong audience', wrongAudience], ['forged signature', forgedKey]]) {
      const answer = await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles' }, token));
      expect(answer.status, label).toBe(401);
    }
    expect((await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles' }, expired))).json.error.message).toMatch(/expired/);

    await configure({ jitProvisioning: false });
    const stranger = await idp.sign({ sub: 'stranger', aud: idp.clientId, iss: idp.issuer, email: 'stranger@example.test' }, now + 300);
    const refused = await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles' }, stranger));
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('SSO_USER_UNKNOWN');
    // A role assigned in advance to the e-mail address lets the same person in.
    await asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: 'stranger@example.test', role: 'MonitorAdmin' } });
    expect((await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles' }, stranger))).status).toBe(200);
  });

  it('removing the provider stops its tokens (404 the second time)', async () => {
    const removed = await expectAdminOnly(wb, keys, { method: 'DELETE', path: '/api/monitor/sso/providers/oidc' });
    expect(removed.status).toBe(200);
    expect((await asAdmin({ method: 'DELETE', path: '/api/monitor/sso/providers/oidc' })).status).toBe(404);
    expect((await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles' }, idToken))).status).toBe(401);
    expect((await wb.call('monitor', { path: '/auth/login' })).status).toBe(404);
  });
});
