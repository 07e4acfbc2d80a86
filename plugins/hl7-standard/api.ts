/**
 * Public surface of the HL7 v2 plugin for other plugins: pure helpers over HL7 content, and the message reader
 * (resolved by {@link HL7_MESSAGE_READER}) that splits and validates content in one parse. Other validation,
 * parsing and detection go through the kernel's standards registry (adapter id `hl7`).
 */
export { parseMessageTime } from './reading/hl7-message-time.ts';
export { splitHl7Messages, type Hl7MessageFacts, type Hl7SplitResult } from './reading/hl7-message-facts.ts';
export {
  HL7_MESSAGE_READER,
  type Hl7MessageReader,
  type Hl7MessageVerdict,
  type Hl7ReadMessage,
  type Hl7ReadOptions,
  type Hl7ReadResult,
} from './reading/hl7-message-reader.ts';
