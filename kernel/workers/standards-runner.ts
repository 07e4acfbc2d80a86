/**
 * Runs a standard adapter's validate, diff and generate where they belong: small inputs on the event loop (a thread
 * hop costs more than the work), larger ones in the worker pool, so a 10 MB message never stalls the other bases.
 * Without a pool (one-shot CLI commands, before start) everything runs in-process.
 */
import type {
  DiffOptions,
  DiffResult,
  GenerateOptions,
  ReadContentOptions,
  ReadContentResult,
  StandardAdapter,
  ValidateOptions,
  ValidationResult,
} from '../standards-registry.ts';
import type { WorkPool } from './work-pool.ts';
import { fromPages, type PagedReading } from './paged-reading.ts';
import type { ReadFilesOptions, ReceivedFile, ReceivedFileRequest } from '../lib/input/received-files.ts';

/** Generated messages per request above which generation goes to the pool. */
const INLINE_GENERATE_COUNT = 10;

/** Dispatches adapter work to the event loop or the worker pool by size. */
export class StandardsRunner {
  private pool: WorkPool | undefined;

  /**
   * @param inlineBelowBytes inputs shorter than this (in characters) run in-process
   * @param readInPoolFromBytes received content of at least this many bytes is read in the pool
   */
  constructor(
    private readonly inlineBelowBytes: number,
    private readonly readInPoolFromBytes: number = inlineBelowBytes,
  ) {}

  /** Hands pooled work to `pool` from now on (undefined: everything in-process again). */
  usePool(pool: WorkPool | undefined): void {
    this.pool = pool;
  }

  /** True when input of this size goes to the pool. */
  isPooled(size: number): boolean {
    return this.pool !== undefined && size >= this.inlineBelowBytes;
  }

  /** Validates `content` with the adapter. */
  async validate(adapter: StandardAdapter, content: string, options: ValidateOptions): Promise<ValidationResult> {
    if (!this.pool || !this.isPooled(content.length)) return adapter.validate(content, options);
    return this.pool.run({ operation: 'validate', standard: adapter.id, content, options });
  }

  /**
   * Compares two messages with the adapter. A diff with ignoredFields patterns always goes to the pool: matching
   * costs messages times patterns, which the size of the input does not tell.
   */
  async diff(adapter: StandardAdapter, left: string, right: string, options: DiffOptions): Promise<DiffResult> {
    const size = left.length + right.length;
    const pooled = this.pool !== undefined && (options.ignoredFields.length > 0 || this.isPooled(size));
    if (!this.pool || !pooled) return adapter.diff(left, right, options);
    return this.pool.run({ operation: 'diff', standard: adapter.id, left, right, options });
  }

  /**
   * Reads received content with the adapter's reading capability (which it must have). Content of at least
   * `readInPoolFromBytes` is read in the pool whole, every message validated in the worker (`validateHere` stays behind), so a batch file of
   * many megabytes never holds the event loop; shorter content is read here, honouring `validateHere`.
   */
  async read(adapter: StandardAdapter, content: Uint8Array, options: ReadContentOptions): Promise<ReadContentResult> {
    const reading = adapter.reading;
    if (!reading) throw new Error(`The standard adapter "${adapter.id}" cannot read received content.`);
    if (!this.pool || content.length < Math.max(this.readInPoolFromBytes, this.inlineBelowBytes)) return reading.readMessages(content, options);
    const { validateHere: _here, ...portable } = options;
    // the worker gets a copy of its own, moved to it: a structured clone of megabytes would be serialized on the event
    // loop in one stretch (the caller keeps its content)
    const copy = new Uint8Array(content.length);
    copy.set(content);
    const paged = await this.pool.run<PagedReading>({ operation: 'read', standard: adapter.id, content: copy, options: portable }, [copy.buffer]);
    return fromPages(paged);
  }

  /**
   * Reads a batch of small received files in the pool as one task (received-files.ts), so the event loop is free
   * meanwhile; undefined without a pool: the caller reads them itself. Rejects as {@link WorkPool.run} does (busy,
   * over budget, stopping).
   */
  async readFiles(files: ReceivedFileRequest[], options: ReadFilesOptions): Promise<ReceivedFile[] | undefined> {
    if (!this.pool) return undefined;
    return this.pool.run({ operation: 'readFiles', files, options });
  }

  /** Generates messages with the adapter. */
  async generate(adapter: StandardAdapter, options: GenerateOptions): Promise<string[]> {
    if (!this.pool || options.count <= INLINE_GENERATE_COUNT) return adapter.generate(options);
    return this.pool.run({ operation: 'generate', standard: adapter.id, options });
  }
}
