import { container } from 'tsyringe';
import { describe, expect, it } from 'vitest';
import type { PluginContext } from '../../kernel/plugin-api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { SYNTHETIC_DATA, syntheticDataErrors, syntheticDataOf } from '../../plugins/synthetic-data/api.ts';
import { plugin } from '../../plugins/synthetic-data/index.ts';

describe('synthetic-data plugin', () => {
  it('registers the service under its token', async () => {
    const child = container.createChildContainer();
    const catalogues: unknown[] = [];
    await plugin.register({ container: child, registerErrors: (c: unknown) => catalogues.push(c) } as unknown as PluginContext);
    expect(catalogues).toEqual([syntheticDataErrors.catalogue]);
    const service = resolveService(child, SYNTHETIC_DATA);
    expect(service.createRandom(1).person()).toEqual(service.createRandom(1).person());
  });

  it('is looked up by standards only when they generate (503 GENERATION_UNAVAILABLE without it)', () => {
    const child = container.createChildContainer();
    const lazy = syntheticDataOf(child);
    expect(() => lazy.createRandom(1)).toThrow(expect.objectContaining({ code: 'GENERATION_UNAVAILABLE', status: 503 }));
    child.registerInstance(SYNTHETIC_DATA, { createRandom: (seed?: number) => ({ seed }) as never });
    expect(lazy.createRandom(5)).toEqual({ seed: 5 });
  });
});
