/** Error catalogue of the tracing plugin (plain 404s use the kernel's NOT_FOUND). */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the tracing routes raise. */
export const tracingErrors = defineErrorCatalogue({
  TRACE_KEY_REQUIRED: { status: 400, message: 'A trace needs a key: give patient_id, account_number or control_id.' },
  SEQUENCE_SYNTAX: { status: 400, message: '{field} is not a valid sequence: {problem}.' },
  SEQUENCE_EXISTS: { status: 409, message: 'A sequence named "{name}" already exists.' },
  SEQUENCE_FROM_CONFIG: {
    status: 409,
    message: 'Sequence "{name}" comes from the config file (plugins.tracing.sequences); change it there.',
  },
});
