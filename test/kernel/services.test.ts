// Unit tests of the kernel services plugins rely on: events, scheduler, cache, clock, profile packs.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { container as rootContainer } from 'tsyringe';
import { EventBus } from '../../kernel/events.ts';
import { createServiceRef, provideService, resolveService } from '../../kernel/service-ref.ts';
import { Scheduler } from '../../kernel/background/scheduler.ts';
import { Cache } from '../../kernel/cache.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { discoverProfilePacks } from '../../kernel/standards/profile-packs.ts';
import { StandardsRegistry, type StandardAdapter } from '../../kernel/standards-registry.ts';

const silent = pino({ level: 'silent' });

describe('EventBus', () => {
  // 'sample.note-created' is declared by the sample plugin of the fixtures (test/fixtures/plugins/sample-notes).
  it('delivers to every listener, isolates a failing one, unsubscribes and drains async listeners', async () => {
    const bus = new EventBus(silent);
    const seen: string[] = [];
    bus.on('sample.note-created', () => {
      throw new Error('listener bug');
    });
    const off = bus.on('sample.note-created', (payload) => {
      seen.push(String(payload.id));
    });
    bus.on('sample.note-created', async (payload) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push(`async ${payload.id}`);
    });
    bus.emit('sample.note-created', { id: 1, text: 'one' });
    expect(seen).toEqual(['1']);
    await bus.drain();
    expect(seen).toEqual(['1', 'async 1']);
    off();
    bus.emit('sample.note-created', { id: 2, text: 'two' });
    await bus.drain();
    expect(seen).toEqual(['1', 'async 1', 'async 2']);
    expect(bus.listenerCount('sample.note-created')).toBe(2);
  });

  it('takes declared event names and payloads only (a misspelt name or a wrong payload does not compile)', () => {
    const bus = new EventBus(silent);
    // @ts-expect-error: no plugin declares this event
    bus.on('sample.note-creatd', () => {});
    // @ts-expect-error: the payload of a declared event has its declared shape
    bus.emit('sample.note-created', { n: 1 });
    expect(bus.listenerCount('sample.note-created')).toBe(0);
  });
});

describe('service references', () => {
  it('resolve to the type they were made with, and refuse a provider of another shape', () => {
    const container = rootContainer.createChildContainer();
    const GREETER = createServiceRef<{ greet(name: string): string }>('workbench.test-greeter');
    provideService(container, GREETER, { greet: (name) => `hello ${name}` });
    expect(resolveService(container, GREETER).greet('you')).toBe('hello you');
    // The reference is the container token itself: resolving it by hand finds the same service.
    expect(container.resolve<{ greet(name: string): string }>(Symbol.for('workbench.test-greeter')).greet('me')).toBe('hello me');
    // @ts-expect-error: a provider must have the service's shape
    provideService(container, GREETER, { wave: () => 'hi' });
  });
});

describe('Scheduler', () => {
  it('refuses an invalid cron expression, lists jobs and stops them all', async () => {
    const scheduler = new Scheduler(silent);
    expect(() => scheduler.schedule('bad', 'every minute', () => {})).toThrow(/Invalid cron expression for job bad/);
    scheduler.schedule('report', '0 6 * * *', () => {});
    expect(scheduler.list()).toEqual(['report']);
    await scheduler.stopAll();
    expect(scheduler.list()).toEqual([]);
    expect(() => scheduler.schedule('late', '* * * * *', () => {})).toThrow(/stopped/);
  });

  it('runs a job on its tick', async () => {
    const scheduler = new Scheduler(silent);
    let runs = 0;
    scheduler.schedule('every-second', '* * * * * *', () => {
      runs++;
    });
    await expect.poll(() => runs, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(1);
    await scheduler.stopAll();
  });
});

describe('Cache and clock', () => {
  it('expires entries by the injected clock and evicts the oldest when full', () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const cache = new Cache(clock, 2);
    cache.set('a', 1, 1_000);
    clock.advance(999);
    expect(cache.get('a')).toBe(1);
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
    cache.set('x', 1);
    cache.set('y', 2);
    cache.set('z', 3);
    expect(cache.get('x')).toBeUndefined();
    expect(cache.get('z')).toBe(3);
    expect(cache.probe()).toBe(true);
  });

  it('reports unhealthy while thrashing (a whole capacity evicted within a minute) and recovers after', () => {
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const cache = new Cache(clock, 50);
    for (let i = 0; i < 50; i++) cache.set(`warm-${i}`, i);
    expect(cache.probe()).toBe(true);
    for (let i = 0; i < 49; i++) cache.set(`churn-${i}`, i);
    expect(cache.probe()).toBe(true);
    for (let i = 49; i < 60; i++) cache.set(`churn-${i}`, i);
    expect(cache.probe()).toBe(false);
    clock.advance(3 * 60_000);
    expect(cache.probe()).toBe(true);
  });
});

describe('profile packs', () => {
  it('discovers valid packs and reports broken ones without stopping the others', () => {
    const root = mkdtempSync(join(tmpdir(), 'wb-packs-'));
    mkdirSync(join(root, 'good-pack'));
    writeFileSync(
      join(root, 'good-pack', 'profile-pack.json'),
      JSON.stringify({ id: 'good-pack', version: '1.0.0', description: 'ok', standard: 'hl7' }),
    );
    writeFileSync(join(root, 'good-pack', 'adt.yaml'), 'name: x');
    writeFileSync(join(root, 'good-pack', 'notes.txt'), 'ignored');
    mkdirSync(join(root, 'broken-pack'));
    writeFileSync(join(root, 'broken-pack', 'profile-pack.json'), '{ nope');
    mkdirSync(join(root, 'no-manifest'));
    const { packs, problems } = discoverProfilePacks([root]);
    expect(packs.map((p) => p.manifest.id)).toEqual(['good-pack']);
    expect(packs[0].files.map((f) => f.split(/[/\\]/).pop())).toEqual(['adt.yaml']);
    expect(problems.map((p) => p.directory.split(/[/\\]/).pop()).sort()).toEqual(['broken-pack', 'no-manifest']);
    expect(problems.find((p) => p.directory.endsWith('broken-pack'))?.problem).toMatch(/not valid JSON/);
  });
});

describe('StandardsRegistry', () => {
  const adapter = (id: string, score: number) => ({ id, detect: () => score }) as unknown as StandardAdapter;

  it('picks the most confident adapter above the threshold and refuses duplicate ids', () => {
    const registry = new StandardsRegistry();
    registry.register(adapter('low', 0.3));
    registry.register(adapter('high', 0.9));
    registry.register(adapter('mid', 0.6));
    expect(registry.detect('x')?.id).toBe('high');
    expect(() => registry.register(adapter('high', 1))).toThrow(/already registered/);
    const quiet = new StandardsRegistry();
    quiet.register(adapter('low', 0.3));
    expect(quiet.detect('x')).toBeUndefined();
  });
});
