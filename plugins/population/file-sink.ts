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
  private buffer = '';
  private bytes = 0;
  /** Records written, counted by the caller. */
  records = 0;

  constructor(
    private readonly path: string,
    readonly name: string,
    private readonly contentType: string,
  ) {
    this.stream = createWriteStream(path, { mode: 0o600 });
  }

  /** Appends text; resolves at once unless a full chunk had to wait for the disk. */
  async write(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= CHUNK_CHARS) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = Buffer.from(this.buffer, 'utf8');
    this.buffer = '';
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Writes what is left and closes the file. */
  async close(): Promise<OutputFile> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
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
