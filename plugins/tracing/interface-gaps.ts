/**
 * Per-interface checks over messages in arrival order: missing HL7 sequence numbers (MSH-13) and control ids (MSH-10)
 * used twice by the same sender. Two steps, so the window is read narrow: {@link scanFeed} goes through every message
 * once knowing only its sender, control id and number, and keeps the few that matter (each jump's two messages, the
 * messages of a repeated control id); {@link interfaceGaps} then judges those, read again with their details (type,
 * times, patient, content digest). Memory is proportional to the senders and control ids of the window.
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
import type { FeedMessage } from './feed-index.ts';
import type { Gap, SeenMessage } from './trace-model.ts';

/** What {@link scanFeed} keeps of a window. */
export interface FeedFindings {
  /** Each MSH-13 jump: the sender's message before it and the one after, in arrival order. */
  jumps: Array<{ before: FeedMessage; after: FeedMessage }>;
  /** The messages of every control id a sender used more than once, in arrival order. */
  repeated: FeedMessage[];
}

/** Result of {@link interfaceGaps}. */
export interface InterfaceGapResult {
  gaps: Gap[];
  /** Messages that repeated an earlier message exactly (same sender, control id and content). */
  resends: number;
  /** Messages whose control id was judged without content (no digest). */
  contentUnknown: number;
}

function senderKey(message: FeedMessage): string {
  return `${message.sendingApplication ?? ''}\u0000${message.sendingFacility ?? ''}`;
}

function senderName(message: FeedMessage): string {
  return [message.sendingApplication, message.sendingFacility].filter((part) => part).join('/') || 'an unnamed sender';
}

/**
 * One pass over the messages of one interface in arrival order (received time, file, index in file), each with its
 * sender, control id and sequence number: the jumps and the repeated control ids.
 */
export function scanFeed(messages: readonly FeedMessage[]): FeedFindings {
  // per sender (application, then facility): its last numbered message and the first place of each control id
  const senders = new Map<string | null, Map<string | null, SenderState>>();
  const repeatedAt = new Set<number>();
  const jumps: FeedFindings['jumps'] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    let byFacility = senders.get(message.sendingApplication);
    if (byFacility === undefined) senders.set(message.sendingApplication, (byFacility = new Map()));
    let sender = byFacility.get(message.sendingFacility);
    if (sender === undefined) byFacility.set(message.sendingFacility, (sender = { last: undefined, controlIds: new Map() }));
    const number = message.sequenceNumber;
    if (number !== null && number >= 0) {
      const last = sender.last;
      if (number > 0 && last !== undefined && last.sequenceNumber !== null && last.sequenceNumber > 0 && number > last.sequenceNumber + 1) {
        jumps.push({ before: last, after: message });
      }
      sender.last = message;
    }
    const controlId = message.controlId;
    if (controlId !== null && controlId !== '') {
      const first = sender.controlIds.get(controlId);
      if (first === undefined) sender.controlIds.set(controlId, i);
      else {
        repeatedAt.add(first);
        repeatedAt.add(i);
      }
    }
  }
  return { jumps, repeated: [...repeatedAt].sort((a, b) => a - b).map((i) => messages[i]!) };
}

/** What {@link scanFeed} remembers of one sender. */
interface SenderState {
  /** Its last message with a sequence number of 0 or more. */
  last: FeedMessage | undefined;
  /** Place of the first message of each control id. */
  controlIds: Map<string, number>;
}

/** The instant of a ms value, as the store writes it (ISO 8601 UTC). */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The short reference of a message (its details read: type, MSH-7). */
function seenOf(message: FeedMessage, interfaceName: string): SeenMessage {
  return {
    messageId: message.id,
    interface: interfaceName,
    messageType: message.messageType,
    timestamp: iso(message.messageTimeMs ?? message.receivedAtMs),
    controlId: message.controlId,
    sequenceNumber: message.sequenceNumber,
  };
}

/**
 * Judges what {@link scanFeed} kept of one interface, its messages read again with their type, MSH-7, patient and
 * (repeated control ids) content digest. Gaps name the interface, the sender and the messages on each side.
 */
export function interfaceGaps(interfaceId: string, interfaceName: string, findings: FeedFindings): InterfaceGapResult {
  const gaps: Gap[] = [];
  for (const { before, after } of findings.jumps) {
    const missingFrom = before.sequenceNumber! + 1;
    const missingTo = after.sequenceNumber! - 1;
    gaps.push({
      kind: 'sequence-number',
      sequence: null,
      sequenceName: null,
      stepIndex: null,
      expected:
        missingFrom === missingTo
          ? `sequence number ${missingFrom} from ${senderName(after)}`
          : `sequence numbers ${missingFrom} to ${missingTo} from ${senderName(after)}`,
      seen: [seenOf(before, interfaceName), seenOf(after, interfaceName)],
      patientId: after.patientId,
      interfaceId,
      window: { from: iso(before.receivedAtMs), to: iso(after.receivedAtMs) },
      amount: missingTo - missingFrom + 1,
    });
  }
  const firstByControlId = new Map<string, FeedMessage>();
  const reported = new Set<string>();
  let resends = 0;
  let contentUnknown = 0;
  for (const message of findings.repeated) {
    const key = `${senderKey(message)}\u0000${message.controlId}`;
    const first = firstByControlId.get(key);
    if (first === undefined) {
      firstByControlId.set(key, message);
      continue;
    }
    const digest = message.contentDigest;
    if (first.contentDigest === null || digest === null) {
      contentUnknown++;
      continue;
    }
    if (first.contentDigest === digest) {
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
      expected: `control id ${message.controlId} used once by ${senderName(message)} (it came again with other content)`,
      seen: [seenOf(first, interfaceName), seenOf(message, interfaceName)],
      patientId: message.patientId,
      interfaceId,
      window: { from: iso(first.receivedAtMs), to: iso(message.receivedAtMs) },
      amount: null,
    });
  }
  return { gaps, resends, contentUnknown };
}
