/**
 * Reading a settled file's content for the ingest queue: what a worker thread read of it, or a read here, stepped
 * through libuv's thread pool for big files.
 */
import { readSettledContent, readSettledContentInSteps, type ReceivedFile, type SettledContent } from '../../../kernel/lib/input/received-files.ts';
import type { SettledFile } from './folder-watcher.ts';

/**
 * Files of at least this many bytes are read a megabyte per read in libuv's thread pool rather than in one
 * synchronous read (a megabyte copies out of the page cache in well under a millisecond; 20 MB did not).
 */
const STEPPED_READ_MIN_BYTES = 1024 * 1024;

/**
 * A settled file's content and its stat after the read: what a worker thread read of it, or read here now; the file
 * system's error code when it could not be read (ENOENT: it is gone).
 */
export async function settledContent(job: Pick<SettledFile, 'absolutePath' | 'size'>, inWorker: ReceivedFile | undefined): Promise<SettledContent | { code: string | undefined }> {
  if (inWorker) {
    if (!inWorker.ok) return { code: inWorker.code };
    const { content, after } = inWorker;
    return { content: Buffer.from(content.buffer, content.byteOffset, content.byteLength), after };
  }
  try {
    if (job.size >= STEPPED_READ_MIN_BYTES) return await readSettledContentInSteps(job.absolutePath, job.size);
    return readSettledContent(job.absolutePath, job.size);
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code };
  }
}
