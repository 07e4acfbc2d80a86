// Engines under single sign-on: the AES-256-GCM secret box (round trip, tamper detection, 0600 key file), the
// issuer address rule, and the cookie reader, which parses untrusted headers (property-tested).
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { SecretBox } from '../../plugins/sso-oidc/secret-box.ts';
import { checkIssuerUrl, isLoopbackHost } from '../../plugins/sso-oidc/oidc-issuer.ts';
import { readCookie } from '../../kernel/auth/credential-contracts.ts';
import { WorkbenchError } from '../../kernel/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'wb-secret-box-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('secret box', () => {
  it('seals and opens any text; the key file is created once with mode 0600 and shared by instances', () => {
    const keyFile = join(dir, 'nested', 'key');
    const box = new SecretBox(keyFile);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (secret) => {
        const sealed = box.seal(secret);
        expect(sealed).not.toContain(secret.length > 3 ? secret : '\u0000never');
        expect(box.open(sealed)).toBe(secret);
      }),
      { numRuns: 50 },
    );
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(new SecretBox(keyFile).open(box.seal('shared'))).toBe('shared');
    chmodSync(keyFile, 0o644);
    new SecretBox(keyFile).seal('tightens');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('refuses a sealed secret that was altered or sealed under another key', () => {
    const box = new SecretBox(join(dir, 'a'));
    const sealed = box.seal('client-secret-value');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    expect(() => box.open([...parts.slice(0, 3), body.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox(join(dir, 'b')).open(sealed)).toThrow();
    expect(() => box.open('garbage')).toThrow(/format/);
  });
});

describe('issuer address', () => {
  it('requires https except on loopback addresses', () => {
    for (const ok of ['https://idp.example.com/realms/a', 'http://127.0.0.1:8080', 'http://localhost/x', 'http://[::1]:9000', 'http://127.10.0.3']) {
      expect(() => checkIssuerUrl(ok), ok).not.toThrow();
    }
    for (const bad of ['http://idp.example.com', 'http://10.0.0.5', 'http://127.0.0.1.evil.com', 'ftp://127.0.0.1', 'not a url']) {
      expect(() => checkIssuerUrl(bad), bad).toThrow(WorkbenchError);
    }
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });
});

describe('cookie reader', () => {
  const name = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
  const value = fc.stringMatching(/^[A-Za-z0-9_\-.~]{1,40}$/);

  it('finds each cookie of a header built from any set of cookies', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(name, value), { selector: ([n]) => n, minLength: 1, maxLength: 8 }), (cookies) => {
        const header = cookies.map(([n, v]) => `${n}=${v}`).join('; ');
        for (const [n, v] of cookies) expect(readCookie(header, n)).toBe(v);
        expect(readCookie(header, 'absent-name-xyz')).toBeUndefined();
      }),
    );
  });

  it('never throws on arbitrary header text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.string())), name, (header, wanted) => {
        const found = readCookie(header, wanted);
        expect(found === undefined || typeof found === 'string').toBe(true);
      }),
    );
  });
});
