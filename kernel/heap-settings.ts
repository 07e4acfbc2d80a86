/**
 * The V8 heap setting of a process that serves requests. V8 "pretenures" an allocation site (allocates its objects
 * straight in the old generation) once a few young collections found most of them alive. Whether that happens to a
 * parser's sites depends on timing at boot: a collection that runs while definitions load, or while a first large
 * batch is read, can catch the parser's short-lived objects alive. Measured on the HL7 message reader, a process
 * that made that decision read about 13,500 1 KB messages/s, one that did not about 45,000, and which one a start
 * got was chance (`npm run bench -- monitor` prints the reader's rate). A service's allocations are nearly all
 * short-lived (one message, one request), so the Workbench turns the heuristic off for the process, before any
 * plugin is loaded; the worker threads it starts share the setting.
 */
import { setFlagsFromString } from 'node:v8';

let applied = false;

/** Keeps every allocation young until it survives (no allocation-site pretenuring); once per process. */
export function keepShortLivedAllocationsYoung(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--no-allocation-site-pretenuring');
}
