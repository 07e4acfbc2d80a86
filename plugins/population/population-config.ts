/**
 * The population plugin's config section (`plugins.population`): queue, k-anonymity, database timeouts, job
 * retention, disk reserve.
 */
import { z } from 'zod';

/** Schema of the section. */
export const populationConfigSchema = z
  .object({
    maxQueuedJobs: z.number().int().min(1).max(1000).default(10),
    kAnonymity: z.number().int().min(2).max(1000).default(5),
    connectTimeoutMs: z.number().int().min(100).max(120_000).default(5000),
    statementTimeoutMs: z.number().int().min(1000).max(3_600_000).default(300_000),
    /** Days a finished job and its files are kept (0: kept until deleted by hand). */
    jobRetentionDays: z.number().int().min(0).max(3650).default(14),
    /** Disk a job must leave free on the data folder's file system (the store and the system need room too). */
    diskReserveMb: z.number().int().min(0).max(100_000_000).default(1024),
  })
  .strict();

/** The population plugin's validated config. */
export type PopulationConfig = z.infer<typeof populationConfigSchema>;
