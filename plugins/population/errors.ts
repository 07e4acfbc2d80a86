/** Error catalogue of the population plugin. */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the population routes raise. */
export const populationErrors = defineErrorCatalogue({
  CONNECTION_STRING_INVALID: {
    status: 400,
    message: 'connectionString is not a usable {provider} connection string: {reason}.',
  },
  DATABASE_UNREACHABLE: {
    status: 502,
    message: 'Could not connect to the {provider} server at {host}: {reason}.',
  },
  DATABASE_NOT_CONNECTED: {
    status: 409,
    message: 'No database is connected; POST /api/population/connect first, then {action}.',
  },
  UNKNOWN_AREA: {
    status: 400,
    message: 'geographicFocus "{area}" is not known; use "us" or a state as "us-" and its USPS code (for example "us-ca").',
  },
  UNKNOWN_TABLES: {
    status: 400,
    message: 'The connected schema has no table {tables}; known tables: {known}.',
  },
  POPULATION_JOB_NOT_FOUND: { status: 404, message: 'No population job has the id "{id}".' },
  POPULATION_JOB_NOT_COMPLETED: { status: 409, message: 'Population job "{id}" is {state}; {what} is available once it has completed.' },
  POPULATION_DISK_FULL: {
    status: 507,
    message: 'The job would write about {needed}{ahead} but {free} is free on the disk of the data folder (past plugins.population.diskReserveMb){hint}; delete finished jobs (DELETE /api/population/generate/{id}) or generate fewer patients.',
  },
  POPULATION_QUEUE_FULL: { status: 503, message: '{queued} population jobs are already waiting; try again when one has finished.' },
  POPULATION_FILE_NOT_FOUND: { status: 404, message: 'Population job "{id}" has no file "{name}"; its files are {files}.' },
  LEARNED_PROFILE_NOT_FOUND: { status: 404, message: 'No learned profile is named "{name}".' },
  SEED_FORMAT_UNSUPPORTED: {
    status: 409,
    message: 'Population job "{id}" was generated as {format}; only sql and csv populations are seeded into a database.',
  },
  SEED_NO_TARGET_TABLES: {
    status: 409,
    message: 'The connected schema has none of the population tables ({tables}), so there is nothing to seed into.',
  },
  SEED_RUN_NOT_FOUND: { status: 404, message: 'No seed run has the id "{id}".' },
  CLEANUP_NOT_FOUND: { status: 404, message: 'No cleanup has the id "{id}" (cleanups are kept in memory until the service stops).' },
  SEED_BUSY: { status: 409, message: 'A seed or cleanup is already running on this database (run "{id}"); wait for it to finish.' },
  NOTHING_TO_CLEAN: {
    status: 404,
    message: 'Nothing was seeded into {database} by this workbench (or it was already cleaned up), so there is nothing to delete.',
  },
  CLEANUP_FAILED: {
    status: 409,
    message: 'Cleanup stopped at table {table}: {reason}. The deletions of that seed run were rolled back; runs cleaned before it stay cleaned.',
  },
});
