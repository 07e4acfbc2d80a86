/**
 * A buffered, back-pressured text file writer: text is gathered into chunks and written when a chunk is full, and
 * the writer waits for the disk to drain before taking more, so memory stays flat however large the output grows.
 * It counts bytes and hashes what it writes (SHA-256), so a population's output hash costs no second read.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

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
}

/** A text file being written. */
export class FileSink {
  private readonly stream: WriteStream;
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
  ) {
    // A deep queue lets the disk write one chunk while the next is generated; `drain` is awaited only when it fills.
    this.stream = createWriteStream(path, { mode: 0o600, highWaterMark: 8 * CHUNK_CHARS });
    // A disk error, or writes still queued when the sink is aborted, must fail the job, never the process.
    this.stream.on('error', (error) => {
      this.failure ??= error;
    });
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

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.pending === 0) return;
    const chunk = Buffer.from(this.pieces.join(''), 'utf8');
    this.pieces = [];
    this.pending = 0;
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Writes what is left and closes the file. */
  async close(): Promise<OutputFile> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (this.failure) throw this.failure;
    return { name: this.name, bytes: this.bytes, sha256: this.hash.digest('hex'), records: this.records, contentType: this.contentType };
  }

  /** Closes without caring for the content (a cancelled or failed job). */
  abort(): void {
    this.stream.destroy();
  }

  /** Where the file is. */
  get location(): string {
    return this.path;
  }
}
