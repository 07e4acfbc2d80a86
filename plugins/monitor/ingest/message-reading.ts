/**
 * Turns the content of a settled file into the messages the monitor stores, whatever the standard: the interface's
 * declared standard (or, for `auto`, the adapter most confident about the file's start) reads the content through
 * its reading capability (kernel `MessageReading`): split and validated in one pass with the interface's mode and
 * profile, facts mapped through the declared list (message-facts.ts), latency computed. The monitor branches on the
 * capability, never on a standard's name. A message long enough for the worker pool is validated there instead,
 * through the kernel's runner, so it never holds the event loop. Content holding no message at all is one failed
 * message with a PARSE_ERROR, never an exception.
 */
import type {
  ReadContentOptions,
  ReadContentResult,
  ReadMessageVerdict,
  StandardAdapter,
  ValidateOptions,
  ValidationIssue,
  ValidationResult,
} from '../../../kernel/standards-registry.ts';
import { chooseReadingAdapter, type ReadFilesOptions, type ReceivedFile, type ReceivedFileRequest } from '../../../kernel/lib/input/received-files.ts';
import type { MessageFacts, MonitoredInterface, MonitoredStandard, StoredIssue } from '../api.ts';
import { digestOf, noFacts, readFacts } from '../messages/message-facts.ts';
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';
import { textDigestInSlices } from './text-digest.ts';

/** Most issues of each severity kept with a message (the counts are what metrics use). */
export const STORED_ISSUES_MAX = 20;

/** Validates one message's text with an adapter (the adapter itself, or the kernel's runner in front of it). */
export type ValidateMessage = (adapter: StandardAdapter, content: string, options: ValidateOptions) => Promise<ValidationResult> | ValidationResult;

/** How content is read: the registered adapters, and the runner for messages too long for the event loop. */
export interface ContentReaders {
  /** The registered adapters (those with a reading capability can read files). */
  adapters(): readonly StandardAdapter[];
  /**
   * Reads content with an adapter's reading capability: here when short, in the worker pool when long (a batch file
   * of many megabytes), so no file holds the event loop.
   */
  read(adapter: StandardAdapter, content: Uint8Array, options: ReadContentOptions): Promise<ReadContentResult> | ReadContentResult;
  /** Validates a message the reading left without a verdict. */
  validate: ValidateMessage;
  /** Whether a message of this length is validated on the event loop, by the reading. */
  validateHere(rawLength: number): boolean;
  /**
   * Reads a batch of small files in a worker thread, every message validated there (kernel received-files.ts);
   * undefined when there is no worker pool. Absent: files are always read here.
   */
  readFiles?(files: ReceivedFileRequest[], options: ReadFilesOptions): Promise<ReceivedFile[] | undefined>;
}

/** A file read in a worker thread whose reading succeeded: its messages, read and validated there. */
export type PooledReading = Extract<ReceivedFile, { ok: true }> & { reader: string; read: ReadContentResult };

/** Whether a worker thread's reading of a file can be used as it is (read by an adapter, without error). */
export function isPooledReading(file: ReceivedFile | undefined): file is PooledReading {
  return file !== undefined && file.ok && file.reader !== undefined && file.read !== undefined;
}

/** A message ready to be stored: its facts without what the ledger assigns (ids, file, receipt time), and its text. */
export type ReadMessage = Omit<MessageFacts, 'id' | 'interfaceId' | 'fileId' | 'receivedAt'> & { raw: string };

/** What reading a file's content produced. */
export interface ContentReading {
  messages: ReadMessage[];
  /** True when the content held no message at all. */
  unparsable: boolean;
  /** Why, when unparsable. */
  problem?: string;
  /**
   * Where the content's last message starts when it is still open (its end is not a message's end, kernel
   * `MessageReading.completeLength`) and it failed, or the content held no message: bytes from here on may be a
   * message its writer has not finished. Absent when the content ends with a whole message, or its last one passed.
   */
  openFrom?: number;
}

