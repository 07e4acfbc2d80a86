/**
 * Turns the content of a settled file into the messages the monitor stores: split and validated in one parse by the
 * HL7 plugin's message reader (batches, MLLP, BOM, any line ending) with the interface's mode and profile, facts
 * extracted, latency computed. A message long enough for the worker pool is validated there instead, through the
 * kernel's runner, so it never holds the event loop. Content holding no message at all is one failed message with
 * a PARSE_ERROR, never an exception.
 */
import type { ValidateOptions, ValidationIssue, ValidationResult } from '../../kernel/standards-registry.ts';
import type { Hl7MessageReader, Hl7MessageVerdict, Hl7ReadResult } from '../hl7-standard/api.ts';
import type { MessageFacts, MonitoredInterface, StoredIssue } from './api.ts';
import { parseMessageTime } from '../hl7-standard/api.ts';

/** Most issues of each severity kept with a message (the counts are what metrics use). */
export const STORED_ISSUES_MAX = 20;

/** Validates one message's text (the adapter itself, or the kernel's runner in front of it). */
export type ValidateMessage = (content: string, options: ValidateOptions) => Promise<ValidationResult> | ValidationResult;

/** How content is read: the HL7 reader for the parse, the runner for messages too long for the event loop. */
export interface ContentReaders {
  reader: Hl7MessageReader;
  /** Validates a message the reader left without a verdict. */
  validate: ValidateMessage;
  /** Whether a message of this length is validated on the event loop, by the reader. */
  validateHere(rawLength: number): boolean;
}

/** A message ready to be stored: its facts without what the ledger assigns (ids, file, receipt time), and its text. */
export type ReadMessage = Omit<MessageFacts, 'id' | 'interfaceId' | 'fileId' | 'receivedAt'> & { raw: string };

/** What reading a file's content produced. */
export interface ContentReading {
  messages: ReadMessage[];
  /** True when the content held no HL7 message at all. */
  unparsable: boolean;
  /** Why, when unparsable. */
  problem?: string;
}

function orNull(value: string): string | null {
  return value === '' ? null : value;
}

function keep(issues: ValidationIssue[]): StoredIssue[] {
  return issues.slice(0, STORED_ISSUES_MAX).map((i) => ({ field: i.field, code: i.code, severity: i.severity, message: i.message }));
}

/** The warning stored with each message when the interface's profile is no longer loaded. */
function profileNotLoaded(error: unknown): StoredIssue {
  return {
    field: 'MSH',
    code: 'PROFILE_NOT_LOADED',
    severity: 'warning',
    message: `The interface's profile could not be applied (${(error as Error).message}); validated against the standard alone.`,
  };
}

/** A verdict as stored: at most STORED_ISSUES_MAX issues of each severity, an extra warning first. */
function stored(verdict: Hl7MessageVerdict, extraWarning?: StoredIssue): Pick<ReadMessage, 'isValid' | 'errors' | 'warnings'> {
  const warnings = keep(verdict.warnings);
  return { isValid: verdict.isValid, errors: keep(verdict.errors), warnings: extraWarning ? [extraWarning, ...warnings] : warnings };
}

/**
 * Validates one message (the kernel's runner: on the event loop when small, in the worker pool when large). A
 * message the pool gave up on (time or memory budget) is a failed message carrying that code; a profile that is no
 * longer loaded falls back to the plain standard, with a warning.
 */
