/**
 * Invariants of the R4 data types used everywhere, checked in code rather than by the FHIRPath engine: a Period,
 * ContactPoint, Quantity or Reference occurs dozens of times in a resource, and evaluating these four one-line rules
 * through an expression engine cost a quarter of the whole validation. Each follows its R4 4.0.1 expression, quoted.
 */
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';

/** A check answers true when the invariant holds, or a short reason when it does not. */
export interface NativeInvariant {
  key: string;
  human: string;
  holds(value: Record<string, unknown>, rootResource: Record<string, unknown>): true | string;
}

/** A date, dateTime or instant split into its parts, the time zone's offset in minutes apart. */
interface DateParts {
  parts: number[];
  offsetMinutes?: number;
}

const DATE_TIME = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

function dateParts(value: unknown): DateParts | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DATE_TIME.exec(value);
  if (!match) return undefined;
  const parts: number[] = [];
  for (let i = 1; i <= 6 && match[i] !== undefined; i++) parts.push(Number(match[i]));
  const zone = match[7];
  const offsetMinutes = zone === undefined ? undefined : zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return { parts, offsetMinutes };
}

/** Milliseconds of parts with a time and zone, the missing seconds as 0. */
function instantOf(date: DateParts): number {
  const [year, month, day, hour, minute, second = 0] = date.parts as [number, number, number, number, number, number?];
  return Date.UTC(year, month - 1, day, hour, minute, 0, second * 1000) - (date.offsetMinutes ?? 0) * 60_000;
}

/**
 * FHIRPath's `a <= b` on two date/time values: true or false where the values decide it, undefined (empty) where one
 * is less precise and they agree as far as both go.
 */
export function dateTimeAtMost(a: DateParts, b: DateParts): boolean | undefined {
  const timed = a.parts.length >= 5 && b.parts.length >= 5 && a.offsetMinutes !== undefined && b.offsetMinutes !== undefined;
  if (timed && (a.parts.length === b.parts.length || Math.min(a.parts.length, b.parts.length) >= 5)) {
    const left = instantOf(a);
    const right = instantOf(b);
    if (left !== right || a.parts.length === b.parts.length) return left <= right;
    return undefined;
  }
  const common = Math.min(a.parts.length, b.parts.length);
  for (let i = 0; i < common; i++) {
    if ((a.parts[i] as number) !== (b.parts[i] as number)) return (a.parts[i] as number) < (b.parts[i] as number);
  }
  return a.parts.length === b.parts.length ? true : undefined;
}

const PER_1: NativeInvariant = {
  key: 'per-1',
  human: 'If present, start SHALL have a lower value than end',
  // start.hasValue().not() or end.hasValue().not() or (start <= end)
  holds(period) {
    const start = dateParts(period.start);
    const end = dateParts(period.end);
    if (!start || !end) return true;
    // An invariant holds only when its expression is true: start and end of different precision that agree as far as
    // both go leave `start <= end` empty, and the invariant unproven (as HL7's validator judges it).
    const atMost = dateTimeAtMost(start, end);
    if (atMost === true) return true;
    const shown = `start ${excerpt(String(period.start))}`;
    return atMost === false ? `${shown} is after end ${excerpt(String(period.end))}` : `${shown} and end ${excerpt(String(period.end))} differ in precision, so start <= end is undecided`;
  },
};

const CPT_2: NativeInvariant = {
  key: 'cpt-2',
  human: 'A system is required if a value is provided.',
  // value.empty() or system.exists()
  holds: (contact) => (contact.value === undefined || contact.system !== undefined ? true : ''),
};

const QTY_3: NativeInvariant = {
  key: 'qty-3',
  human: 'If a code for the unit is present, the system SHALL also be present',
  // code.empty() or system.exists()
  holds: (quantity) => (quantity.code === undefined || quantity.system !== undefined ? true : ''),
};

const REF_1: NativeInvariant = {
  key: 'ref-1',
  human: 'SHALL have a contained resource if a local reference is provided',
  // reference.startsWith('#').not() or (reference.substring(1) in %rootResource.contained.id), where `#` alone is the
  // reference to the containing resource (fhir-invariant-corrections.ts)
  holds(reference, root) {
    const target = reference.reference;
    if (typeof target !== 'string' || !target.startsWith('#') || target === '#') return true;
    const id = target.slice(1);
    const contained = Array.isArray(root.contained) ? (root.contained as unknown[]) : [];
    return contained.some((resource) => (resource as { id?: unknown } | null)?.id === id) ? true : `"${excerpt(target)}" names no contained resource`;
  },
};

/** The native invariants of each data type. */
export const NATIVE_TYPE_INVARIANTS: Readonly<Record<string, readonly NativeInvariant[]>> = {
  Period: [PER_1],
  ContactPoint: [CPT_2],
  Quantity: [QTY_3],
  Age: [QTY_3],
  Count: [QTY_3],
  Distance: [QTY_3],
  Duration: [QTY_3],
  Reference: [REF_1],
};
