/**
 * Entry of the population plugin: synthetic patient populations on the population base. It stores its jobs,
 * profiles and seed runs through the kernel's storage, writes generated files under `<dataDir>/population/jobs`,
 * and draws every person from the synthetic-data service.
 */
import { join } from 'node:path';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { populationConfigSchema, type PopulationConfig } from './population-config.ts';
import { SYNTHETIC_DATA } from '../synthetic-data/api.ts';
import { populationErrors } from './errors.ts';
import { createGenerationJobs } from './generation/generation-jobs.ts';
import { registerGenerationRoutes } from './generation/generation-routes.ts';
import { populationMigrations } from './job-records.ts';
import { createProfileStore } from './database/profile-store.ts';
import { createDatabaseSession } from './database/database-session.ts';
import { registerDatabaseRoutes } from './database/database-routes.ts';
import { createSeedRuns } from './seeding/seed-runs.ts';

/** The plugin module the kernel loads. */
export const plugin: PluginModule<PopulationConfig> = {
  configSchema: populationConfigSchema,

  async register(context) {
    context.registerErrors(populationErrors.catalogue);
    await context.storage.migrate(populationMigrations);
    const db = context.storage.db;
    const profiles = createProfileStore(db);
    const synthetic = resolveService(context.container, SYNTHETIC_DATA);
    const now = () => context.clock.now();
    const timeouts = { connectMs: context.config.connectTimeoutMs, statementMs: context.config.statementTimeoutMs };
    const session = createDatabaseSession(timeouts, now);
    const jobs = createGenerationJobs({
      db,
      jobsDir: join(context.dataDir, 'population', 'jobs'),
      synthetic,
      logger: context.logger,
      now,
      generatorVersion: `workbench-population/${context.manifest.version}`,
      maxQueued: context.config.maxQueuedJobs,
      diskReserveBytes: context.config.diskReserveMb * 1024 * 1024,
      learnedIdentities: () => profiles.identities(),
    });
    const seeds = createSeedRuns({ db, jobs, profiles, synthetic, logger: context.logger, now });
    const retentionDays = context.config.jobRetentionDays;
    const pruneJobs = async () => {
      if (retentionDays === 0) return;
      const removed = await jobs.pruneFinishedBefore(new Date(context.clock.nowMs() - retentionDays * 86_400_000).toISOString());
      if (removed > 0) context.logger.info({ removed }, 'population removed generation jobs past their retention, with their files');
    };
    if (retentionDays > 0) context.scheduler.schedule('population-job-retention', '23 3 * * *', pruneJobs);
    // Only a serving process recovers and prunes: a one-shot command must not touch another process's jobs.
    context.lifecycle.onStart(async () => {
      await jobs.recoverInterrupted();
      await seeds.recoverInterrupted();
      await pruneJobs();
      await jobs.start();
    });
    context.lifecycle.onStop(async () => {
      await jobs.stop();
      await session.close();
    });
    registerGenerationRoutes(context.routes, {
      jobs,
      target: { connected: () => session.peek(), sqlTargets: (connected) => seeds.sqlTargets(connected) },
    });
    registerDatabaseRoutes(context.routes, { session, profiles, seeds, timeouts, k: context.config.kAnonymity, now });
  },
};
