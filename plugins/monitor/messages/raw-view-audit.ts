/**
 * Accounting of raw message views (HIPAA access accounting): each view of a message's raw text, and each refusal
 * by `plugins.monitor.rawAccess`, is appended to the audit plugin's trail as `message.raw-view` (who, which message,
 * when, from where). Without the audit plugin (a lower tier, or switched off) the view is written to the service log.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { resolveService } from '../../../kernel/service-ref.ts';
import { AUDIT_TRAIL } from '../../audit/api.ts';
import type { RawViewRecord } from './message-view.ts';

/** The recorder of raw views: the audit trail when one is registered (looked up at each view), else the log. */
export function rawViewRecorder(container: DependencyContainer, logger: Logger): (record: RawViewRecord) => Promise<void> {
  return async ({ viewer, messageId, interfaceId, outcome }) => {
    if (container.isRegistered(AUDIT_TRAIL, true)) {
      await resolveService(container, AUDIT_TRAIL).record({
        action: 'message.raw-view',
        resourceType: 'message',
        resourceId: messageId,
        outcome,
        actor: viewer.actor,
        actorKind: viewer.actorKind,
        requestId: viewer.requestId,
        sourceAddress: viewer.sourceAddress,
        details: { interfaceId },
      });
      return;
    }
    logger.info({ actor: viewer.actor, actorKind: viewer.actorKind, messageId, interfaceId, outcome }, 'raw message text viewed');
  };
}
