/**
 * Feature flags: defaults from the plugin's config section, overridden by rows in storage. A row with an
 * organisation id applies only to callers of that organisation.
 */
import type { Kysely, Migration } from 'kysely';
import type { FeatureFlags, StoredFeatureFlag } from './api.ts';

/** Table of stored flags. */
export interface FeatureFlagRow {
  name: string;
  /** Empty string for a global flag. */
  organization_id: string;
  enabled: number;
  updated_at: string;
}

/** Migrations of the feature-flags plugin. */
export const featureFlagMigrations: Record<string, Migration> = {
  '001_feature_flags': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('feature_flags')
        .ifNotExists()
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('organization_id', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('feature_flags_pk', ['name', 'organization_id'])
        .execute();
    },
  },
};

/** Reads flags for a scope. */
export class FeatureFlagStore implements FeatureFlags {
  constructor(
    private readonly db: Kysely<{ feature_flags: FeatureFlagRow }>,
    private readonly configDefaults: Record<string, boolean>,
  ) {}

  /** Effective flags per scope, dropped whenever a flag is set or removed. */
  private readonly scopes = new Map<string, Readonly<Record<string, boolean>>>();

  /** The config defaults. */
  defaults(): Record<string, boolean> {
    return { ...this.configDefaults };
  }

  /** Global flags: config defaults overridden by global rows. */
  async global(): Promise<Record<string, boolean>> {
    return { ...(await this.scope('')) };
  }

  /** Flags of an organisation: the global flags overridden by that organisation's rows. */
  async forOrganization(organizationId: string): Promise<Record<string, boolean>> {
    return { ...(await this.scope(organizationId)) };
  }

  /**
   * True when `flag` is explicitly false for the organisation (or globally when none is given). Every request to a
   * switchable route asks, so the answer comes from memory once a scope has been read.
   */
  async isOff(flag: string, organizationId: string | undefined): Promise<boolean> {
    return (await this.scope(organizationId ?? ''))[flag] === false;
  }

  /**
   * The effective flags of a scope ('' = global), read once and kept until a flag changes. Only this store writes
   * the table (the admin routes go through it), so the copy in memory cannot be stale.
   */
  private async scope(organizationId: string): Promise<Readonly<Record<string, boolean>>> {
    const known = this.scopes.get(organizationId);
    if (known) return known;
    const rows = await this.db.selectFrom('feature_flags').selectAll().where('organization_id', '=', organizationId).execute();
    const own = Object.fromEntries(rows.map((r) => [r.name, Boolean(r.enabled)]));
    const flags = organizationId === '' ? { ...this.configDefaults, ...own } : { ...(await this.scope('')), ...own };
    this.scopes.set(organizationId, flags);
    return flags;
  }

  /** Sets a flag (global when organizationId is empty). */
  async set(name: string, enabled: boolean, organizationId: string, at: string): Promise<void> {
    this.scopes.clear();
    await this.db
      .deleteFrom('feature_flags')
      .where('name', '=', name)
      .where('organization_id', '=', organizationId)
      .execute();
    await this.db
      .insertInto('feature_flags')
      .values({ name, organization_id: organizationId, enabled: enabled ? 1 : 0, updated_at: at })
      .execute();
  }

  /** Removes a stored flag; false when none was stored. */
  async remove(name: string, organizationId: string): Promise<boolean> {
    this.scopes.clear();
    const result = await this.db
      .deleteFrom('feature_flags')
      .where('name', '=', name)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Stored flags of one organisation ('' = global), or all. */
  async stored(organizationId?: string): Promise<StoredFeatureFlag[]> {
    let query = this.db.selectFrom('feature_flags').selectAll();
    if (organizationId !== undefined) query = query.where('organization_id', '=', organizationId);
    const rows = await query.orderBy('organization_id').orderBy('name').execute();
    return rows.map((r) => ({ name: r.name, organizationId: r.organization_id, enabled: Boolean(r.enabled), updatedAt: r.updated_at }));
  }
}
