// The MonitorAdmin policy with API keys and JWTs (HS256 secret and a JWKS server), through real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type JWK } from 'jose';
import { createHmac } from 'node:crypto';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const secretKey = new TextEncoder().encode(SECRET);
let wb: TestWorkbench;
let jwks: Server;
let rsa: Awaited<ReturnType<typeof generateKeyPair>>;

const admin = (token: string) => ({ path: '/api/sample/admin', headers: { authorization: `Bearer ${token}` } });

function hs256(claims: Record<string, unknown>, expiresIn: string | number = '5m') {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expiresIn);
}

beforeAll(async () => {
  rsa = await generateKeyPair('RS256', { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(rsa.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwks = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
  wb = await startTestWorkbench({
    skipBundledPlugins: true,
    pluginDirs: [join(fixturesDir, 'plugins')],
    config: { auth: { jwt: { hs256Secret: SECRET, jwksUrl, audience: 'workbench', issuer: 'https://idp.test' } } },
  });
});
afterAll(async () => {
  await wb.stop();
  jwks.close();
});

describe('API keys', () => {
  it('401 without credentials, 401 malformed, 401 unknown key', async () => {
    const none = await wb.call('monitor', { path: '/api/sample/admin' });
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe('UNAUTHORIZED');
    expect((await wb.call('monitor', { path: '/api/sample/admin', headers: { authorization: 'Basic abc' } })).status).toBe(401);
    const unknown = await wb.call('monitor', admin(`wbk_aaaaaaaaaaaa_${'A'.repeat(43)}`));
    expect(unknown.status).toBe(401);
  });

  it('200 with a MonitorAdmin key, 403 with another role, 401 once revoked', async () => {
    const keys = resolveService(wb.workbench.container, TOKENS.ApiKeys);
    const adminKey = await keys.create('MonitorAdmin', 'ops');
    const viewerKey = await keys.create('MonitorViewer', 'viewer');
    expect(adminKey.key).toMatch(/^wbk_[a-z0-9]{12}_/);
    const ok = await wb.call('monitor', admin(adminKey.key));
    expect(ok.status).toBe(200);
    expect(ok.json.data).toEqual({ subject: adminKey.id, kind: 'api-key' });
    const forbidden = await wb.call('monitor', admin(viewerKey.key));
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error.code).toBe('FORBIDDEN');
    // A key one character off is refused.
    const tampered = adminKey.key.slice(0, -1) + (adminKey.key.endsWith('A') ? 'B' : 'A');
    expect((await wb.call('monitor', admin(tampered))).status).toBe(401);
    expect(await keys.revoke(adminKey.prefix)).toBe(true);
    expect((await wb.call('monitor', admin(adminKey.key))).status).toBe(401);
  });

  it('stores only a digest, never the key', async () => {
    const keys = resolveService(wb.workbench.container, TOKENS.ApiKeys);
    const created = await keys.create('MonitorAdmin');
    const rows = (await wb.workbench.storage.db
      .selectFrom('kernel_api_keys')
      .selectAll()
      .execute()) as Array<{ id: string; digest: string }>;
    const serialized = JSON.stringify(rows);
    expect(serialized).not.toContain(created.key);
    expect(serialized).not.toContain(created.key.slice(created.prefix.length + 1));
    expect(rows.find((r) => r.id === created.id)?.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('JWT', () => {
  const base = { iss: 'https://idp.test', aud: 'workbench' };

  it('accepts an HS256 token with the role claim', async () => {
    const token = await hs256({ ...base, sub: 'ana', roles: ['MonitorAdmin'] }).sign(secretKey);
    const res = await wb.call('monitor', admin(token));
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ subject: 'ana', kind: 'jwt' });
  });

  it('403 for a valid token without the role; roles also come from the assignments store', async () => {
    const token = await hs256({ ...base, sub: 'bo', roles: ['MonitorViewer'] }).sign(secretKey);
    expect((await wb.call('monitor', admin(token))).status).toBe(403);
    const auth = resolveService(wb.workbench.container, TOKENS.Auth);
    await auth.roles.assign('bo', 'MonitorAdmin');
    expect((await wb.call('monitor', admin(token))).status).toBe(200);
    await auth.roles.revoke('bo');
  });

  it('accepts an RS256 token from the JWKS', async () => {
    const token = await new SignJWT({ ...base, sub: 'cy', roles: 'MonitorAdmin' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setExpirationTime('5m')
      .sign(rsa.privateKey);
    expect((await wb.call('monitor', admin(token))).status).toBe(200);
  });

  it('refuses alg none', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ ...base, sub: 'eve', roles: ['MonitorAdmin'], exp: Math.floor(Date.now() / 1000) + 300 }),
    ).toString('base64url');
    const res = await wb.call('monitor', admin(`${header}.${payload}.`));
    expect(res.status).toBe(401);
  });

  it('refuses an HS256 token signed with the RSA public key (algorithm confusion)', async () => {
    const pem = await exportSPKI(rsa.publicKey);
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'k1' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ ...base, sub: 'eve', roles: ['MonitorAdmin'], exp: Math.floor(Date.now() / 1000) + 300 }),
    ).toString('base64url');
    const signature = createHmac('sha256', pem).update(`${header}.${payload}`).digest('base64url');
    const res = await wb.call('monitor', admin(`${header}.${payload}.${signature}`));
    expect(res.status).toBe(401);
  });

  it('refuses an expired token (beyond the 60 s tolerance) but accepts one within it', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await hs256({ ...base, sub: 'ana', roles: ['MonitorAdmin'] }, now - 120).sign(secretKey);
    const res = await wb.call('monitor', admin(expired));
    expect(res.status).toBe(401);
    expect(res.json.error.message).toMatch(/expired/);
    const withinTolerance = await hs256({ ...base, sub: 'ana', roles: ['MonitorAdmin'] }, now - 30).sign(secretKey);
    expect((await wb.call('monitor', admin(withinTolerance))).status).toBe(200);
  });

  it('refuses a wrong audience, a wrong issuer and a token without exp', async () => {
    const wrongAud = await hs256({ ...base, aud: 'other', sub: 'ana', roles: ['MonitorAdmin'] }).sign(secretKey);
    expect((await wb.call('monitor', admin(wrongAud))).status).toBe(401);
    const wrongIss = await hs256({ ...base, iss: 'https://evil', sub: 'ana', roles: ['MonitorAdmin'] }).sign(secretKey);
    expect((await wb.call('monitor', admin(wrongIss))).status).toBe(401);
    const noExp = await new SignJWT({ ...base, sub: 'ana', roles: ['MonitorAdmin'] })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secretKey);
    expect((await wb.call('monitor', admin(noExp))).status).toBe(401);
  });

  it('refuses a token signed with another secret and garbage', async () => {
    const other = await hs256({ ...base, sub: 'ana', roles: ['MonitorAdmin'] }).sign(
      new TextEncoder().encode('another-secret-of-at-least-32-characters'),
    );
    expect((await wb.call('monitor', admin(other))).status).toBe(401);
    expect((await wb.call('monitor', admin('not.a.jwt'))).status).toBe(401);
  });
});
