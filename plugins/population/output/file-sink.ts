/**
 * A buffered, back-pressured text file writer: text is gathered into chunks and written when a chunk is full, and
 * the writer waits for the disk to drain before taking more, so memory stays flat however large the output grows.
 * It counts bytes and hashes what it writes (SHA-256), so a population's output hash costs no second read. A sink
 * may compress as it writes (gzip): the file is then stored as `<name>.gz` and served with `Content-Encoding: gzip`;
 * its SHA-256 stays that of the content, so an attestation does not depend on how the file is stored.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { constants as zlibConstants, createGzip } from 'node:zlib';

const CHUNK_CHARS = 256 * 1024;

/** One output file of a population. */
export interface OutputFile {
  /** File name inside the job's folder. */
  name: string;
  bytes: number;
  /** SHA-256 of the content, hex. */
  sha256: string;
  /** Records written (rows, messages or Bundles). */
  records: number;
  contentType: string;
  /** `gzip` when the file is stored compressed (as `<name>.gz`); `bytes` is then the stored size. */
  encoding?: 'gzip';
}

/** Where a file of a job is stored, inside the job's folder: its name, with `.gz` when compressed. */
export function storedName(file: Pick<OutputFile, 'name' | 'encoding'>): string {
  return file.encoding === 'gzip' ? `${file.name}.gz` : file.name;
}

/** A text file being written. */
export class FileSink {
  private readonly stream: WriteStream;
  /** What chunks are written to: the file, or the compressor in front of it. */
  private readonly target: Writable;
  private readonly compress: boolean;
  private readonly hash: Hash = createHash('sha256');
  // Pieces are kept apart and joined once per chunk: appending to one string builds a deep rope that is costly to flatten.
  private pieces: string[] = [];
  private pending = 0;
  private bytes = 0;
  /** Records written, counted by the caller. */
  records = 0;
  private failure: Error | undefined;

  constructor(
    private readonly path: string,
    readonly name: string,
    private readonly contentType: string,
    options: { compress?: boolean } = {},
  ) {
    this.compress = options.compress === true;
    // A deep queue lets the disk write one chunk while the next is generated; `drain` is awaited only when it fills.
    this.stream = createWriteStream(this.compress ? `${path}.gz` : path, { mode: 0o600, highWaterMark: 8 * CHUNK_CHARS });
    // A disk error, or writes still queued when the sink is aborted, must fail the job, never the process.
    this.stream.on('error', (error) => {
      this.failure ??= error;
    });
    if (this.compress) {
      // The fastest level: generation, not the disk, is the bound, and text still shrinks about sevenfold.
      const gzip = createGzip({ level: zlibConstants.Z_BEST_SPEED });
      gzip.on('error', (error) => {
        this.failure ??= error;
      });
      gzip.pipe(this.stream);
      this.target = gzip;
    } else {
      this.target = this.stream;
    }
  }

  /**
   * Appends text. Returns a promise only when a full chunk had to wait for the disk (await it then); otherwise
   * undefined, so the common case costs no promise at all.
   */
  write(text: string): Promise<void> | undefined {
    this.pieces.push(text);
    this.pending += text.length;
    return this.pending >= CHUNK_CHARS ? this.flush() : undefined;
  }

  /**
   * Appends bytes already encoded (UTF-8 text a writer built as bytes), after any text still gathered. The sink owns
   * `chunk` until `written` is called with it (once the file, or the compressor, has consumed it): the caller must
   * not touch it before, and may reuse it after.
   */
  async writeBytes(chunk: Buffer, written?: (chunk: Buffer) => void): Promise<void> {
    await this.flush();
    await this.push(chunk, written);
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.pending === 0) return;
    const chunk = Buffer.from(this.pieces.join(''), 'utf8');
    this.pieces = [];
    this.pending = 0;
    await this.push(chunk);
  }

  private async push(chunk: Buffer, written?: (chunk: Buffer) => void): Promise<void> {
    if (this.failure) throw this.failure;
    this.hash.update(chunk);
    this.bytes += chunk.length;
    // A chunk that failed to write is never given back: the stream may still hold it.
    const accepted = written ? this.target.write(chunk, (error) => error || written(chunk)) : this.target.write(chunk);
    if (!accepted) await once(this.target, 'drain');
  }

  /** Writes what is left and closes the file. */
  async close(): Promise<OutputFile> {
    await this.flush();
    const finished = once(this.stream, 'finish');
    this.target.end();
    await finished;
    if (this.failure) throw this.failure;
    const sha256 = this.hash.digest('hex');
    const file = { name: this.name, sha256, records: this.records, contentType: this.contentType };
    return this.compress ? { ...file, bytes: this.stream.bytesWritten, encoding: 'gzip' } : { ...file, bytes: this.bytes };
  }

  /** Closes without caring for the content (a cancelled or failed job). */
  abort(): void {
    if (this.target !== this.stream) this.target.destroy();
    this.stream.destroy();
  }

  /** Whether the file is closed (after `close` or `abort`); the stream reports its errors before it closes. */
  get closed(): boolean {
    return this.stream.closed;
  }

  /** Where the file is. */
  get location(): string {
    return this.path;
  }
}
