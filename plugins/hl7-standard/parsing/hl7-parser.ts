/**
 * HL7 v2 parser: text or bytes in, message trees out, problems as data (it never throws).
 *
 * Reads delimiters from MSH-1/MSH-2 (v2.5 chapter 2.5.4; five characters with the v2.7 truncation character),
 * accepts CR, LF or CRLF segment terminators, strips a UTF-8 BOM, MLLP framing (0x0B ... 0x1C 0x0D) and leading
 * whitespace, splits any number of messages (with or without FHS/BHS/BTS/FTS batch envelopes) and decodes escape
 * sequences. The scanner walks character codes once per segment with a class table, which keeps it as fast as
 * native `split` while also splitting subcomponents and decoding escapes.
 */
import { decodeHl7Bytes } from './hl7-charset.ts';
import type { Hl7Message, Hl7Segment } from '../hl7-model.ts';
import {
  DEFAULT_HL7_DELIMITERS,
  type DelimiterScanner,
  isDelimiterChar,
  isSegmentName,
  parseHeaderSegment,
  parseSegment,
  readHeaderDelimiters,
  scannerFor,
} from './hl7-segment-scan.ts';

/** The delimiters of the standard, where the parser's callers have always found them. */
export { DEFAULT_HL7_DELIMITERS };

/** Code a parse problem carries: a broken MSH header, or anything else the parser could not read. */
export type Hl7ParseProblemCode = 'PARSE_ERROR' | 'MSH_INVALID';

/** Something the parser could not read as HL7. */
export interface Hl7ParseProblem {
  /** 1-based line of the input. */
  line: number;
  message: string;
  code: Hl7ParseProblemCode;
  /** Path of the field concerned, when there is one (`MSH.2`). */
  field?: string;
  /** Index of the message the problem belongs to; absent for content outside any message. */
  messageIndex?: number;
  /**
   * True for deviations working interfaces tolerate (a missing MSH-2 character); false for damage that is never
   * tolerated (undecodable bytes); absent otherwise.
   */
  tolerable?: boolean;
}

/** One message of the input, with where it came from. */
export interface Hl7ParsedMessage extends Hl7Message {
  /** 0-based position among the messages of the input. */
  index: number;
  /** The message's original text (segment terminators as in the input). */
  raw: string;
  /** 1-based line of its MSH segment. */
  startLine: number;
  /** Problems found while reading this message. */
  problems: Hl7ParseProblem[];
  /** Index of the batch (in {@link Hl7BatchEnvelope.batches}) the message belongs to, when inside BHS/BTS. */
  batchIndex?: number;
}

/** One BHS ... BTS batch. */
export interface Hl7Batch {
  header?: Hl7Segment;
  trailer?: Hl7Segment;
  /** Indexes of the messages in this batch. */
  messageIndexes: number[];
}

/** File and batch envelope segments (FHS/FTS, BHS/BTS), kept as parsed segments. */
export interface Hl7BatchEnvelope {
  fileHeader?: Hl7Segment;
  fileTrailer?: Hl7Segment;
  batches: Hl7Batch[];
  /** FHS and FTS segments after the first of each (a file has one of each at most), in input order. */
  extraFileSegments?: Hl7Segment[];
}

/** Everything a parse produced. */
export interface Hl7ParseResult {
  messages: Hl7ParsedMessage[];
  envelope: Hl7BatchEnvelope;
  /** Every problem, those of messages included (they carry `messageIndex`). */
  problems: Hl7ParseProblem[];
  /** Character set used to read byte input (`UTF-8` for string input). */
  charset: string;
  /** True when byte input was not valid in its character set (a problem says so; its bytes became U+FFFD). */
  decodingFailed?: boolean;
  /** Segment terminator seen first in the input (`\r`, `\n` or `\r\n`). */
  lineEnding?: '\r' | '\n' | '\r\n';
}

/** How to parse. */
export interface Hl7ParseOptions {
  /**
   * Called with each message as soon as it is complete (its raw text and its problems final), in order. With it the
   * result holds every message's facts but no segments: each message's segments are dropped once the callback
   * returned, so content of any number of messages is held one parsed message at a time.
   */
  onMessage?: (message: Hl7ParsedMessage) => void;
}

/** A short, printable excerpt of a line for problem messages. */
function excerpt(text: string, start: number, end: number): string {
  const slice = text.slice(start, Math.min(end, start + 40));
  // control characters are what must be hidden
  return slice.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?') + (end - start > 40 ? '...' : '');
}

/** True when the line from `start` to `end` opens a message or an envelope: `MSH`, `FHS` or `BHS` then a delimiter. */
function isHeaderLine(text: string, start: number, end: number): boolean {
  if (end - start < 4) return false;
  const name = text.slice(start, start + 3);
  return (name === 'MSH' || name === 'FHS' || name === 'BHS') && isDelimiterChar(text.charAt(start + 3));
}

