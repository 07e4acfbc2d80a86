/**
 * Received files, read where the work runs: each file opened once and read through one descriptor, bounded by the
 * size its caller expects plus one byte (a file that grew since shows it), with its size and mtime taken after the
 * read from the same descriptor; its SHA-256; the adapter whose reading capability reads it (the one named, or the
 * one most confident about its start); and its messages read by that capability. The worker pool runs a batch of
 * small files this way as one task ({@link StandardsRunner.readFiles}), so reading them leaves the event loop free
 * for what the caller does with the previous batch. Nothing here knows why the files are read or what was read
 * before: the caller judges what it gets.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { WorkbenchError } from '../../errors.ts';
import type { ReadContentOptions, ReadContentResult, StandardAdapter } from '../../standards-registry.ts';

/** Characters of a file's start an adapter's `detect` looks at when the standard is chosen by content. */
const DETECT_CHARS = 4096;

/** Content read from a file, with the file's size and mtime once it was read. */
export interface SettledContent {
  content: Buffer;
  after: { size: number; mtimeMs: number };
}

/**
 * Reads at most `expectedSize + 1` bytes of a file through one descriptor: one open, one read, one fstat, one close.
 * A file that grew past `expectedSize` fills the buffer and shows a size or mtime other than the expected ones; a
 * short read of a regular file is its end. Throws the file system's error (ENOENT for a file gone).
 */
export function readSettledContent(path: string, expectedSize: number): SettledContent {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(expectedSize + 1);
    const length = readSync(fd, buffer, 0, buffer.length, null);
    const after = fstatSync(fd);
    return { content: buffer.subarray(0, length), after: { size: after.size, mtimeMs: after.mtimeMs } };
  } finally {
    closeSync(fd);
  }
}

/** Bytes of one read of {@link readSettledContentInSteps}. */
const READ_STEP_BYTES = 1024 * 1024;

/**
 * {@link readSettledContent} for a large file read on the event loop: the same bound and the same stat after the
 * read, the bytes read a megabyte per read in libuv's thread pool, so copying a batch file of 20 MB out of the page
 * cache (or waiting for the disk) never holds the loop in one stretch.
 */
export async function readSettledContentInSteps(path: string, expectedSize: number): Promise<SettledContent> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(expectedSize + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, Math.min(READ_STEP_BYTES, buffer.length - length), null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const after = await handle.stat();
    return { content: buffer.subarray(0, length), after: { size: after.size, mtimeMs: after.mtimeMs } };
  } finally {
    await handle.close();
  }
}

/**
 * The adapter that reads content: for a named standard, its adapter if it can read; for `auto`, the reading adapter
 * most confident about the content's start (scores 0 to 1; the first one certain wins). `adapter` is absent when
 * none is confident (at least 0.5); `fallback` is then the closest one (if any resembles it at all), to name the standard of the failure.
 */
export function chooseReadingAdapter(
  adapters: readonly StandardAdapter[],
  standard: string,
  content: Uint8Array,
): { adapter?: StandardAdapter; fallback?: StandardAdapter } {
  const readable = adapters.filter((a) => a.reading !== undefined);
  if (standard !== 'auto') {
    const declared = readable.find((a) => a.id === standard);
    return { adapter: declared, fallback: declared };
  }
  const head = Buffer.from(content.buffer, content.byteOffset, Math.min(content.byteLength, DETECT_CHARS)).toString('utf8');
  let best: StandardAdapter | undefined;
  let bestScore = -1;
  for (const adapter of readable) {
    let score = 0;
    try {
      score = adapter.detect(head);
    } catch {
      score = 0;
    }
    if (score > bestScore) {
      best = adapter;
      bestScore = score;
      if (score >= 1) break;
    }
  }
  // a score of 0 is no resemblance at all: naming the first registered standard would depend on load order
  return { adapter: bestScore >= 0.5 ? best : undefined, fallback: bestScore > 0 ? best : undefined };
}

/** A file to read: where it is, and the size it is expected to have. */
export interface ReceivedFileRequest {
  path: string;
  expectedSize: number;
}

/** How a batch of files is read: the standard (an adapter id, or `auto`) and the reading options. */
export interface ReadFilesOptions {
  standard: string;
  read: Omit<ReadContentOptions, 'validateHere'>;
}

/** What reading one file gave. */
export type ReceivedFile =
  /** The file could not be opened or read: the file system's error code (ENOENT: it is gone). */
  | { ok: false; code: string }
  | {
      ok: true;
      content: Uint8Array;
      after: { size: number; mtimeMs: number };
      /** SHA-256 of the content, hex. */
      sha256: string;
      /** The id of the adapter that read it; absent when no adapter was confident, or the content is empty. */
      reader?: string;
      /** Its messages, every one validated; absent when no adapter read it, or the reading raised `readError`. */
      read?: ReadContentResult;
      /** A catalogue error the reading raised (an unknown profile): the caller reads the content itself. */
      readError?: { code: string; message: string };
    };

/**
 * Reads each file (an empty one is not read by any adapter). A catalogue error of the reading is answered per file;
 * anything else a reading throws is a failure of the whole call.
 */
export function readReceivedFiles(adapters: readonly StandardAdapter[], files: readonly ReceivedFileRequest[], options: ReadFilesOptions): ReceivedFile[] {
  return files.map((file): ReceivedFile => {
    let settled: SettledContent;
    try {
      settled = readSettledContent(file.path, file.expectedSize);
    } catch (error) {
      return { ok: false, code: (error as NodeJS.ErrnoException).code ?? 'EIO' };
    }
    // its own buffer: a small read shares a slab with others, which a transfer to another thread would copy whole
    const content = new Uint8Array(settled.content);
    const { after } = settled;
    const sha256 = createHash('sha256').update(content).digest('hex');
    if (content.length === 0) return { ok: true, content, after, sha256 };
    const { adapter } = chooseReadingAdapter(adapters, options.standard, content);
    if (!adapter?.reading) return { ok: true, content, after, sha256 };
    try {
      return { ok: true, content, after, sha256, reader: adapter.id, read: adapter.reading.readMessages(content, options.read) };
    } catch (error) {
      if (!(error instanceof WorkbenchError)) throw error;
      return { ok: true, content, after, sha256, reader: adapter.id, readError: { code: error.code, message: error.message } };
    }
  });
}
