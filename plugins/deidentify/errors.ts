/** Error catalogue of the de-identification plugin. */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors of POST /api/deidentify and `workbench deidentify`. */
export const deidentifyErrors = defineErrorCatalogue({
  DEIDENTIFY_STANDARD_UNKNOWN: {
    status: 400,
    message: '{field} is not recognisable as HL7 v2, FHIR or NCPDP; name it with "standard" or check the content.',
  },
  DEIDENTIFY_CONTENT_TOO_LARGE: {
    status: 400,
    message: '{field} has {chars} characters, more than the {max} one de-identification reads; split it into smaller messages.',
  },
  DEIDENTIFY_CONTENT_UNREADABLE: {
    status: 400,
    message: '{field} cannot be read as {standard}: {reason}.',
  },
});
