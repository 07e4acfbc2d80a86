/**
 * Public surface of the HL7 v2 plugin for other plugins: pure helpers over HL7 content. Validation, parsing and
 * detection go through the kernel's standards registry (adapter id `hl7`).
 */
export { splitHl7Messages, type Hl7MessageFacts, type Hl7SplitResult } from './hl7-message-facts.ts';
