/**
 * The HL7 v2 adapter's reading capability (kernel `MessageReading`): received content split and validated in one
 * parse by the message reader, each message's facts under the names stores of received messages use (the monitor's
 * README lists them): MSH-7 as an ISO instant, MSH-9, MSH-10, MSH-12, MSH-3 to MSH-6, MSH-13, MSA-2, SFT, the
 * segment ids, PID-3 with assigning authorities, PID-18 and PV1-19. Empty fields are left out. A last message
 * without its segment terminator is still open (hl7-open-tail.ts).
 */
import type { MessageReading, ReadContentResult } from '../../../kernel/standards-registry.ts';
import type { Hl7MessageFacts } from './hl7-message-facts.ts';
import type { Hl7MessageReader } from './hl7-message-reader.ts';
import { parseMessageTime } from './hl7-message-time.ts';
import { hl7CompleteLength } from './hl7-open-tail.ts';

function orNull(value: string): string | null {
  return value === '' ? null : value;
}

/** The facts record of one message. */
export function hl7FactsRecord(facts: Hl7MessageFacts): Record<string, unknown> {
  const time = parseMessageTime(facts.messageTime);
  const sequence = /^\d{1,15}$/.test(facts.sequenceNumber.trim()) ? Number(facts.sequenceNumber.trim()) : null;
  const software = facts.software;
  let installDate: string | null = null;
  if (software && software.installDate !== '') {
    const ms = parseMessageTime(software.installDate);
    installDate = ms === undefined ? software.installDate : new Date(ms).toISOString();
  }
  return {
    messageTime: time === undefined ? null : new Date(time).toISOString(),
    messageType: orNull(facts.messageType),
    triggerEvent: orNull(facts.triggerEvent),
    version: orNull(facts.version),
    controlId: orNull(facts.controlId),
    sendingApplication: orNull(facts.sendingApplication),
    sendingFacility: orNull(facts.sendingFacility),
    receivingApplication: orNull(facts.receivingApplication),
    receivingFacility: orNull(facts.receivingFacility),
    sequenceNumber: sequence,
    acknowledgedControlId: orNull(facts.acknowledgedControlId),
    software: software
      ? { vendor: orNull(software.vendor), version: orNull(software.version), product: orNull(software.product), installDate }
      : null,
    segmentIds: facts.segmentIds,
    patientIds: facts.patientIds.map((p) => ({ id: p.id, assigningAuthority: orNull(p.assigningAuthority) })),
    accountNumber: orNull(facts.accountNumber) ?? orNull(facts.visitNumber),
    visitNumber: orNull(facts.visitNumber),
  };
}

/** The reading capability over a message reader. */
export function createHl7Reading(reader: Hl7MessageReader): MessageReading {
  return {
    filePattern: '*.hl7',
    readMessages(content, options): ReadContentResult {
      const read = reader.read(content, options);
      return {
        messageCount: read.messageCount,
        problems: read.problems,
        messages: read.messages.map((m) => ({ index: m.index, raw: m.raw, facts: hl7FactsRecord(m), ...(m.verdict ? { verdict: m.verdict } : {}) })),
      };
    },
    completeLength: hl7CompleteLength,
  };
}
