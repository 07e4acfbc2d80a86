// A start hook that fails because the database is unreachable (the store went away while the service was starting)
// does not end the boot: it is run again until it succeeds; any other failure still fails the start, naming the
// plugin.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { LifecycleHooks } from '../../kernel/lifecycle.ts';
import { waitFor } from '../monitor/monitor-harness.ts';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('start hooks and an unreachable database', () => {
  it('runs a hook that met an unreachable database again until it succeeds, and the boot goes on', async () => {
    const hooks = new LifecycleHooks(pino({ level: 'silent' }));
    let calls = 0;
    let started = false;
    hooks.forOwner('monitor').onStart(async () => {
      calls++;
      if (calls < 3) throw refused();
      started = true;
    });
    let later = false;
    hooks.forOwner('audit').onStart(() => {
      later = true;
    });
    await hooks.runStart();
    expect(later).toBe(true);
    await waitFor(() => started, 15_000, 'the monitor started on its third try');
    expect(calls).toBe(3);
    await hooks.runStop(1_000);
  });

  it('still fails the start on any other error, naming the plugin', async () => {
    const hooks = new LifecycleHooks(pino({ level: 'silent' }));
    hooks.forOwner('monitor').onStart(() => {
      throw new Error('folder listing broke');
    });
    await expect(hooks.runStart()).rejects.toThrow('Plugin "monitor" failed to start: folder listing broke');
  });
});