function keep(issues: ValidationIssue[]): StoredIssue[] {
  return issues.slice(0, STORED_ISSUES_MAX).map((i) => ({
    field: i.field,
    code: i.code,
    severity: i.severity,
    message: i.message,
    ...(i.expected === undefined ? {} : { expected: i.expected }),
    ...(i.actual === undefined ? {} : { actual: i.actual }),
  }));
}

/** The warning stored with each message when the interface's profile is no longer loaded. */
function profileNotLoaded(error: unknown): StoredIssue {
  return {
    field: 'message',
    code: 'PROFILE_NOT_LOADED',
    severity: 'warning',
    message: `The interface's profile could not be applied (${(error as Error).message}); validated against the standard alone.`,
  };
}

/** A verdict as stored: at most STORED_ISSUES_MAX issues of each severity, an extra warning first. */
function stored(verdict: ReadMessageVerdict, extraWarning?: StoredIssue): Pick<ReadMessage, 'isValid' | 'errors' | 'warnings'> {
  const warnings = keep(verdict.warnings);
  return { isValid: verdict.isValid, errors: keep(verdict.errors), warnings: extraWarning ? [extraWarning, ...warnings] : warnings };
}

/**
 * Validates one message (the kernel's runner: on the event loop when small, in the worker pool when large). A
 * message the pool gave up on (time or memory budget) is a failed message carrying that code; a profile that is no
 * longer loaded falls back to the plain standard, with a warning.
 */