/**
 * Reports what precedes the first header (a `[SOM]` marker, junk lines, a stray segment) as one problem that says
 * how much there is: the messages after it are still read, but a receiver expects the input to begin with a header.
 */
function reportLeadingContent(text: string, contentStart: number, headerStart: number, lines: number, headerLine: number, result: Hl7ParseResult): void {
  const bytes = Buffer.byteLength(text.slice(contentStart, headerStart), 'utf8');
  const name = text.slice(headerStart, headerStart + 3);
  result.problems.push({
    line: 1,
    code: 'PARSE_ERROR',
    message: `${lines} line(s) (${bytes} bytes) precede the first ${name} segment (line ${headerLine}); the content must begin with ${name}.`,
    tolerable: false,
  });
}

/**
 * Parses HL7 v2 content: one message, many messages, or FHS/BHS batches. Byte input is decoded per MSH-18.
 * Never throws: anything unreadable is reported in `problems`.
 */
export function parseHl7(input: string | Uint8Array, options: Hl7ParseOptions = {}): Hl7ParseResult {
  const result: Hl7ParseResult = { messages: [], envelope: { batches: [] }, problems: [], charset: 'UTF-8' };
  try {
    let text: string;
    if (typeof input === 'string') text = input;
    else {
      const decoded = decodeHl7Bytes(input);
      text = decoded.text;
      result.charset = decoded.charset;
      if (decoded.problem) {
        result.decodingFailed = true;
        result.problems.push({ line: 1, code: 'PARSE_ERROR', message: `The content could not be decoded: ${decoded.problem}.`, tolerable: false });
      }
    }
    scanMessages(text, result, options.onMessage);
  } catch (error) {
    result.problems.push({
      line: 0,
      code: 'PARSE_ERROR',
      message: `The content could not be parsed: ${error instanceof Error ? error.message : String(error)}.`,
    });
  }
  return result;
}

/** Records a problem, and on its message too when it belongs to one. */
function addProblem(result: Hl7ParseResult, problem: Hl7ParseProblem): void {
  result.problems.push(problem);
  if (problem.messageIndex !== undefined) result.messages[problem.messageIndex]?.problems.push(problem);
}

