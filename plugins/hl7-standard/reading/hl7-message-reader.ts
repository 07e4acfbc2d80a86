/**
 * Reads HL7 v2 content the way a store of received messages wants it: split into its messages (batches, MLLP, BOM,
 * any line ending) with their facts, and each message validated on its own, all from one parse that holds one parsed
 * message at a time. Validating each message's text again through the adapter would parse every message twice.
 */
import { createServiceRef } from '../../../kernel/service-ref.ts';
import type { ValidateOptions, ValidationIssue } from '../../../kernel/standards-registry.ts';
import { requireHl7Profile } from '../hl7-adapter.ts';
import { hl7MessageFacts, problemsOutsideMessages, type Hl7MessageFacts } from './hl7-message-facts.ts';
import { parseHl7 } from '../parsing/hl7-parser.ts';
import type { Hl7ProfileSet } from '../profiles/hl7-profiles.ts';
import { validateHl7Message } from '../validation/hl7-validator.ts';

/** Container token of the {@link Hl7MessageReader} the HL7 plugin registers. */
export const HL7_MESSAGE_READER = createServiceRef<Hl7MessageReader>('workbench.hl7-message-reader');

/** The validation verdict of one message. */
export interface Hl7MessageVerdict {
  isValid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
}

/** One message of the content: its facts and, unless it was too long to validate here, its verdict. */
export interface Hl7ReadMessage extends Hl7MessageFacts {
  /** Absent when `validateHere` said no for it: the caller validates its `raw` elsewhere. */
  verdict?: Hl7MessageVerdict;
}

/** What reading found. */
export interface Hl7ReadResult {
  /** The messages from `firstIndex` on. */
  messages: Hl7ReadMessage[];
  /** How many messages the content holds, those before `firstIndex` included. */
  messageCount: number;
  /** Problems outside any message (text that is not HL7, undecodable bytes), as sentences. */
  problems: string[];
}

/** How to read. */
export interface Hl7ReadOptions {
  mode: ValidateOptions['mode'];
  /** Name of a loaded HL7 profile applied on top of the standard; PROFILE_NOT_FOUND when none has this name. */
  profile?: string;
  /** Messages before this index are left out (already read; default 0). */
  firstIndex?: number;
  /**
   * Which messages to validate here, by the length of their text (default: all). The others come back without a
   * verdict, for the caller to validate elsewhere (in a worker pool, say).
   */
  validateHere?: (rawLength: number) => boolean;
}

/** Splits and validates HL7 v2 content in one pass. */
export interface Hl7MessageReader {
  /**
   * Reads content (linear in its size). Never throws for bad content: content that holds no message gives no
   * messages and the parser's problems. Throws PROFILE_NOT_FOUND for an unknown profile name.
   */
  read(content: string | Uint8Array, options: Hl7ReadOptions): Hl7ReadResult;
}

/** Validates one parsed message; a defect of the validator comes back as a finding, as with whole content. */
function verdictOf(...args: Parameters<typeof validateHl7Message>): Hl7MessageVerdict {
  try {
    const { isValid, errors, warnings } = validateHl7Message(...args);
    return { isValid, errors, warnings };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const issue: ValidationIssue = { field: 'message', code: 'PARSE_ERROR', severity: 'error', message: `The message could not be validated: ${reason}.` };
    return { isValid: false, errors: [issue], warnings: [] };
  }
}

/** Creates the reader over the loaded HL7 profiles. */
export function createHl7MessageReader(profiles: Hl7ProfileSet): Hl7MessageReader {
  return {
    read(content, options) {
      const profile = requireHl7Profile(profiles, options.profile);
      const firstIndex = options.firstIndex ?? 0;
      const messages: Hl7ReadMessage[] = [];
      // each message is judged as soon as the parser completes it and its segments are dropped after, so a batch
      // file of any length is held one parsed message at a time
      const parsed = parseHl7(content, {
        onMessage: (message) => {
          if (message.index < firstIndex) return;
          const facts = hl7MessageFacts(message);
          if (options.validateHere && !options.validateHere(message.raw.length)) messages.push(facts);
          // each verdict must stand alone: bytes the parser could not decode are reported on the message whose
          // fields hold their replacement characters, not only as a problem of the content (so no `decodingFailed`)
          else messages.push({ ...facts, verdict: verdictOf(message, { mode: options.mode, profile }) });
        },
      });
      return { messages, messageCount: parsed.messages.length, problems: problemsOutsideMessages(parsed) };
    },
  };
}
