/**
 * Public surface of the audit plugin: the container token of the audit trail, the shape of what other plugins
 * record, and a pure helper naming the actor of a request. Records never hold a secret or message content.
 */
import type { Principal } from '../../kernel/auth/principal.ts';
import { createServiceRef } from '../../kernel/service-ref.ts';

/** Container token of {@link AuditTrail}. */
export const AUDIT_TRAIL = createServiceRef<AuditTrail>('workbench.audit-trail');

/** How an audited action ended. */
export type AuditOutcome = 'success' | 'failure' | 'denied';

/** Who did something and from where (see {@link auditContextOf}). */
export interface AuditContext {
  /** User id, API key prefix (`wbk_<id>`), `os:<user>` for the local command line, or `anonymous`. */
  actor: string;
  /** `user`, `api-key`, `local` or `anonymous`. */
  actorKind: string;
  requestId?: string;
  sourceAddress?: string;
}

/** One thing to record. */
export interface AuditRecordInput extends AuditContext {
  /** `resource.verb`, e.g. `role.assign`, `workspace.create`, `session.sign-in`, `credential.refuse`. */
  action: string;
  resourceType: string;
  resourceId?: string;
  outcome: AuditOutcome;
  /** Small, secret-free facts about the change (e.g. the role given); never message content. */
  details?: AuditDetails;
}

/** Facts of an audited action: names and plain values (a text value is kept up to 500 characters). */
export type AuditDetails = Record<string, string | number | boolean | null>;

/** The audit trail other plugins write to. */
export interface AuditTrail {
  /** Appends an entry to the hash chain; resolves once it is stored. */
  record(entry: AuditRecordInput): Promise<void>;
}

/** The audit actor of a request's caller. */
export function auditContextOf(request: { principal?: Principal; requestId: string; sourceAddress: string }): AuditContext {
  const principal = request.principal;
  const actor = !principal ? 'anonymous' : principal.kind === 'api-key' ? `wbk_${principal.subject}` : principal.subject;
  const actorKind = !principal ? 'anonymous' : principal.kind === 'api-key' ? 'api-key' : 'user';
  return { actor, actorKind, requestId: request.requestId, sourceAddress: request.sourceAddress };
}
