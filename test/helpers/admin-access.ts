/**
 * Credentials for admin-route tests: API keys of each role, and a check that a route refuses the anonymous caller
 * and bad credentials (401) and a valid non-admin (403) before it answers an admin.
 */
import { expect } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import type { TestRequest, TestResponse } from './http-client.ts';
import type { TestWorkbench } from './test-workbench.ts';

/** One key per role. */
export interface RoleKeys {
  admin: string;
  operator: string;
  viewer: string;
}

/** Makes an API key of each role. */
export async function createRoleKeys(wb: TestWorkbench): Promise<RoleKeys> {
  const keys = resolveService(wb.workbench.container, TOKENS.ApiKeys);
  return {
    admin: (await keys.create('MonitorAdmin', 'test admin')).key,
    operator: (await keys.create('MonitorOperator', 'test operator')).key,
    viewer: (await keys.create('MonitorViewer', 'test viewer')).key,
  };
}

/** The request with a bearer token. */
export function withBearer(request: TestRequest, token: string): TestRequest {
  return { ...request, headers: { ...(request.headers ?? {}), authorization: `Bearer ${token}` } };
}

/**
 * Sends the request anonymously, with a malformed header, with an unknown key, and as viewer and operator, expecting
 * 401, 401, 401, 403, 403; then as admin, and returns that answer.
 */
export async function expectAdminOnly(wb: TestWorkbench, keys: RoleKeys, request: TestRequest): Promise<TestResponse> {
  const label = `${request.method ?? 'GET'} ${request.path}`;
  const anonymous = await wb.call('monitor', request);
  expect(anonymous.status, `${label} anonymous`).toBe(401);
  const malformed = await wb.call('monitor', { ...request, headers: { ...(request.headers ?? {}), authorization: 'Basic x' } });
  expect(malformed.status, `${label} malformed`).toBe(401);
  const unknown = await wb.call('monitor', withBearer(request, `wbk_aaaaaaaaaaaa_${'A'.repeat(43)}`));
  expect(unknown.status, `${label} unknown key`).toBe(401);
  for (const role of ['viewer', 'operator'] as const) {
    const refused = await wb.call('monitor', withBearer(request, keys[role]));
    expect(refused.status, `${label} as ${role}`).toBe(403);
    expect(refused.json.error.code).toBe('FORBIDDEN');
  }
  return wb.call('monitor', withBearer(request, keys.admin));
}
