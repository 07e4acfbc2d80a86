/** Error catalogue of the audit plugin. */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the audit routes raise. */
export const auditErrors = defineErrorCatalogue({
  AUDIT_TRAIL_TAMPERED: {
    status: 503,
    message:
      'The audit trail disagrees with its checkpoint, so nothing more is appended to it: {problem} Restore the removed entries (GET /api/monitor/audit/verify names them).',
  },
});
