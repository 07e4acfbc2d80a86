/**
 * Error catalogue of the FHIR plugin: the request-level failures an adapter call may raise (bad message type,
 * version or profile, an unparseable side of a diff). Bad message content is never an error here: it is a
 * validation finding (`PARSE_ERROR`, `NOT_FHIR_RESOURCE`).
 */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** The FHIR plugin's error codes (all 400: the request asked for something the adapter cannot do). */
export const fhirErrors = defineErrorCatalogue({
  UNKNOWN_MESSAGE_TYPE: {
    status: 400,
    message: 'FHIR cannot generate message type "{messageType}"; supported types: {supported}.',
  },
  UNSUPPORTED_VERSION: {
    status: 400,
    message: 'FHIR version "{version}" is not supported; supported versions: {supported}.',
  },
  PROFILE_NOT_FOUND: {
    status: 400,
    message: 'No FHIR profile named "{profile}" is loaded; loaded profiles: {available}.',
  },
  MESSAGE_UNPARSEABLE: {
    status: 400,
    message: 'The {side} message cannot be compared: {reason}',
  },
});
