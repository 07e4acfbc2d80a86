/**
 * Turns the content of a settled file into the messages the monitor stores: split by the HL7 plugin's helper
 * (batches, MLLP, BOM, any line ending), each message validated through the standards registry with the
 * interface's mode and profile, facts extracted, latency computed. Content holding no message at all is one failed
 * message with a PARSE_ERROR, never an exception.
 */
import type { ValidateOptions, ValidationIssue, ValidationResult } from '../../kernel/standards-registry.ts';
import { splitHl7Messages } from '../hl7-standard/api.ts';
import type { MonitoredInterface, StoredIssue, StoredMessage } from './api.ts';
import { parseMessageTime } from './message-time.ts';

/** Most issues of each severity kept with a message (the counts are what metrics use). */
export const STORED_ISSUES_MAX = 20;

/** Validates one message's text (the adapter itself, or the kernel's runner in front of it). */
export type ValidateMessage = (content: string, options: ValidateOptions) => Promise<ValidationResult> | ValidationResult;

/** A message ready to be stored: a stored message without what the ledger assigns (ids, file, receipt time). */
export type ReadMessage = Omit<StoredMessage, 'id' | 'interfaceId' | 'fileId' | 'receivedAt' | 'raw'> & { raw: string };

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

/**
 * Validates one message (the kernel's runner: on the event loop when small, in the worker pool when large). A
 * message the pool gave up on (time or memory budget) is a failed message carrying that code; a profile that is no
 * longer loaded falls back to the plain standard, with a warning.
 */
async function validate(
  run: ValidateMessage,
  raw: string,
  monitored: MonitoredInterface,
): Promise<{ isValid: boolean; errors: StoredIssue[]; warnings: StoredIssue[] }> {
  try {
    const result = await run(raw, { mode: monitored.validationMode, profile: monitored.profileName ?? undefined });
    return { isValid: result.isValid, errors: keep(result.errors), warnings: keep(result.warnings) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'PROCESSING_TIME_EXCEEDED' || code === 'PROCESSING_MEMORY_EXCEEDED') {
      const issue: StoredIssue = { field: 'MSH', code, severity: 'error', message: (error as Error).message };
      return { isValid: false, errors: [issue], warnings: [] };
    }
    if (code !== 'PROFILE_NOT_FOUND') throw error;
    const result = await run(raw, { mode: monitored.validationMode });
    const warning: StoredIssue = {
      field: 'MSH',
      code: 'PROFILE_NOT_LOADED',
      severity: 'warning',
      message: `The interface's profile could not be applied (${(error as Error).message}); validated against the standard alone.`,
    };
    return { isValid: result.isValid, errors: keep(result.errors), warnings: [warning, ...keep(result.warnings)] };
  }
}

/**
 * Reads content; `skip` messages at the start are already stored (an appended file), so only the later ones are
 * validated and returned. `receivedAtMs` is when the settled file was seen.
 */
export async function readContent(
  content: Buffer,
  options: { validate: ValidateMessage; monitored: MonitoredInterface; receivedAtMs: number; skip: number },
): Promise<ContentReading> {
  const split = splitHl7Messages(content);
  if (split.messages.length === 0) {
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
                messageTime: null,
                messageType: null,
                triggerEvent: null,
                version: null,
                controlId: null,
                sendingApplication: null,
                sendingFacility: null,
                patientIds: [],
                accountNumber: null,
                visitNumber: null,
                isValid: false,
                errors: [{ field: 'MSH', code: 'PARSE_ERROR', severity: 'error', message: problem }],
                warnings: [],
                latencyMs: null,
                // an unreadable file may be huge or binary: keep only its start for drill-down
                raw: content.subarray(0, 65_536).toString('utf8'),
              },
            ],
    };
  }
  const messages: ReadMessage[] = [];
  for (const facts of split.messages) {
    if (facts.index < options.skip) continue;
    const time = parseMessageTime(facts.messageTime);
    const verdict = await validate(options.validate, facts.raw, options.monitored);
    messages.push({
      indexInFile: facts.index,
      messageTime: time === undefined ? null : new Date(time).toISOString(),
      messageType: orNull(facts.messageType),
      triggerEvent: orNull(facts.triggerEvent),
      version: orNull(facts.version),
      controlId: orNull(facts.controlId),
      sendingApplication: orNull(facts.sendingApplication),
      sendingFacility: orNull(facts.sendingFacility),
      patientIds: facts.patientIds.map((p) => ({ id: p.id, assigningAuthority: orNull(p.assigningAuthority) })),
      accountNumber: orNull(facts.accountNumber) ?? orNull(facts.visitNumber),
      visitNumber: orNull(facts.visitNumber),
      ...verdict,
      latencyMs: time === undefined ? null : options.receivedAtMs - time,
      raw: facts.raw,
    });
  }
  return { messages, unparsable: false };
}
