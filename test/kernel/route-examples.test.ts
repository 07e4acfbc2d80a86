// Every route of every base carries examples the docs page pre-fills: a request body, its path parameters and its
// answer, read back from the served OpenAPI documents. That each example parses with the route's own zod schemas is
// checked at registration (the test boot turns the check on, so the boot below would fail on a drifted example); the
// fixture plugin proves the check refuses one and names every problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '../../kernel/workbench.ts';
import { BASES } from '../../kernel/plugin-host/plugin-manifest.ts';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';

interface MediaType {
  example?: unknown;
}
interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; example?: unknown }>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

let wb: TestWorkbench;
const operations: Array<{ name: string; operation: Operation }> = [];

beforeAll(async () => {
  wb = await startTestWorkbench();
  for (const base of BASES) {
    const served = await wb.call(base, { path: '/openapi.json' });
    expect(served.status).toBe(200);
    const paths = served.json.paths as Record<string, Record<string, Operation>>;
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operations.push({ name: `${base} ${method.toUpperCase()} ${path}`, operation });
      }
    }
  }
});
afterAll(() => wb?.stop());

/** The documented success: the lowest status below 400 (a 2xx, or the 302 of a sign-in redirect). */
function success(operation: Operation): { status: string; content: Record<string, MediaType> } | undefined {
  const status = Object.keys(operation.responses)
    .filter((code) => Number(code) < 400)
    .sort()[0];
  return status === undefined ? undefined : { status, content: operation.responses[status].content ?? {} };
}

describe('route examples in the OpenAPI documents', () => {
  it('serves the routes of every base', () => {
    for (const base of BASES) expect(operations.some((o) => o.name.startsWith(`${base} `)), base).toBe(true);
  });

  it('gives every request body an example, for JSON and for each raw media type', () => {
    const missing = operations.flatMap(({ name, operation }) =>
      Object.entries(operation.requestBody?.content ?? {})
        .filter(([, media]) => media.example === undefined)
        .map(([type]) => `${name} (${type})`),
    );
    expect(missing).toEqual([]);
  });

  it('gives every success answer an example', () => {
    const missing = operations.flatMap(({ name, operation }) => {
      const answer = success(operation);
      if (!answer) return [`${name} (no success response)`];
      const media = Object.values(answer.content);
      return media.length > 0 && media.every((m) => m.example !== undefined) ? [] : [`${name} ${answer.status}`];
    });
    expect(missing).toEqual([]);
  });

  it('gives every path parameter and every required query parameter an example', () => {
    const missing = operations.flatMap(({ name, operation }) =>
      (operation.parameters ?? [])
        .filter((p) => (p.in === 'path' || p.required) && p.example === undefined)
        .map((p) => `${name} ${p.in}.${p.name}`),
    );
    expect(missing).toEqual([]);
  });

  it('wraps an enveloped answer example in {success, data, error}', async () => {
    const served = await wb.call('monitor', { path: '/openapi.json' });
    const status = served.json.paths['/api/monitor/status'].get.responses['200'].content['application/json'].example;
    expect(status).toMatchObject({ success: true, error: null, data: { state: expect.any(String), interfaces: expect.any(Array) } });
    const health = served.json.paths['/api/health'].get.responses['200'].content['application/json'].example;
    expect(health).toMatchObject({ status: 'healthy', checks: expect.any(Object) });
  });
});

describe('examples are checked against the route schemas', () => {
  const boot = (checkResponses: boolean) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-examples-'));
    return createWorkbench({
      env: {},
      skipBundledPlugins: true,
      checkResponses,
      pluginDirs: [join(fixturesDir, 'plugin-sets', 'stale-examples')],
      overrides: { dataDir, logging: { level: 'silent' }, servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } } },
    }).finally(() => rmSync(dataDir, { recursive: true, force: true }));
  };

  it('refuses at boot a route whose examples drifted, naming the route and every problem', async () => {
    const error = await boot(true).then(
      async (workbench) => {
        await workbench.stop();
        return undefined;
      },
      (e: Error) => e,
    );
    const text = String(error);
    expect(text).toContain('POST /api/stale/:channel');
    expect(text).toMatch(/query\.mode: /);
    expect(text).toMatch(/body\.messageContent: /);
    expect(text).toMatch(/body\.\(root\): .*message/);
    expect(text).toMatch(/rawBody\.messageContent: /);
    expect(text).toMatch(/response\.accepted: /);
    // The path and limit examples are sent as text and coerced, as a URL would carry them: no problem there.
    expect(text).not.toMatch(/params\./);
    expect(text).not.toMatch(/query\.limit/);
  });

  it('leaves the examples unchecked when the contract checks are off (production boots)', async () => {
    // the same stale examples that refuse a boot with the checks on
    await expect(boot(false).then((workbench) => workbench.stop())).resolves.toBeUndefined();
  });
});
