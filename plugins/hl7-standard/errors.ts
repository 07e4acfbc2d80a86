/**
 * The HL7 plugin's error catalogue: bad requests only. Bad message content is never an error here; it is a
 * validation finding (see README.md, issue codes).
 */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the HL7 adapter raises for requests it cannot serve. */
export const hl7Errors = defineErrorCatalogue({
  UNKNOWN_MESSAGE_TYPE: { status: 400, message: 'HL7 message type "{messageType}" is not supported here (details list the supported types).' },
  UNSUPPORTED_VERSION: { status: 400, message: 'HL7 version "{version}" is not supported; supported: {supported}.' },
  PROFILE_NOT_FOUND: { status: 400, message: 'No HL7 profile named "{profile}" is loaded; loaded: {loaded}.' },
  MESSAGE_UNPARSEABLE: { status: 400, message: 'The {side} message cannot be read as HL7 v2: {reason}' },
});
