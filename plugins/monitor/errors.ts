/** Error catalogue of the monitor plugin (listed in the README's error table). */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** The monitor's error codes. */
export const monitorErrors = defineErrorCatalogue({
  DIRECTORY_UNREADABLE: {
    status: 400,
    message: 'directoryPath "{path}" is not an existing readable directory: {reason}.',
  },
  FILE_PATTERN_INVALID: { status: 400, message: 'filePattern "{pattern}" is not a valid glob: {reason}.' },
  INTERFACE_NOT_FOUND: { status: 404, message: 'No monitored interface has the id "{interfaceId}".' },
  PROFILE_NOT_FOUND: { status: 400, message: 'profileName "{profile}" names no loaded profile; loaded: {loaded}.' },
  MESSAGE_FILTER_INVALID: { status: 400, message: 'The message query is invalid: {reason}.' },
  MESSAGE_CURSOR_INVALID: { status: 400, message: 'Cursor "{cursor}" is not a position this store gave out; use the next or cursor value of an earlier read.' },
  ROLLUP_QUERY_INVALID: { status: 400, message: 'The roll-up query is invalid: {reason}.' },
  STANDARD_UNAVAILABLE: {
    status: 400,
    message: 'standard "{standard}" cannot be monitored here: no loaded plugin reads its files; available: {available}.',
  },
  INTERFACE_NAME_TAKEN: { status: 409, message: 'An interface named "{name}" already exists (names are compared ignoring case).' },
  INTERFACE_FOLDER_TAKEN: {
    status: 409,
    message: 'Interface "{other}" ({otherId}) already watches {path} with pattern "{pattern}", which can match the same files; one file would be counted twice.',
  },
  NODE_ALIVE: {
    status: 409,
    message: 'Node "{name}" is alive (its heartbeat is within the lease of {leaseSeconds} s); only a dead node can be removed.',
  },
});
