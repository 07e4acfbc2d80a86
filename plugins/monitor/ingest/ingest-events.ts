/** What follows a commit: the `message.ingested` event per file, and the alert rules the new messages touch. */
import type { EventBus } from '../../../kernel/events.ts';
import type { MessageIngestedEvent } from '../api.ts';
import type { CommittedFile } from './ledger.ts';
import { messageId } from '../messages/message-query.ts';

/** The event payload of one committed file. */
export function ingestedEvent(committed: CommittedFile, interfaceName: string): MessageIngestedEvent {
  const { file, fileId } = committed;
  return {
    interfaceId: file.interfaceId,
    interfaceName,
    fileId: String(fileId),
    path: file.path,
    receivedAt: file.receivedAt,
    messages: file.messages.map((m) => ({
      id: messageId(fileId, m.indexInFile),
      indexInFile: m.indexInFile,
      messageType: m.messageType,
      triggerEvent: m.triggerEvent,
      controlId: m.controlId,
      patientIds: m.patientIds.map((p) => p.id),
      accountNumber: m.accountNumber,
      isValid: m.isValid,
      errorCodes: m.errors.map((e) => e.code),
      latencyMs: m.latencyMs,
    })),
  };
}

/** After-commit listener: emits `message.ingested` for every committed file that added messages. */
export function emitIngested(events: EventBus, committed: ReadonlyArray<CommittedFile & { monitored: { name: string } }>): void {
  for (const entry of committed) {
    if (entry.file.messages.length === 0) continue;
    events.emit('message.ingested', ingestedEvent(entry, entry.monitored.name));
  }
}
