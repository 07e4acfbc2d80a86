/** Stored interfaces: rows of `monitor_interfaces` to and from {@link MonitoredInterface}. */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { decodeCursor, pageOf, type Page } from '../../../kernel/http/paging.ts';
import type { AlertRuleOverrides, InterfaceStandard, InterfaceValidationMode, MonitoredInterface } from '../api.ts';
import { monitorErrors } from '../errors.ts';
import type { InterfaceRow, MonitorDatabase } from '../monitor-tables.ts';

/** Fields of a new interface (already checked). */
export interface NewInterface {
  name: string;
  standard: InterfaceStandard;
  directoryPath: string;
  filePattern: string;
  profileName: string | null;
  validationMode: InterfaceValidationMode;
  recursive: boolean;
  usePolling: boolean;
  alertRules: AlertRuleOverrides;
}

/** Fields an update may change. */
export type InterfaceChanges = Partial<NewInterface & { enabled: boolean }>;

function toInterface(row: InterfaceRow): MonitoredInterface {
  return {
    id: row.id,
    name: row.name,
    standard: (['hl7', 'fhir', 'ncpdp'].includes(row.standard) ? row.standard : 'auto') as InterfaceStandard,
    directoryPath: row.directory_path,
    filePattern: row.file_pattern,
    profileName: row.profile_name,
    validationMode: row.validation_mode === 'strict' ? 'strict' : 'compatibility',
    enabled: Boolean(row.enabled),
    recursive: Boolean(row.recursive),
    usePolling: Boolean(row.use_polling),
    alertRules: JSON.parse(row.alert_rules) as AlertRuleOverrides,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Two requests creating the same name at once meet the unique index: the loser gets 409, not 500. */
function nameTakenOr(error: unknown, name: string): unknown {
  const code = (error as { code?: string }).code;
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return monitorErrors.create('INTERFACE_NAME_TAKEN', { name }, [
      { location: 'body', path: 'name', message: `an interface named "${name}" already exists` },
    ]);
  }
  return error;
}

/** Reads and writes interfaces. */
export class InterfaceStore {
  constructor(private readonly db: Kysely<MonitorDatabase>) {}

  /** Every interface, by name. */
  async list(): Promise<MonitoredInterface[]> {
    const rows = await this.db.selectFrom('monitor_interfaces').selectAll().orderBy('name').execute();
    return rows.map(toInterface);
  }

  /** One keyset page of the interfaces, by name (ties by id): at most `limit`, and `next` when more follow. */
  async page(request: { limit: number; cursor?: string | undefined }): Promise<Page<MonitoredInterface>> {
    let query = this.db.selectFrom('monitor_interfaces').selectAll();
    if (request.cursor !== undefined) {
      const [name, id] = decodeCursor(request.cursor, ['string', 'string']) as [string, string];
      query = query.where((eb) => eb.or([eb('name', '>', name), eb.and([eb('name', '=', name), eb('id', '>', id)])]));
    }
    const rows = await query.orderBy('name').orderBy('id').limit(request.limit + 1).execute();
    return pageOf(rows.map(toInterface), request.limit, (monitored) => [monitored.name, monitored.id]);
  }

  /** One interface or undefined. */
  async get(id: string): Promise<MonitoredInterface | undefined> {
    const row = await this.db.selectFrom('monitor_interfaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toInterface(row) : undefined;
  }

  /** The interface with that name compared ignoring case, if any. */
  async findByName(name: string): Promise<MonitoredInterface | undefined> {
    // names are unique ignoring case: "ADT Feed" and "adt feed" would be two rows a person cannot tell apart
    const row = await this.db
      .selectFrom('monitor_interfaces')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
      .executeTakeFirst();
    return row ? toInterface(row) : undefined;
  }

  /** Stores a new interface, enabled. */
  async create(input: NewInterface, at: string): Promise<MonitoredInterface> {
    const row: InterfaceRow = {
      id: randomUUID(),
      name: input.name,
      directory_path: input.directoryPath,
      file_pattern: input.filePattern,
      profile_name: input.profileName,
      standard: input.standard,
      validation_mode: input.validationMode,
      enabled: 1,
      recursive: input.recursive ? 1 : 0,
      use_polling: input.usePolling ? 1 : 0,
      alert_rules: JSON.stringify(input.alertRules),
      created_at: at,
      updated_at: at,
    };
    try {
      await this.db.insertInto('monitor_interfaces').values(row).execute();
    } catch (error) {
      throw nameTakenOr(error, input.name);
    }
    return toInterface(row);
  }

  /** Applies changes; returns the updated interface or undefined when the id is unknown. */
  async update(id: string, changes: InterfaceChanges, at: string): Promise<MonitoredInterface | undefined> {
    const values: Partial<InterfaceRow> = { updated_at: at };
    if (changes.name !== undefined) values.name = changes.name;
    if (changes.directoryPath !== undefined) values.directory_path = changes.directoryPath;
    if (changes.filePattern !== undefined) values.file_pattern = changes.filePattern;
    if (changes.profileName !== undefined) values.profile_name = changes.profileName;
    if (changes.standard !== undefined) values.standard = changes.standard;
    if (changes.validationMode !== undefined) values.validation_mode = changes.validationMode;
    if (changes.enabled !== undefined) values.enabled = changes.enabled ? 1 : 0;
    if (changes.recursive !== undefined) values.recursive = changes.recursive ? 1 : 0;
    if (changes.usePolling !== undefined) values.use_polling = changes.usePolling ? 1 : 0;
    if (changes.alertRules !== undefined) values.alert_rules = JSON.stringify(changes.alertRules);
    let result;
    try {
      result = await this.db.updateTable('monitor_interfaces').set(values).where('id', '=', id).executeTakeFirst();
    } catch (error) {
      throw nameTakenOr(error, changes.name ?? '');
    }
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.get(id);
  }

  /**
   * Removes an interface with its ledger, stored messages and every roll-up (minutes, hours, days, their latency
   * histograms and dimension rows), in one transaction: once it commits, no figure of any window counts the
   * interface, and no reader needs a filter of its own to leave it out. Each delete is served by an index that starts
   * with the interface (or the step and the interface), so its cost follows the deleted interface's rows, not the
   * tables. Alerts stay as history (they carry the interface's name). Returns false for an unknown id.
   */
  async remove(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('monitor_interfaces').where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      const fileIds = trx.selectFrom('monitor_files').select('id').where('interface_id', '=', id);
      await trx.deleteFrom('monitor_message_identifiers').where('file_id', 'in', fileIds).execute();
      await trx.deleteFrom('monitor_messages').where('interface_id', '=', id).execute();
      await trx.deleteFrom('monitor_files').where('interface_id', '=', id).execute();
      await trx.deleteFrom('monitor_minutes').where('interface_id', '=', id).execute();
      await trx.deleteFrom('monitor_minute_latency').where('interface_id', '=', id).execute();
      for (const step of ['hour', 'day']) {
        await trx.deleteFrom('monitor_rollups').where('step', '=', step).where('interface_id', '=', id).execute();
        await trx.deleteFrom('monitor_rollup_latency').where('step', '=', step).where('interface_id', '=', id).execute();
      }
      await trx.deleteFrom('monitor_rollup_dimensions').where('interface_id', '=', id).execute();
      return true;
    });
  }
}