async function validate(
  run: ValidateMessage,
  raw: string,
  monitored: MonitoredInterface,
): Promise<Pick<ReadMessage, 'isValid' | 'errors' | 'warnings'>> {
  try {
    return stored(await run(raw, { mode: monitored.validationMode, profile: monitored.profileName ?? undefined }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'PROCESSING_TIME_EXCEEDED' || code === 'PROCESSING_MEMORY_EXCEEDED') {
      const issue: StoredIssue = { field: 'MSH', code, severity: 'error', message: (error as Error).message };
      return { isValid: false, errors: [issue], warnings: [] };
    }
    if (code !== 'PROFILE_NOT_FOUND') throw error;
    return stored(await run(raw, { mode: monitored.validationMode }), profileNotLoaded(error));
  }
}

/** Splits and validates content with the interface's profile; one no longer loaded falls back to the standard. */
function readWithProfile(
  readers: ContentReaders,
  content: Buffer,
  monitored: MonitoredInterface,
  firstIndex: number,
): { read: Hl7ReadResult; warning?: StoredIssue } {
  const options = { mode: monitored.validationMode, firstIndex, validateHere: (n: number) => readers.validateHere(n) };
  try {
    return { read: readers.reader.read(content, { ...options, profile: monitored.profileName ?? undefined }) };
  } catch (error) {
    if ((error as { code?: string }).code !== 'PROFILE_NOT_FOUND') throw error;
    return { read: readers.reader.read(content, options), warning: profileNotLoaded(error) };
  }
}

/**
 * Reads content; `skip` messages at the start are already stored (an appended file), so only the later ones are
 * validated and returned. `receivedAtMs` is when the settled file was seen.
 */
export async function readContent(
  content: Buffer,
  options: { readers: ContentReaders; monitored: MonitoredInterface; receivedAtMs: number; skip: number },
): Promise<ContentReading> {
  const { read: split, warning } = readWithProfile(options.readers, content, options.monitored, options.skip);
  if (split.messageCount === 0) {
    const problem = split.problems[split.problems.length - 1] ?? 'The content holds no HL7 v2 message.';
    return {
      unparsable: true,
      problem,
      messages:
        options.skip > 0
          ? []
          : [
              {
                indexInFile: 0,
                standard: 'hl7',
                messageTime: null,
                messageType: null,
                triggerEvent: null,
                version: null,
                controlId: null,
                sendingApplication: null,
                sendingFacility: null,
                receivingApplication: null,
                receivingFacility: null,
                sequenceNumber: null,
                acknowledgedControlId: null,
                software: null,
                segmentIds: [],
                patientIds: [],
                accountNumber: null,
                visitNumber: null,
                isValid: false,
                errors: [{ field: 'MSH', code: 'PARSE_ERROR', severity: 'error', message: problem }],
                warnings: [],
                latencyMs: null,
                latencyClass: 'none',
                // an unreadable file may be huge or binary: keep only its start for drill-down
                raw: content.subarray(0, 65_536).toString('utf8'),
              },
            ],
    };
  }
  const messages: ReadMessage[] = [];
  for (const facts of split.messages) {
    const time = parseMessageTime(facts.messageTime);
    const verdict = facts.verdict ? stored(facts.verdict, warning) : await validate(options.readers.validate, facts.raw, options.monitored);
    messages.push({
      indexInFile: facts.index,
      standard: 'hl7',
      messageTime: time === undefined ? null : new Date(time).toISOString(),
      messageType: orNull(facts.messageType),
      triggerEvent: orNull(facts.triggerEvent),
      version: orNull(facts.version),
      controlId: orNull(facts.controlId),
      sendingApplication: orNull(facts.sendingApplication),
      sendingFacility: orNull(facts.sendingFacility),
      receivingApplication: null,
      receivingFacility: null,
      sequenceNumber: null,
      acknowledgedControlId: null,
      software: null,
      segmentIds: [],
      patientIds: facts.patientIds.map((p) => ({ id: p.id, assigningAuthority: orNull(p.assigningAuthority) })),
      accountNumber: orNull(facts.accountNumber) ?? orNull(facts.visitNumber),
      visitNumber: orNull(facts.visitNumber),
      ...verdict,
      latencyMs: time === undefined ? null : options.receivedAtMs - time,
      latencyClass: time === undefined ? 'none' : 'ok',
      raw: facts.raw,
    });
  }
  return { messages, unparsable: false };
}
