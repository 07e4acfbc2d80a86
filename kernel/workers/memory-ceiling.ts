/**
 * The documented memory ceiling of the service. Heavy requests are admitted one per worker (the rest wait before
 * their body is read, or get 503), and each worker's heap is capped, so the resident memory of the whole process is
 * bounded by the main thread, plus per worker: its footprint once booted (every standard's definitions loaded), its
 * heap limit, and the copies of one maximum-size body the main thread holds while that worker has it (raw bytes,
 * body text, parsed content, the copy handed over, the answer).
 */

/** Resident memory of the main thread with every plugin loaded and serving, in MB (measured about 200, doubled). */
export const MAIN_THREAD_MB = 400;

/** A booted worker's memory outside its task's heap, in MB (measured about 175 with FHIR R4 loaded). */
export const WORKER_FOOTPRINT_MB = 200;

/** Copies of a request body the main thread holds while a worker has it. */
const BODY_COPIES = 6;

/** The ceiling of the service's resident memory, in MB, for its settings. */
export function memoryCeilingMb(settings: { threads: number; workerHeapMb: number; bodyLimitBytes: number }): number {
  const bodyMb = (BODY_COPIES * settings.bodyLimitBytes) / (1024 * 1024);
  return Math.ceil(MAIN_THREAD_MB + settings.threads * (WORKER_FOOTPRINT_MB + settings.workerHeapMb + bodyMb));
}
