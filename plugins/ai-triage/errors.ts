/** Error catalogue of the AI triage plugin. */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors of the triage, patterns, summary and upgrade-check routes. */
export const triageErrors = defineErrorCatalogue({
  TRIAGE_INTERFACE_NOT_FOUND: {
    status: 404,
    message: 'No monitored interface has the id "{interfaceId}".',
  },
});
