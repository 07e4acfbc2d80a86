// A feature flag named after a plugin switches that plugin's routes off (404 FEATURE_DISABLED) and on again, with
// no code in the plugin: the kernel's registrar asks the flag store the feature-flags plugin supplies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { createRoleKeys, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import { EXAMPLE_HL7 } from '../../plugins/message-bridge/bridge-examples.ts';

let wb: TestWorkbench;
let keys: RoleKeys;

beforeAll(async () => {
  wb = await startTestWorkbench({
    onlyPlugins: new Set(['admin', 'message-bridge', 'hl7-standard', 'health']),
    config: { tier: 'enterprise', plugins: { 'feature-flags': { flags: { monitor: false } } } },
  });
  keys = await createRoleKeys(wb);
});
afterAll(() => wb.stop());

const setFlag = (name: string, body: Record<string, unknown>) =>
  wb.call('monitor', withBearer({ method: 'PUT', path: `/api/monitor/admin/features/${name}`, body }, keys.admin));

describe('feature flags switch route groups', () => {
  it('a flag set false in the config switches its plugin off from the start', async () => {
    const res = await wb.call('monitor', { path: '/api/monitor/interfaces' });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('FEATURE_DISABLED');
    expect(res.json.error.message).toContain('feature flag "monitor"');
    expect(res.json.error.details).toEqual({ flag: 'monitor' });
    // The admin, flag and health routes stay on whatever the flags say.
    expect((await wb.call('monitor', { path: '/api/health' })).status).toBe(200);
    const flags = await wb.call('monitor', { path: '/api/features' });
    expect(flags.json.data.flags.monitor).toBe(false);
  });

  it('an admin switches a route group off and on again, and the routes follow at once', async () => {
    const validate = () => wb.call('bridge', { path: '/api/validate', body: { messageContent: EXAMPLE_HL7 } });
    expect((await validate()).status).toBe(200);
    expect((await setFlag('message-bridge', { enabled: false })).status).toBe(200);
    const off = await validate();
    expect(off.status).toBe(404);
    expect(off.json.error).toMatchObject({ code: 'FEATURE_DISABLED', details: { flag: 'message-bridge' } });
    expect((await setFlag('message-bridge', { enabled: true })).status).toBe(200);
    expect((await validate()).status).toBe(200);
    const removed = await wb.call('monitor', withBearer({ method: 'DELETE', path: '/api/monitor/admin/features/message-bridge' }, keys.admin));
    expect(removed.status).toBeLessThan(300);
    expect((await validate()).status).toBe(200);
  });
});
