/**
 * Per-interface checks over messages in arrival order: missing HL7 sequence numbers (MSH-13) and control ids (MSH-10)
 * used twice by the same sender. Both are one pass with memory proportional to the senders and control ids of the
 * window read.
 *
 * MSH-13 follows the HL7 sequence-number protocol (HL7 v2 chapter 2, "Sequence number protocol"): each sender's
 * numbers go up by one; 0 restarts the count (not a gap) and -1 asks for the receiver's number (ignored). A jump
 * from n to n + k reports the k - 1 missing numbers as one gap with the range, never one entry per number, so a
 * jump to a huge number costs nothing. A number at or below the last one is a rewind: the count starts again there.
 *
 * Control ids: the same MSH-10 from the same sending application and facility twice is an exact resend when the
 * content is the same (counted, not a gap) and a duplicate control id when it differs (a gap). Messages whose content
 * is unknown (no digest) are not judged.
 */
import { seenOf, type Gap, type TraceEvent } from './trace-model.ts';

/** A trace event with the digest of its content (null when unknown). */
export interface DigestedEvent {
  event: TraceEvent;
  digest: string | null;
}

/** Result of {@link interfaceGaps}. */
export interface InterfaceGapResult {
  gaps: Gap[];
  /** Messages that repeated an earlier message exactly (same sender, control id and content). */
  resends: number;
  /** Messages whose control id was judged without content (no digest). */
  contentUnknown: number;
}

function senderKey(event: TraceEvent): string {
  return `${event.sendingApplication ?? ''}\u0000${event.sendingFacility ?? ''}`;
}

function senderName(event: TraceEvent): string {
  return [event.sendingApplication, event.sendingFacility].filter((part) => part).join('/') || 'an unnamed sender';
}

/**
 * Judges the messages of one interface, given in arrival order (received time, file, index in file). Gaps name
 * the interface, the sender and the messages on each side.
 */
export function interfaceGaps(interfaceId: string, messages: Iterable<DigestedEvent>): InterfaceGapResult {
  const lastNumber = new Map<string, TraceEvent>();
  const firstByControlId = new Map<string, { event: TraceEvent; digest: string | null }>();
  const reported = new Set<string>();
  const gaps: Gap[] = [];
  let resends = 0;
  let contentUnknown = 0;
  const patientOf = (event: TraceEvent) => event.patientIds[0]?.id ?? null;
  for (const { event, digest } of messages) {
    const sender = senderKey(event);
    const number = event.sequenceNumber;
    if (number !== null && number >= 0) {
      const last = lastNumber.get(sender);
      if (number > 0 && last !== undefined && last.sequenceNumber !== null && last.sequenceNumber > 0 && number > last.sequenceNumber + 1) {
        const missingFrom = last.sequenceNumber + 1;
        const missingTo = number - 1;
        gaps.push({
          kind: 'sequence-number',
          sequence: null,
          sequenceName: null,
          stepIndex: null,
          expected:
            missingFrom === missingTo
              ? `sequence number ${missingFrom} from ${senderName(event)}`
              : `sequence numbers ${missingFrom} to ${missingTo} from ${senderName(event)}`,
          seen: [seenOf(last), seenOf(event)],
          patientId: patientOf(event),
          interfaceId,
          window: { from: last.receivedAt, to: event.receivedAt },
          amount: missingTo - missingFrom + 1,
        });
      }
      lastNumber.set(sender, event);
    }
    if (event.controlId !== null && event.controlId !== '') {
      const key = `${sender}\u0000${event.controlId}`;
      const first = firstByControlId.get(key);
      if (first === undefined) {
        firstByControlId.set(key, { event, digest });
        continue;
      }
      if (first.digest === null || digest === null) {
        contentUnknown++;
        continue;
      }
      if (first.digest === digest) {
        resends++;
        continue;
      }
      // One gap per message reusing the id with other content; the first holder is shown with it.
      const repeatKey = `${key}\u0000${digest}`;
      if (reported.has(repeatKey)) continue;
      reported.add(repeatKey);
      gaps.push({
        kind: 'duplicate-control-id',
        sequence: null,
        sequenceName: null,
        stepIndex: null,
        expected: `control id ${event.controlId} used once by ${senderName(event)} (it came again with other content)`,
        seen: [seenOf(first.event), seenOf(event)],
        patientId: patientOf(event),
        interfaceId,
        window: { from: first.event.receivedAt, to: event.receivedAt },
        amount: null,
      });
    }
  }
  return { gaps, resends, contentUnknown };
}
