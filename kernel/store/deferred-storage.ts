/**
 * Storage for one-shot commands: nothing is opened (nor the database layer loaded) until something needs it: a
 * command that uses the database, or a plugin that migrates its tables while registering (it may query them right
 * after). The kernel's own migrations wait in a queue and run, in order, when the storage opens; the `db` everyone
 * holds forwards to the real instance from then on, and using it before that is a clear error, not a hang. With
 * plugins that keep their database work for when it is needed, commands that never touch the database (validate,
 * diff, generate, help) start without it.
 */
import type { Kysely, Migration } from 'kysely';
import type { Storage } from '../storage.ts';

/** A storage that opens on demand. */
export interface DeferredStorage extends Storage {
  /** Opens the real storage and runs the queued migrations; safe to call twice. */
  open(): Promise<void>;
  /** Queues the migrations and opens the storage (which runs them): for callers that use the tables next. */
  migrateNow(namespace: string, migrations: Record<string, Migration>): Promise<void>;
}

/** Wraps an opener; `dialect` is known from the config before anything opens. */
export function createDeferredStorage(
  dialect: Storage['dialect'],
  openReal: () => Promise<Storage>,
): DeferredStorage {
  let real: Storage | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  const queued: Array<{ namespace: string; migrations: Record<string, Migration> }> = [];

  const current = (): Storage => {
    if (!real) {
      throw new Error(
        'The database is not open: this command was declared as not using storage (CliCommand.usesStorage: false).',
      );
    }
    return real;
  };
  // Kysely keeps its state in private fields, so its methods must run on the real instance, never on the proxy.
  // tables belong to plugins, each of which types its own
  const db = new Proxy({} as Kysely<any>, {
    get(_target, property) {
      const instance = current().db;
      const value: unknown = Reflect.get(instance, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(instance) : value;
    },
    has: (_target, property) => Reflect.has(current().db, property),
    getPrototypeOf: () => Reflect.getPrototypeOf(current().db),
  });

  const open = async (): Promise<void> => {
    if (closed) throw new Error('The storage is closed.');
    opening ??= (async () => {
      const storage = await openReal();
      try {
        for (const { namespace, migrations } of queued) await storage.migrate(namespace, migrations);
      } catch (error) {
        await storage.close();
        throw error;
      }
      real = storage;
    })();
    await opening;
  };

  return {
    db,
    dialect,
    get sqlite() {
      return current().sqlite;
    },
    get sql() {
      return current().sql;
    },
    open,
    async migrate(namespace, migrations) {
      if (real) await real.migrate(namespace, migrations);
      else queued.push({ namespace, migrations });
    },
    async migrateNow(namespace, migrations) {
      if (real) return real.migrate(namespace, migrations);
      // Queued rather than run directly: the opening in progress (if any) runs the queue in order, this one included.
      queued.push({ namespace, migrations });
      await open();
    },
    async ping(timeoutMs) {
      try {
        await open();
      } catch {
        return false;
      }
      return current().ping(timeoutMs);
    },
    async close() {
      closed = true;
      if (opening) await opening.catch(() => undefined);
      await real?.close();
    },
  };
}
