/**
 * Learned profiles, stored by name: aggregates of a connected database's tables (never rows) and, when a table
 * holds people, the salted identity hashes the compliance check compares generated patients with.
 */
import type { Kysely } from 'kysely';
import type { LearnedIdentities } from '../generation/compliance-checks.ts';
import { populationErrors } from '../errors.ts';
import type { PopulationTables } from '../job-records.ts';
import type { LearnedProfile } from './profile-learner.ts';

/** The profile store. */
export function createProfileStore(db: Kysely<PopulationTables>) {
  return {
    /** Stores (or replaces) a profile under its name. */
    async save(profile: LearnedProfile): Promise<void> {
      const row = { name: profile.name, created_at: profile.learnedAt, profile: JSON.stringify(profile) };
      await db.deleteFrom('population_profiles').where('name', '=', profile.name).execute();
      await db.insertInto('population_profiles').values(row).execute();
    },

    /** Every profile's summary (name, when, tables), newest first. */
    async list(): Promise<Array<{ name: string; learnedAt: string; tables: string[]; sampledRows: number; hasIdentities: boolean }>> {
      const rows = await db.selectFrom('population_profiles').selectAll().orderBy('created_at', 'desc').execute();
      return rows.map((row) => {
        const profile = JSON.parse(row.profile) as LearnedProfile;
        return {
          name: profile.name,
          learnedAt: profile.learnedAt,
          tables: profile.tables.map((t) => t.table),
          sampledRows: profile.tables.reduce((sum, t) => sum + t.sampledRows, 0),
          hasIdentities: profile.identities !== null,
        };
      });
    },

    /** One profile (404 when unknown); the identity hashes are summarised, not listed. */
    async get(name: string): Promise<LearnedProfile> {
      const row = await db.selectFrom('population_profiles').selectAll().where('name', '=', name).executeTakeFirst();
      if (!row) throw populationErrors.create('LEARNED_PROFILE_NOT_FOUND', { name });
      return JSON.parse(row.profile) as LearnedProfile;
    },

    /** The salted identity hashes of every profile that has them. */
    async identities(): Promise<LearnedIdentities[]> {
      const rows = await db.selectFrom('population_profiles').selectAll().execute();
      const out: LearnedIdentities[] = [];
      for (const row of rows) {
        const profile = JSON.parse(row.profile) as LearnedProfile;
        if (profile.identities) out.push({ profile: profile.name, salt: profile.identities.salt, hashes: new Set(profile.identities.hashes) });
      }
      return out;
    },
  };
}

/** The profile store's type. */
export type ProfileStore = ReturnType<typeof createProfileStore>;
