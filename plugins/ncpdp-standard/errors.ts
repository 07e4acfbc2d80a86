/**
 * Error catalogue of the NCPDP plugin: the request-level failures an adapter call may raise (bad message type,
 * version or profile, an unparseable side of a diff). Bad message content is never an error here: it is a
 * validation finding (`PARSE_ERROR`, `VERSION_MISSING`, ...).
 */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** The NCPDP plugin's error codes (all 400: the request asked for something the adapter cannot do). */
export const ncpdpErrors = defineErrorCatalogue({
  UNKNOWN_MESSAGE_TYPE: {
    status: 400,
    message: 'NCPDP cannot generate message type "{messageType}"; supported types: {supported}.',
  },
  UNSUPPORTED_VERSION: {
    status: 400,
    message: 'NCPDP version "{version}" is not supported{reason}; supported versions: {supported}.',
  },
  PROFILE_NOT_FOUND: {
    status: 400,
    message: 'No NCPDP profile named "{profile}" is loaded; loaded profiles: {available}.',
  },
  MESSAGE_UNPARSEABLE: {
    status: 400,
    message: 'The {side} message cannot be compared: {reason}',
  },
});
