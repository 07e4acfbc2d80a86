/**
 * Splits HL7 v2 content (a file: one message, several, FHS/BHS batches, MLLP framed, with a BOM, CR, LF or CRLF)
 * into its messages with the header and patient facts a monitor stores: MSH-7, MSH-9, MSH-10, MSH-12, MSH-3/4,
 * MSH-5/6, MSH-13, MSA-2, SFT-1/2/3/6, the segment ids present, PID-3 (every repetition with its assigning
 * authority), PID-18 and PV1-19. Never throws: content that holds no message gives no messages and the parser's
 * problems.
 */
import type { Hl7Segment } from '../hl7-model.ts';
import { type Hl7ParsedMessage, type Hl7ParseResult, parseHl7 } from '../parsing/hl7-parser.ts';

/** The facts of one message of a file. */
export interface Hl7MessageFacts {
  /** 0-based position among the messages of the content. */
  index: number;
  /** The message's own text (MSH to its last segment), to validate and keep. */
  raw: string;
  /** MSH-7 as written (`20260101120000-0500`), empty when absent. */
  messageTime: string;
  /** MSH-9.1, MSH-9.2. */
  messageType: string;
  triggerEvent: string;
  /** MSH-10. */
  controlId: string;
  /** MSH-12.1. */
  version: string;
  /** MSH-3.1, MSH-4.1. */
  sendingApplication: string;
  sendingFacility: string;
  /** MSH-5.1, MSH-6.1. */
  receivingApplication: string;
  receivingFacility: string;
  /** MSH-13 (sequence number) as written, empty when absent. */
  sequenceNumber: string;
  /** MSA-2: the control id an acknowledgement answers; empty elsewhere. */
  acknowledgedControlId: string;
  /** The first SFT segment: SFT-1.1 vendor organization, SFT-2 version, SFT-3 product, SFT-6 install date (as written). */
  software: { vendor: string; version: string; product: string; installDate: string } | null;
  /** Segment ids present, each once, in first-seen order (Z-segments included). */
  segmentIds: string[];
  /** PID-3 repetitions: ID (PID-3.1) and assigning authority (PID-3.4.1). */
  patientIds: Array<{ id: string; assigningAuthority: string }>;
  /** PID-18.1. */
  accountNumber: string;
  /** PV1-19.1. */
  visitNumber: string;
}

/** What splitting found. */
export interface Hl7SplitResult {
  messages: Hl7MessageFacts[];
  /** Problems outside any message (text that is not HL7, undecodable bytes), as sentences. */
  problems: string[];
}

function value(segment: Hl7Segment | undefined, field: number, component = 1, repetition = 0): string {
  return segment?.fields[field]?.[repetition]?.[component - 1]?.[0] ?? '';
}

/** The facts of one parsed message. */
export function hl7MessageFacts(message: Hl7ParsedMessage): Hl7MessageFacts {
  const msh = message.segments[0];
  const pid = message.segments.find((s) => s.name === 'PID');
  const pv1 = message.segments.find((s) => s.name === 'PV1');
  const msa = message.segments.find((s) => s.name === 'MSA');
  const sft = message.segments.find((s) => s.name === 'SFT');
  const segmentIds: string[] = [];
  const seen = new Set<string>();
  for (const segment of message.segments) {
    if (seen.has(segment.name)) continue;
    seen.add(segment.name);
    segmentIds.push(segment.name);
  }
  const patientIds: Hl7MessageFacts['patientIds'] = [];
  for (const repetition of pid?.fields[3] ?? []) {
    const id = repetition[0]?.[0] ?? '';
    if (id !== '') patientIds.push({ id, assigningAuthority: repetition[3]?.[0] ?? '' });
  }
  return {
    index: message.index,
    raw: message.raw,
    messageTime: value(msh, 7),
    messageType: value(msh, 9, 1),
    triggerEvent: value(msh, 9, 2),
    controlId: value(msh, 10),
    version: value(msh, 12),
    sendingApplication: value(msh, 3),
    sendingFacility: value(msh, 4),
    receivingApplication: value(msh, 5),
    receivingFacility: value(msh, 6),
    sequenceNumber: value(msh, 13),
    acknowledgedControlId: value(msa, 2),
    software: sft ? { vendor: value(sft, 1), version: value(sft, 2), product: value(sft, 3), installDate: value(sft, 6) } : null,
    segmentIds,
    patientIds,
    accountNumber: value(pid, 18),
    visitNumber: value(pv1, 19),
  };
}

/** The problems of a parse outside any message, as sentences. */
export function problemsOutsideMessages(parsed: Hl7ParseResult): string[] {
  return parsed.problems.filter((p) => p.messageIndex === undefined).map((p) => p.message);
}

/** Splits content into messages with their facts (linear in the content's size). */
export function splitHl7Messages(content: string | Uint8Array): Hl7SplitResult {
  const parsed = parseHl7(content);
  return { messages: parsed.messages.map(hl7MessageFacts), problems: problemsOutsideMessages(parsed) };
}
