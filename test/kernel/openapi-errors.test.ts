// Every status a route can answer is in the OpenAPI document with its error codes and their messages (409, 502, 503
// and 507 included; the monitor's, the audit trail's and sign-in's too), and answers are checked strictly in tests: a
// field the response schema does not name fails.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestWorkbench } from '../helpers/test-workbench.ts';
import { checkResponse, ResponseSchemaMismatch } from '../../kernel/http/response-check.ts';

const wb = useTestWorkbench({ onlyPlugins: new Set(['admin', 'population', 'health', 'monitor', 'audit', 'sso-oidc']) });

type Operation = { responses: Record<string, { description: string }> };
const operation = async (base: 'monitor' | 'population', path: string, method: string): Promise<Operation> =>
  (await wb.call(base, { path: '/openapi.json' })).json.paths[path][method];

describe('error statuses in the OpenAPI documents', () => {
  it('lists each status a population route answers with its codes and messages', async () => {
    const submit = await operation('population', '/api/population/generate', 'post');
    expect(submit.responses['503'].description).toContain('`POPULATION_QUEUE_FULL`: {queued} population jobs are already waiting');
    expect(submit.responses['507'].description).toContain('`POPULATION_DISK_FULL`');
    expect(submit.responses['409'].description).toContain('`DATABASE_NOT_CONNECTED`');
    expect(submit.responses['402'].description).toContain('`TIER_REQUIRED`');
    expect(submit.responses['404'].description).toContain('`FEATURE_DISABLED`');
    const seed = await operation('population', '/api/population/seed', 'post');
    expect(seed.responses['409'].description).toContain('`SEED_BUSY`');
    expect(seed.responses['502'].description).toContain('`DATABASE_UNREACHABLE`');
  });

  it('lists the admin conflicts and the unhealthy health answer', async () => {
    const roles = await operation('monitor', '/api/monitor/admin/roles', 'post');
    expect(roles.responses['409'].description).toContain('`LAST_ADMIN`');
    expect(roles.responses['401'].description).toContain('`UNAUTHORIZED`');
    const workspaces = await operation('monitor', '/api/monitor/admin/workspaces', 'post');
    expect(workspaces.responses['409'].description).toContain('`WORKSPACE_EXISTS`');
    const health = await operation('monitor', '/api/health', 'get');
    expect(health.responses['503'].description).toContain('Unhealthy');
    // Health is never switched off, so it has no FEATURE_DISABLED.
    expect(health.responses['404'].description).not.toContain('FEATURE_DISABLED');
  });

  it('lists the errors of the monitor, audit and sign-in routes under their statuses', async () => {
    const create = await operation('monitor', '/api/monitor/interfaces', 'post');
    expect(create.responses['409'].description).toContain('`INTERFACE_NAME_TAKEN`');
    expect(create.responses['409'].description).toContain('`INTERFACE_FOLDER_TAKEN`');
    for (const code of ['DIRECTORY_UNREADABLE', 'STANDARD_UNAVAILABLE', 'PROFILE_NOT_FOUND', 'FILE_PATTERN_INVALID']) {
      expect(create.responses['400'].description).toContain(`\`${code}\``);
    }
    const update = await operation('monitor', '/api/monitor/interfaces/{id}', 'put');
    expect(update.responses['404'].description).toContain('`INTERFACE_NOT_FOUND`');
    expect(update.responses['409'].description).toContain('`INTERFACE_FOLDER_TAKEN`');
    for (const [path, method] of [
      ['/api/monitor/interfaces/{id}', 'get'],
      ['/api/monitor/interfaces/{id}', 'delete'],
      ['/api/monitor/interfaces/{id}/metrics', 'get'],
      ['/api/monitor/alerts', 'get'],
    ] as const) {
      expect((await operation('monitor', path, method)).responses['404'].description, `${method} ${path}`).toContain('`INTERFACE_NOT_FOUND`');
    }
    for (const [path, method] of [
      ['/api/monitor/alerts/{id}/acknowledge', 'post'],
      ['/api/monitor/sso/providers/{providerType}', 'delete'],
    ] as const) {
      expect((await operation('monitor', path, method)).responses['404'].description, `${method} ${path}`).toContain('`NOT_FOUND`');
    }
    for (const path of ['/api/monitor/audit', '/api/monitor/audit/export']) {
      expect((await operation('monitor', path, 'get')).responses['400'].description, path).toContain('`WINDOW_INVALID`');
    }
    const configure = await operation('monitor', '/api/monitor/sso/configure', 'post');
    expect(configure.responses['400'].description).toContain('`SSO_ISSUER_INSECURE`');
    expect(configure.responses['400'].description).toContain('`SSO_DISCOVERY_FAILED`');
    const login = await operation('monitor', '/auth/login', 'get');
    expect(login.responses['404'].description).toContain('`SSO_NOT_CONFIGURED`');
    const callback = await operation('monitor', '/auth/callback', 'get');
    expect(callback.responses['400'].description).toContain('`SSO_SIGN_IN_FAILED`');
    expect(callback.responses['403'].description).toContain('`SSO_USER_UNKNOWN`');
    expect(callback.responses['404'].description).toContain('`SSO_NOT_CONFIGURED`');
  });

  it('names only codes some catalogue defines', async () => {
    const known = new Set(wb.workbench.errors.list().map((row) => row.code));
    for (const base of ['bridge', 'monitor', 'population'] as const) {
      const document = (await wb.call(base, { path: '/openapi.json' })).json;
      for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
        for (const [method, op] of Object.entries(methods)) {
          for (const [status, response] of Object.entries(op.responses)) {
            if (Number(status) < 400) continue;
            for (const [, code] of response.description.matchAll(/`([A-Z][A-Z0-9_]+)`:/g)) {
              expect(known.has(code as string), `${method} ${path} ${status} ${code}`).toBe(true);
            }
          }
        }
      }
    }
  });
});

describe('strict response check', () => {
  const schema = z.object({ id: z.string(), items: z.array(z.object({ n: z.number() })) });

  it('fails an answer with a field the schema does not name, at any depth', () => {
    expect(() => checkResponse('GET /x', schema, { id: 'a', items: [{ n: 1 }] })).not.toThrow();
    const extra = () => checkResponse('GET /x', schema, { id: 'a', items: [{ n: 1 }, { n: 2, secret: 's' }], debug: true });
    expect(extra).toThrow(ResponseSchemaMismatch);
    expect(extra).toThrow('items[1].secret: not in the response schema; debug: not in the response schema');
  });

  it('leaves records and undefined optional fields alone', () => {
    const open = z.object({ byCode: z.record(z.string(), z.number()), note: z.string().optional() });
    expect(() => checkResponse('GET /y', open, { byCode: { A: 1, B: 2 }, note: undefined })).not.toThrow();
  });
});
