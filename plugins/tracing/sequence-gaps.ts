/**
 * Gaps of one patient's events against an expected sequence: a step that never came, a step that came after its
 * limit, and steps out of order.
 *
 * An occurrence of the sequence starts at each event matching its first step and runs until the next one (events
 * naming a later step before any first step form one occurrence whose first step is missing). Copies of one message
 * (the same control id and type, as routing through an inbound and an outbound interface leaves them) count once: a
 * copy starts no occurrence of its own, and a step bound to no interface is satisfied by a copy on any interface.
 * Within an occurrence each later step is the first matching event; a step is `late` when it came more than its
 * limit after the step before it that was seen, `out-of-order` when it came before a step the sequence puts ahead of
 * it, and `missing` when no event matches; a missing step whose limit has not yet run out at `nowMs` is pending, not a
 * gap. One pass over the events per occurrence: cost is events x steps.
 */
import { formatSequence, stepTypeMatches, type ExpectedSequence, type SequenceStep } from './sequence-syntax.ts';
import { seenOf, type Gap, type TraceEvent } from './trace-model.ts';

/** A sequence to judge, with its name when it is a defined one. */
export interface JudgedSequence {
  name: string | null;
  sequence: ExpectedSequence;
}

/** Whether an event matches a step (type, and interface by name or id when the step names one). */
export function eventMatchesStep(step: SequenceStep, event: TraceEvent): boolean {
  const caret = event.messageType.indexOf('^');
  const type = caret < 0 ? event.messageType : event.messageType.slice(0, caret);
  const trigger = caret < 0 ? null : event.messageType.slice(caret + 1);
  if (!stepTypeMatches(step.messageType, type, trigger)) return false;
  return step.interface === null || step.interface === event.interface || step.interface === event.interfaceId;
}

/** What copies of one message share (control id and type), or null when the message has no control id. */
function messageKey(event: TraceEvent): string | null {
  return event.controlId === null || event.controlId === '' ? null : `${event.controlId}\u0000${event.messageType}`;
}

function stepText(step: SequenceStep): string {
  return step.interface === null ? step.messageType : `${step.messageType} on ${step.interface}`;
}

function durationText(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1_000 === 0) return `${ms / 1_000} s`;
  return `${ms} ms`;
}

/**
 * The gaps of one patient's events (sorted by {@link compareEvents}) against one sequence. `patientId` labels the
 * gaps; `nowMs` decides whether a step with a limit is still pending.
 */
export function sequenceGaps(events: readonly TraceEvent[], judged: JudgedSequence, patientId: string | null, nowMs: number): Gap[] {
  const { steps } = judged.sequence;
  const text = formatSequence(judged.sequence);
  const first = steps[0]!;
  // Start index of each occurrence in `events`.
  const starts: number[] = [];
  // A routed message passes several interfaces with its control id unchanged: its copies are one message, so a copy
  // of a message that already started an occurrence does not start another (which would leave the first one empty).
  const started = new Set<string>();
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (!eventMatchesStep(first, event)) continue;
    const copyKey = messageKey(event);
    if (copyKey !== null) {
      if (started.has(copyKey)) continue;
      started.add(copyKey);
    }
    starts.push(i);
  }
  if (starts.length === 0) {
    // No first step at all: judged only when a later step shows the patient entered the flow.
    if (!events.some((event) => steps.slice(1).some((step) => eventMatchesStep(step, event)))) return [];
    starts.push(-1);
  }
  const gaps: Gap[] = [];
  const base = (stepIndex: number, expected: string, seen: TraceEvent[], from: string, to: string, amount: number | null, interfaceId: string | null): Gap => ({
    kind: 'missing',
    sequence: text,
    sequenceName: judged.name,
    stepIndex,
    expected,
    seen: seen.map(seenOf),
    patientId,
    interfaceId,
    window: from <= to ? { from, to } : { from: to, to: from },
    amount,
  });
  for (let o = 0; o < starts.length; o++) {
    const start = starts[o]!;
    const end = o + 1 < starts.length ? starts[o + 1]! : events.length;
    const occurrence = events.slice(Math.max(start, 0), end);
    const found: Array<TraceEvent | undefined> = steps.map((step, index) => {
      if (index === 0) return start < 0 ? undefined : events[start];
      return occurrence.find((event) => eventMatchesStep(step, event));
    });
    const windowFrom = occurrence[0]?.timestamp ?? new Date(nowMs).toISOString();
    const windowTo = occurrence[occurrence.length - 1]?.timestamp ?? windowFrom;
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index]!;
      const event = found[index];
      let previousIndex = index - 1;
      while (previousIndex >= 0 && found[previousIndex] === undefined) previousIndex--;
      const previous = previousIndex >= 0 ? found[previousIndex] : undefined;
      const nextSeen = found.slice(index + 1).find((candidate) => candidate !== undefined);
      const stepIface = step.interface;
      if (event === undefined) {
        if (step.limitMs !== null && previous !== undefined && previousIndex === index - 1) {
          const deadline = Date.parse(previous.timestamp) + step.limitMs;
          if (deadline > nowMs) continue; // pending: its time has not run out
        }
        const around = [previous, nextSeen].filter((e): e is TraceEvent => e !== undefined);
        gaps.push(
          base(
            index,
            previous ? `${stepText(step)} after ${previous.messageType}` : `${stepText(step)} first`,
            around,
            previous?.timestamp ?? windowFrom,
            nextSeen?.timestamp ?? (previous && step.limitMs !== null ? new Date(Date.parse(previous.timestamp) + step.limitMs).toISOString() : windowTo),
            null,
            stepIface,
          ),
        );
        continue;
      }
      if (previous !== undefined && event.timestamp < previous.timestamp) {
        gaps.push({
          ...base(index, `${stepText(step)} after ${previous.messageType}`, [event, previous], event.timestamp, previous.timestamp, Date.parse(previous.timestamp) - Date.parse(event.timestamp), event.interfaceId),
          kind: 'out-of-order',
        });
        continue;
      }
      if (step.limitMs !== null && previous !== undefined && previousIndex === index - 1) {
        const took = Date.parse(event.timestamp) - Date.parse(previous.timestamp);
        if (took > step.limitMs) {
          gaps.push({
            ...base(
              index,
              `${stepText(step)} within ${durationText(step.limitMs)} of ${previous.messageType}`,
              [previous, event],
              new Date(Date.parse(previous.timestamp) + step.limitMs).toISOString(),
              event.timestamp,
              took - step.limitMs,
              event.interfaceId,
            ),
            kind: 'late',
          });
        }
      }
    }
  }
  return gaps;
}
