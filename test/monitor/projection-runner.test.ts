// The monitor's projection runner over a real store (SQLite, and PostgreSQL when its test URL is set), with a plain
// projection that counts messages per interface: each message is folded exactly once whatever the timing (catch-ups
// asked together, two nodes on one store, a fold that fails, a restart), and the scheduled catch-up follows commits.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Kysely } from 'kysely';
import type { MessageFilter, MessageStreamOptions, MonitorStore, Projection } from '../../plugins/monitor/api.ts';
import type { ProjectionRunner } from '../../plugins/monitor/projections/projection-runner.ts';
import { openFreshStorage, type FreshStorage } from '../helpers/fresh-storage.ts';
import { migratePositions, runnerOver } from '../helpers/projection-runner.ts';
import { storages } from './monitor-harness.ts';

interface Committed {
  id: string;
  cursor: string;
  interfaceId: string;
}

/** Stored messages streamed after a cursor, one page boundary (a pass of the event loop) per message. */
function storeOf(messages: Committed[]): Pick<MonitorStore, 'streamMessages'> {
  return {
    async *streamMessages(_filter: MessageFilter, options: MessageStreamOptions = {}) {
      for (const message of [...messages]) {
        if (options.after && message.cursor <= options.after) continue;
        await new Promise((done) => setImmediate(done));
        yield message;
      }
    },
  } as unknown as Pick<MonitorStore, 'streamMessages'>;
}

function committed(index: number, interfaceId = index % 2 === 0 ? 'even' : 'odd'): Committed {
  return { id: `${index}.0`, cursor: `c${String(index).padStart(6, '0')}`, interfaceId };
}

/** A projection counting messages per interface in `test_counts`; `failOn` makes the fold of that message's batch throw. */
function counting(options: { batchMessages?: number; failOn?: Set<string>; adopt?: Projection<'interfaceId'>['adopt'] } = {}): Projection<'interfaceId'> {
  return {
    name: 'test-counts',
    fields: ['interfaceId'],
    batchMessages: options.batchMessages ?? 3,
    async fold(messages, db: Kysely<any>) {
      for (const message of messages) {
        await db
          .insertInto('test_counts')
          .values({ interface_id: message.interfaceId, messages: 1 })
          .onConflict((conflict) => conflict.column('interface_id').doUpdateSet((eb) => ({ messages: eb('test_counts.messages', '+', 1) })))
          .execute();
        // after the write: a failed batch must take its rows back with it
        if (options.failOn?.has(message.id)) throw new Error(`fold of ${message.id} failed`);
      }
    },
    ...(options.adopt ? { adopt: options.adopt } : {}),
  };
}

/** The plain reference: messages per interface, counted here. */
function expected(messages: readonly Committed[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const message of messages) counts[message.interfaceId] = (counts[message.interfaceId] ?? 0) + 1;
  return counts;
}

describe.each(storages())('projection runner (%s)', (storage) => {
  let fresh: FreshStorage;
  const runners: ProjectionRunner[] = [];

  async function open(): Promise<Kysely<any>> {
    fresh = await openFreshStorage(storage, 'projection-runner-');
    await migratePositions(fresh.storage);
    await fresh.storage.db.schema
      .createTable('test_counts')
      .addColumn('interface_id', 'varchar(20)', (c) => c.primaryKey())
      .addColumn('messages', 'integer', (c) => c.notNull())
      .execute();
    return fresh.storage.db;
  }

  function runner(messages: Committed[]): ProjectionRunner {
    const made = runnerOver(fresh.storage, storeOf(messages));
    runners.push(made);
    return made;
  }

  async function counts(db: Kysely<any>): Promise<Record<string, number>> {
    const rows = await db.selectFrom('test_counts').select(['interface_id', 'messages']).execute();
    return Object.fromEntries(rows.map((row) => [row.interface_id, Number(row.messages)]));
  }

  afterEach(async () => {
    for (const made of runners.splice(0)) await made.stop();
    await fresh.remove();
  });

  it('folds each message once: catch-ups asked together, two nodes racing, a restart', async () => {
    const db = await open();
    const messages = Array.from({ length: 10 }, (_, i) => committed(i));
    const first = runner(messages).register(counting());
    await Promise.all([first.catchUp(), first.catchUp(), first.catchUp()]);
    expect(await counts(db)).toEqual(expected(messages));
    messages.push(...Array.from({ length: 17 }, (_, i) => committed(10 + i)));
    const second = runner(messages).register(counting());
    await Promise.all([first.catchUp(), second.catchUp()]);
    expect(await counts(db)).toEqual(expected(messages));
    await runner(messages).register(counting()).catchUp();
    expect(await counts(db)).toEqual(expected(messages));
    const position = await db.selectFrom('monitor_projections').select('cursor').where('name', '=', 'test-counts').executeTakeFirst();
    expect(position?.cursor).toBe(messages.at(-1)!.cursor);
  });

  it('writes nothing of a batch whose fold failed, and folds it at the next catch-up', async () => {
    const db = await open();
    const messages = Array.from({ length: 8 }, (_, i) => committed(i));
    const failOn = new Set(['4.0']);
    const handle = runner(messages).register(counting({ failOn }));
    await expect(handle.catchUp()).rejects.toThrow('fold of 4.0 failed');
    // batches of three: the first went in, the second (messages 3 to 5) did not
    expect(await counts(db)).toEqual(expected(messages.slice(0, 3)));
    failOn.clear();
    await handle.catchUp();
    expect(await counts(db)).toEqual(expected(messages));
  });

  it('runs exclusive work between catch-ups and adopts a former position once', async () => {
    const db = await open();
    const messages = Array.from({ length: 6 }, (_, i) => committed(i));
    let adopted = 0;
    const handle = runner(messages).register(
      counting({
        adopt: async () => {
          adopted++;
          return messages[1]!.cursor;
        },
      }),
    );
    const catchingUp = handle.catchUp();
    const during = handle.exclusive(async () => counts(db));
    await catchingUp;
    // the work queued after the catch-up saw all it folded: the messages after the adopted position
    expect(await during).toEqual(expected(messages.slice(2)));
    messages.push(committed(6));
    await runner(messages).register(counting({ adopt: async () => 'c999999' })).catchUp();
    expect(adopted).toBe(1);
    expect(await counts(db)).toEqual(expected(messages.slice(2)));
  });

  it('adopts a former position of none once, then folds every message', async () => {
    const db = await open();
    const messages = Array.from({ length: 5 }, (_, i) => committed(i));
    let adopted = 0;
    const adopt = async () => {
      adopted++;
      return null;
    };
    await runner(messages).register(counting({ adopt })).catchUp();
    messages.push(committed(5));
    await runner(messages).register(counting({ adopt })).catchUp();
    expect(adopted).toBe(1);
    expect(await counts(db)).toEqual(expected(messages));
  });

  it('refuses a second projection of one name and a name out of its alphabet', async () => {
    await open();
    const made = runner([]);
    made.register(counting());
    expect(() => made.register(counting())).toThrow('registered already');
    expect(() => made.register({ ...counting(), name: 'Bad Name' })).toThrow('a-z, 0-9 and -');
  });

  it('catches up on its own once commits pause', async () => {
    const db = await open();
    const messages = Array.from({ length: 4 }, (_, i) => committed(i));
    const made = runner(messages);
    made.register(counting());
    made.schedule();
    await vi.waitFor(async () => expect(await counts(db)).toEqual(expected(messages)), { timeout: 10_000, interval: 100 });
  });
});
