/**
 * Storage for one-shot commands: nothing is opened (nor the database layer loaded) until a command that uses the
 * database asks for it. Plugins register as usual: their migrations are queued and run, in order, when the storage
 * opens; the `db` they hold forwards to the real instance from then on. Using `db` before that is a clear error, not
 * a hang. Commands that never touch the database (validate, diff, generate, help) thus start without it.
 */
import type { Kysely, Migration } from 'kysely';
import type { Storage } from './storage.ts';

/** A storage that opens on demand. */
export interface DeferredStorage extends Storage {
  /** Opens the real storage and runs the queued migrations; safe to call twice. */
  open(): Promise<void>;
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
    get sql() {
      return current().sql;
    },
    open,
    async migrate(namespace, migrations) {
      if (real) await real.migrate(namespace, migrations);
      else queued.push({ namespace, migrations });
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