async function validate(
  readers: ContentReaders,
  adapter: StandardAdapter,
  raw: string,
  monitored: MonitoredInterface,
): Promise<Pick<ReadMessage, 'isValid' | 'errors' | 'warnings'>> {
  try {
    return stored(await readers.validate(adapter, raw, { mode: monitored.validationMode, profile: monitored.profileName ?? undefined }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'PROCESSING_TIME_EXCEEDED' || code === 'PROCESSING_MEMORY_EXCEEDED') {
      const issue: StoredIssue = { field: 'message', code, severity: 'error', message: (error as Error).message };
      return { isValid: false, errors: [issue], warnings: [] };
    }
    if (code !== 'PROFILE_NOT_FOUND') throw error;
    return stored(await readers.validate(adapter, raw, { mode: monitored.validationMode }), profileNotLoaded(error));
  }
}

/** The pool's codes for work it gave up on: the content is then a failed file saying so, never a crash. */
const GIVEN_UP = new Set(['PROCESSING_TIME_EXCEEDED', 'PROCESSING_MEMORY_EXCEEDED']);

/**
 * Reads with the interface's profile; one no longer loaded falls back to the standard. Content the worker pool gave
 * up on (over its time or memory budget) comes back as the reason, for the file to be failed with it.
 */
async function readWithProfile(
  adapter: StandardAdapter,
  readers: ContentReaders,
  content: Buffer,
  monitored: MonitoredInterface,
  firstIndex: number,
): Promise<{ read: ReadContentResult; warning?: StoredIssue } | { givenUp: string }> {
  const options = { mode: monitored.validationMode, firstIndex, validateHere: (n: number) => readers.validateHere(n) };
  try {
    try {
      return { read: await readers.read(adapter, content, { ...options, profile: monitored.profileName ?? undefined }) };
    } catch (error) {
      if ((error as { code?: string }).code !== 'PROFILE_NOT_FOUND') throw error;
      return { read: await readers.read(adapter, content, options), warning: profileNotLoaded(error) };
    }
  } catch (error) {
    if (!GIVEN_UP.has((error as { code?: string }).code ?? '')) throw error;
    return { givenUp: `The file could not be read: ${(error as Error).message}` };
  }
}

/**
 * The one failed message an unreadable file becomes. The file may be a batch file of 20 MB the pool gave up on: its
 * digest is taken a megabyte at a time, and only its start is decoded for the message's text.
 */
async function unreadableMessage(standard: MonitoredStandard, problem: string, content: Buffer): Promise<ReadMessage> {
  return {
    indexInFile: 0,
    standard,
    ...noFacts(),
    contentDigest: await textDigestInSlices(content),
    isValid: false,
    errors: [{ field: 'message', code: 'PARSE_ERROR', severity: 'error', message: problem }],
    warnings: [],
    latencyMs: null,
    latencyClass: 'none',
    // an unreadable file may be huge or binary: keep only its start for drill-down
    raw: content.subarray(0, 65_536).toString('utf8'),
  };
}

/**
 * Reads content; `skip` messages at the start are already stored (an appended file), so only the later ones are
 * validated and returned. `receivedAtMs` is when the settled file was seen. `pooled` is the content's reading done
 * in a worker thread (the whole content, nothing skipped): its messages are taken as they are.
 */
export async function readContent(
  content: Buffer,
  options: { readers: ContentReaders; monitored: MonitoredInterface; receivedAtMs: number; skip: number; pooled?: PooledReading },
): Promise<ContentReading> {
  const { monitored, readers, pooled } = options;
  const registered = readers.adapters();
  const chosen = pooled ? registered.find((a) => a.id === pooled.reader) : undefined;
  const { adapter, fallback } = chosen ? { adapter: chosen, fallback: chosen } : chooseReadingAdapter(registered, monitored.standard, content);
  const fallbackStandard = (fallback?.id ?? (monitored.standard === 'auto' ? 'hl7' : monitored.standard)) as MonitoredStandard;
  const failed = async (problem: string): Promise<ContentReading> => ({
    unparsable: true,
    problem,
    messages: options.skip > 0 ? [] : [await unreadableMessage(fallbackStandard, problem, content)],
    ...openTail(adapter ?? fallback, content),
  });
  if (!adapter) {
    const names = readers.adapters().filter((a) => a.reading).map((a) => a.id).join(', ') || 'none';
    return failed(
      monitored.standard === 'auto'
        ? `The content is of no standard the monitor reads (${names}).`
        : `The ${monitored.standard} standard cannot read files here (standards that can: ${names}).`,
    );
  }
  const standard = adapter.id as MonitoredStandard;
  const reading = chosen && pooled ? { read: pooled.read } : await readWithProfile(adapter, readers, content, monitored, options.skip);
  if ('givenUp' in reading) return failed(reading.givenUp);
  const { read, warning } = reading;
  if (read.messageCount === 0) return failed(read.problems[read.problems.length - 1] ?? `The content holds no ${adapter.displayName} message.`);
  const messages: ReadMessage[] = [];
  // a batch file of 100,000 messages costs a second here: the loop takes turns with everything else
  const slice = new LoopSlice();
  for (const message of read.messages) {
    if (slice.spent()) await slice.pass();
    const facts = readFacts(message.facts);
    const verdict = message.verdict ? stored(message.verdict, warning) : await validate(readers, adapter, message.raw, monitored);
    const time = facts.messageTime === null ? Number.NaN : Date.parse(facts.messageTime);
    messages.push({
      indexInFile: message.index,
      standard,
      ...facts,
      contentDigest: digestOf(message.raw),
      ...verdict,
      latencyMs: Number.isFinite(time) ? options.receivedAtMs - time : null,
      latencyClass: Number.isFinite(time) ? 'ok' : 'none',
      raw: message.raw,
    });
  }
  const last = messages[messages.length - 1];
  const lastFailed = last !== undefined && last.indexInFile === read.messageCount - 1 && !last.isValid;
  return { messages, unparsable: false, ...(lastFailed ? openTail(adapter, content) : {}) };
}

/** `openFrom` of content whose last message failed: where that message starts when it is still open. */
function openTail(adapter: StandardAdapter | undefined, content: Buffer): Pick<ContentReading, 'openFrom'> {
  const whole = adapter?.reading?.completeLength?.(content) ?? content.length;
  return whole < content.length ? { openFrom: whole } : {};
}