/** The line loop: finds segment boundaries, opens messages at MSH and tracks the batch envelope. */
function scanMessages(text: string, result: Hl7ParseResult, onMessage?: (message: Hl7ParsedMessage) => void): void {
  const length = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 0;
  // Next CR / LF positions are cached so that input using only one of them is still scanned in linear time.
  let nextCr = text.indexOf('\r', pos);
  let nextLf = text.indexOf('\n', pos);
  let message: Hl7ParsedMessage | undefined;
  let messageStart = 0;
  let messageEnd = 0;
  let scanner: DelimiterScanner | undefined;
  let batch: Hl7Batch | undefined;
  /** Ends the open message: its raw text is cut, and a caller that streams gets it (its segments dropped after). */
  const close = (): void => {
    if (!message) return;
    message.raw = text.slice(messageStart, messageEnd);
    if (onMessage) {
      onMessage(message);
      message.segments = [];
    }
    message = undefined;
  };

  const pending: Hl7ParseProblem[] = [];
  // Content before the first header (a `[SOM]` marker, junk lines) is summed up in one problem once a header comes.
  const contentStart = pos;
  let leadingLines = 0;

  while (pos < length) {
    line++;
    if (nextCr >= 0 && nextCr < pos) nextCr = text.indexOf('\r', pos);
    if (nextLf >= 0 && nextLf < pos) nextLf = text.indexOf('\n', pos);
    let end: number;
    let next: number;
    if (nextCr < 0 && nextLf < 0) {
      end = length;
      next = length;
    } else if (nextLf < 0 || (nextCr >= 0 && nextCr < nextLf)) {
      end = nextCr;
      next = text.charCodeAt(nextCr + 1) === 10 ? nextCr + 2 : nextCr + 1;
      result.lineEnding ??= next === nextCr + 2 ? '\r\n' : '\r';
    } else {
      end = nextLf;
      next = nextLf + 1;
      result.lineEnding ??= '\n';
    }
    // MLLP framing, vertical tabs, leading blanks and a byte-order mark (before or after the framing byte) are
    // transport noise, not content.
    let start = pos;
    while (start < end) {
      const c = text.charCodeAt(start);
      if (c === 0x0b || c === 0x20 || c === 0x09 || c === 0x1c || c === 0x0c || c === 0xfeff) start++;
      else break;
    }
    while (end > start && text.charCodeAt(end - 1) === 0x1c) end--;
    pos = next;
    if (start >= end) continue;

    const beforeFirstHeader = result.messages.length === 0 && result.envelope.fileHeader === undefined && result.envelope.batches.length === 0;
    if (beforeFirstHeader && !isHeaderLine(text, start, end)) {
      leadingLines++;
      continue;
    }
    if (beforeFirstHeader && leadingLines > 0) reportLeadingContent(text, contentStart, start, leadingLines, line, result);
    if (end - start < 3 || !isSegmentName(text, start)) {
      pending.push({ line, code: 'PARSE_ERROR', message: `Line ${line} is not an HL7 segment ("${excerpt(text, start, end)}").` });
      continue;
    }
    const name = text.slice(start, start + 3);
    // Lines that are not segments belong to the open message only when another of its segments follows them;
    // before a new header or the end of the input they are text between messages (comments, separators).
    const continuesMessage = message !== undefined && name !== 'MSH' && name !== 'FHS' && name !== 'BHS' && name !== 'BTS' && name !== 'FTS';
    if (pending.length > 0) {
      for (const p of pending) addProblem(result, { ...p, messageIndex: continuesMessage ? message?.index : undefined });
      pending.length = 0;
    }
    if (name === 'MSH' || name === 'FHS' || name === 'BHS') {
      const header = readHeaderDelimiters(text, start, end, name);
      if (name === 'MSH') {
        close();
        const index = result.messages.length;
        message = { index, raw: '', startLine: line, problems: [], delimiters: header.delimiters, segments: [] };
        if (batch) {
          message.batchIndex = result.envelope.batches.length - 1;
          batch.messageIndexes.push(index);
        }
        result.messages.push(message);
        messageStart = start;
        messageEnd = end;
        scanner = scannerFor(header.delimiters);
        if (header.problem) {
          addProblem(result, {
            line,
            code: 'MSH_INVALID',
            message: header.problem.message,
            field: header.problem.field,
            messageIndex: index,
            tolerable: header.problem.tolerable,
          });
        }
        message.segments.push(parseHeaderSegment(text, end, name, line, header));
        continue;
      }
      close();
      const segment = parseHeaderSegment(text, end, name, line, header);
      if (header.problem) addProblem(result, { line, code: 'PARSE_ERROR', message: header.problem.message, field: header.problem.field });
      if (name === 'FHS') {
        if (result.envelope.fileHeader) (result.envelope.extraFileSegments ??= []).push(segment);
        else result.envelope.fileHeader = segment;
      } else {
        batch = { header: segment, messageIndexes: [] };
        result.envelope.batches.push(batch);
      }
      continue;
    }
    if (name === 'BTS' || name === 'FTS') {
      close();
      const delimiters = scanner?.delimiters ?? result.messages.at(-1)?.delimiters ?? DEFAULT_HL7_DELIMITERS;
      const segment = parseSegment(text, start, end, name, line, scannerFor(delimiters));
      if (name === 'BTS') {
        if (batch) batch.trailer = segment;
        else {
          result.envelope.batches.push({ trailer: segment, messageIndexes: [] });
          addProblem(result, { line, code: 'PARSE_ERROR', message: `BTS (Batch Trailer) on line ${line} has no BHS (Batch Header) before it.` });
        }
        batch = undefined;
      } else if (result.envelope.fileTrailer) (result.envelope.extraFileSegments ??= []).push(segment);
      else result.envelope.fileTrailer = segment;
      continue;
    }
    if (!message || !scanner) {
      addProblem(result, { line, code: 'PARSE_ERROR', message: `Segment ${name} on line ${line} is outside of any message (no MSH before it).` });
      continue;
    }
    if (end > start + 3 && text.charCodeAt(start + 3) !== scanner.fieldCode) {
      addProblem(result, {
        line,
        code: 'PARSE_ERROR',
        message: `Line ${line} ("${excerpt(text, start, end)}") does not continue its segment name with the field separator "${scanner.delimiters.field}".`,
        messageIndex: message.index,
      });
      continue;
    }
    message.segments.push(parseSegment(text, start, end, name, line, scanner));
    messageEnd = end;
  }
  close();
  for (const p of pending) addProblem(result, p);
  if (result.messages.length === 0 && leadingLines > 0 && result.envelope.batches.length === 0 && !result.envelope.fileHeader) {
    result.problems.push({
      line: 1,
      code: 'PARSE_ERROR',
      message: text.trim() === '' ? 'The content is empty.' : 'The content holds no MSH segment, so it is not an HL7 v2 message.',
    });
  } else if (result.messages.length === 0 && result.problems.length === 0) {
    result.problems.push({
      line: text.length === 0 ? 0 : 1,
      code: 'PARSE_ERROR',
      message: text.trim() === '' ? 'The content is empty.' : 'The content holds no MSH segment, so it is not an HL7 v2 message.',
    });
  } else if (result.messages.length === 0) {
    result.problems.push({ line: 1, code: 'PARSE_ERROR', message: 'The content holds no MSH segment, so it is not an HL7 v2 message.' });
  }
}
