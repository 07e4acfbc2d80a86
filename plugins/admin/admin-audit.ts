/** Records a successful admin write in the audit trail, with the caller and request taken from the route request. */
import type { RouteRequest } from '../../kernel/plugin-api.ts';
import { auditContextOf, type AuditRecordInput, type AuditTrail } from '../audit/api.ts';

/** Records `action` on `resourceType`/`resourceId` as a success by the request's caller. */
export function recordAdminWrite(
  audit: AuditTrail,
  request: RouteRequest,
  action: string,
  resourceType: string,
  resourceId: string,
  details: AuditRecordInput['details'] = {},
): Promise<void> {
  return audit.record({ ...auditContextOf(request), action, resourceType, resourceId, outcome: 'success', details });
}
