/**
 * The records tracing answers with (events of a trace, gaps) and the one conversion from the monitor's message facts
 * to a trace event. Engines take events, never store rows, so they are tested with plain arrays.
 */
import type { MessageFacts } from '../monitor/api.ts';

/** How a stored message fared: valid, invalid (parsed, with errors), or unparsed (not readable as a message). */
export type EventStatus = 'valid' | 'invalid' | 'unparsed';

/** One message of a trace. */
export interface TraceEvent {
  /** Stored message id. */
  messageId: string;
  /** Interface name (what a person reads). */
  interface: string;
  interfaceId: string;
  /** `ADT^A01`, or the type alone when there is no trigger event. */
  messageType: string;
  /** The sender's time (MSH-7) when known, else the received time: the instant that orders a patient's story. */
  timestamp: string;
  /** When the monitor saw the file (ISO 8601 UTC). */
  receivedAt: string;
  /** MSH-7 as sent, or null. */
  messageTime: string | null;
  status: EventStatus;
  controlId: string | null;
  sequenceNumber: number | null;
  sendingApplication: string | null;
  sendingFacility: string | null;
  /** Every patient identifier with its authority, as stored. */
  patientIds: Array<{ id: string; assigningAuthority: string | null }>;
  accountNumber: string | null;
  errorCount: number;
  warningCount: number;
}

/**
 * The facts a trace event is made of: what tracing asks the monitor for (a projection), so a window is read without
 * the columns no event shows (receiving side, software, latency, raw text).
 */
export const TRACE_FIELDS = [
  'interfaceId', 'messageType', 'triggerEvent', 'messageTime', 'receivedAt', 'segmentIds', 'isValid', 'controlId', 'sequenceNumber',
  'sendingApplication', 'sendingFacility', 'patientIds', 'accountNumber', 'errors', 'warnings',
] as const satisfies ReadonlyArray<keyof MessageFacts>;

/** The facts of {@link TRACE_FIELDS}, with the message id. */
export type TraceFacts = Pick<MessageFacts, (typeof TRACE_FIELDS)[number] | 'id'>;

/** Kinds of gap. */
export const GAP_KINDS = ['missing', 'late', 'out-of-order', 'sequence-number', 'duplicate-control-id'] as const;

/** One kind of {@link GAP_KINDS}. */
export type GapKind = (typeof GAP_KINDS)[number];

/** A short reference to a message seen around a gap. */
export interface SeenMessage {
  messageId: string;
  interface: string;
  messageType: string;
  timestamp: string;
  controlId: string | null;
  sequenceNumber: number | null;
}

/** Something that should have happened and did not (or not in time, or not in order, or not once). */
export interface Gap {
  kind: GapKind;
  /** Canonical text of the sequence judged (sequence gaps), else null. */
  sequence: string | null;
  /** Name of the defined sequence, when it has one. */
  sequenceName: string | null;
  /** 0-based step of the sequence (sequence gaps), else null. */
  stepIndex: number | null;
  /** What was expected, in words. */
  expected: string;
  /** The messages seen around the gap (before and after it), oldest first. */
  seen: SeenMessage[];
  /** The patient concerned, when known. */
  patientId: string | null;
  /** The interface concerned (MSH-13 and control-id gaps; sequence steps bound to an interface). */
  interfaceId: string | null;
  /** Time window in which the gap lies. */
  window: { from: string; to: string };
  /** How late (late steps), or how many numbers are missing (MSH-13), else null. */
  amount: number | null;
}

/** The type text of a message (`ADT^A01`, `ADT`, or `UNKNOWN`). */
export function typeText(messageType: string | null, triggerEvent: string | null): string {
  if (messageType === null) return 'UNKNOWN';
  return triggerEvent ? `${messageType}^${triggerEvent}` : messageType;
}

/** A trace event from stored facts; `interfaceName` comes from the monitor's interface list. */
export function toTraceEvent(facts: TraceFacts, interfaceName: string): TraceEvent {
  const unparsed = facts.segmentIds.length === 0 && facts.messageType === null;
  return {
    messageId: facts.id,
    interface: interfaceName,
    interfaceId: facts.interfaceId,
    messageType: typeText(facts.messageType, facts.triggerEvent),
    timestamp: facts.messageTime ?? facts.receivedAt,
    receivedAt: facts.receivedAt,
    messageTime: facts.messageTime,
    status: unparsed ? 'unparsed' : facts.isValid ? 'valid' : 'invalid',
    controlId: facts.controlId,
    sequenceNumber: facts.sequenceNumber,
    sendingApplication: facts.sendingApplication,
    sendingFacility: facts.sendingFacility,
    patientIds: facts.patientIds,
    accountNumber: facts.accountNumber,
    errorCount: facts.errors.length,
    warningCount: facts.warnings.length,
  };
}

/** The short reference of an event. */
export function seenOf(event: TraceEvent): SeenMessage {
  return {
    messageId: event.messageId,
    interface: event.interface,
    messageType: event.messageType,
    timestamp: event.timestamp,
    controlId: event.controlId,
    sequenceNumber: event.sequenceNumber,
  };
}

/** Orders events by timestamp, then received time, then id (a stable order for equal instants). */
export function compareEvents(a: TraceEvent, b: TraceEvent): number {
  return a.timestamp.localeCompare(b.timestamp) || a.receivedAt.localeCompare(b.receivedAt) || a.messageId.localeCompare(b.messageId);
}
