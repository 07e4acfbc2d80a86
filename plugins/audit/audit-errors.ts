/** Error catalogue of the audit plugin. */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the audit routes raise. */
export const auditErrors = defineErrorCatalogue({
  AUDIT_WINDOW_INVALID: { status: 400, message: 'from ({from}) is after to ({to}); give a window that starts before it ends.' },
});
