/**
 * How far the JavaScript heap of a running service may grow past what is live. On a machine with much memory V8 lets
 * the old generation reach about four times what survived the last full collection before it collects again, so a
 * service that reads a steady stream of messages holds hundreds of MB of garbage it would never need. The growth
 * factor is read by V8 each time it sets the next limit, so it can be set once the service starts, for the whole
 * process (worker threads included), without a command-line flag.
 */
import { setFlagsFromString } from 'node:v8';

/** Sets the heap growth factor to 1 + percent / 100; 0 leaves V8's own choice. */
export function limitHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent <= 0) return;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
