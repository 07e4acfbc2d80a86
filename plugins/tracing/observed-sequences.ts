/**
 * Sequences the monitor observes: for each patient of a bounded recent window, the path of message types in time
 * order (a type repeated back to back counts once, acknowledgements are left out, at most
 * {@link MAX_OBSERVED_STEPS} steps), counted over patients. The most common paths are what a user may adopt as
 * expected sequences. Linear in the events read.
 */
import { compareEvents, type TraceEvent } from './trace-model.ts';

/** Longest observed path kept (longer paths are cut, so a chatty patient does not make a unique path). */
export const MAX_OBSERVED_STEPS = 8;

/** One observed path with the number of patients that followed it. */
export interface ObservedSequence {
  /** Sequence text (`ADT^A01>ORM^O01>ORU^R01`), ready for POST /api/monitor/sequences. */
  sequence: string;
  patients: number;
}

/** Key of a patient across messages: first identifier with its authority. */
export function patientKeyOf(event: Pick<TraceEvent, 'patientIds'>): string | null {
  const first = event.patientIds[0];
  if (!first) return null;
  return `${first.id}\u0000${first.assigningAuthority ?? ''}`;
}

/** The `top` most common paths of at least two steps among the events' patients, most patients first. */
export function observedSequences(events: Iterable<TraceEvent>, top: number): ObservedSequence[] {
  const byPatient = new Map<string, TraceEvent[]>();
  for (const event of events) {
    if (event.messageType === 'ACK' || event.messageType.startsWith('ACK^')) continue;
    const key = patientKeyOf(event);
    if (key === null) continue;
    const list = byPatient.get(key);
    if (list) list.push(event);
    else byPatient.set(key, [event]);
  }
  const counts = new Map<string, number>();
  for (const list of byPatient.values()) {
    list.sort(compareEvents);
    const path: string[] = [];
    for (const event of list) {
      if (path[path.length - 1] === event.messageType) continue;
      path.push(event.messageType);
      if (path.length === MAX_OBSERVED_STEPS) break;
    }
    if (path.length < 2 || path.includes('UNKNOWN')) continue;
    const text = path.join('>');
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([sequence, patients]) => ({ sequence, patients }));
}
