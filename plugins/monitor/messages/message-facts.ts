/**
 * The facts the monitor keeps of every message, declared once: for each, the field of the query contract
 * ({@link MessageFacts}), its column in `monitor_messages`, and its kind, which says how it is read from a standard
 * adapter's facts record (kernel `MessageReading`), how it is stored and how it is projected back. Adding a fact is
 * one line here, one column in a migration and one field in api.ts; the ledger and the query read this list.
 */
import { createHash } from 'node:crypto';
import type { MessageFacts, SendingSoftware } from '../api.ts';
import type { MessageRow } from '../monitor-tables.ts';

/** How a fact is read, stored and projected. */
export type FactKind =
  /** Text, cut at `max` characters when stored. */
  | 'text'
  /** An instant: ISO 8601 text that parses, stored in the ISO form of its instant. */
  | 'instant'
  /** A whole number. */
  | 'integer'
  /** The sending software: `{vendor, version, product, installDate}`, stored as JSON. */
  | 'software'
  /** A list of short ids, stored space separated. */
  | 'ids'
  /** Identifiers with their assigning authority, stored as JSON (never null: `[]`). */
  | 'identifiers';

/** The facts an adapter reads, as the contract names them. */
export type ReadFactField =
  | 'messageTime' | 'messageType' | 'triggerEvent' | 'version' | 'controlId' | 'sendingApplication' | 'sendingFacility'
  | 'receivingApplication' | 'receivingFacility' | 'sequenceNumber' | 'acknowledgedControlId' | 'software' | 'segmentIds'
  | 'patientIds' | 'accountNumber' | 'visitNumber' | 'contentDigest';

/** One declared fact. */
export interface FactDeclaration {
  field: ReadFactField;
  column: keyof MessageRow & string;
  kind: FactKind;
  /** Longest stored text (kind `text`). */
  max?: number;
}

/** Every fact read from a standard adapter, in column order. */
export const MESSAGE_FACTS: readonly FactDeclaration[] = [
  { field: 'messageTime', column: 'message_time', kind: 'instant' },
  { field: 'messageType', column: 'message_type', kind: 'text', max: 20 },
  { field: 'triggerEvent', column: 'trigger_event', kind: 'text', max: 20 },
  { field: 'version', column: 'version', kind: 'text', max: 20 },
  { field: 'controlId', column: 'control_id', kind: 'text', max: 200 },
  { field: 'sendingApplication', column: 'sending_application', kind: 'text', max: 200 },
  { field: 'sendingFacility', column: 'sending_facility', kind: 'text', max: 200 },
  { field: 'receivingApplication', column: 'receiving_application', kind: 'text', max: 200 },
  { field: 'receivingFacility', column: 'receiving_facility', kind: 'text', max: 200 },
  { field: 'sequenceNumber', column: 'sequence_number', kind: 'integer' },
  { field: 'acknowledgedControlId', column: 'acknowledged_control_id', kind: 'text', max: 200 },
  { field: 'software', column: 'software', kind: 'software' },
  { field: 'segmentIds', column: 'segment_ids', kind: 'ids' },
  { field: 'patientIds', column: 'patient_ids', kind: 'identifiers' },
  { field: 'accountNumber', column: 'account_number', kind: 'text', max: 200 },
  { field: 'visitNumber', column: 'visit_number', kind: 'text', max: 200 },
  // not an adapter's fact: the reader sets it from the message's text (digestOf), so it survives raw retention
  { field: 'contentDigest', column: 'content_digest', kind: 'text', max: 64 },
];

/** The read facts of a message. */
export type ReadFacts = Pick<MessageFacts, ReadFactField>;

/** Most ids of a list fact and identifiers kept per message (a message naming thousands is cut, not refused). */
const LIST_MAX = 100;

function textOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function readOne(kind: FactKind, value: unknown): unknown {
  switch (kind) {
    case 'text':
      return textOf(value);
    case 'instant': {
      const text = textOf(value);
      const ms = text === null ? Number.NaN : Date.parse(text);
      return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
    }
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
    case 'software': {
      if (typeof value !== 'object' || value === null) return null;
      const v = value as Record<string, unknown>;
      const software: SendingSoftware = {
        vendor: textOf(v.vendor),
        version: textOf(v.version),
        product: textOf(v.product),
        installDate: textOf(v.installDate),
      };
      return Object.values(software).some((part) => part !== null) ? software : null;
    }
    case 'ids':
      return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string' && /^[\w.-]{1,64}$/.test(id)).slice(0, LIST_MAX) : [];
    case 'identifiers': {
      const found: MessageFacts['patientIds'] = [];
      for (const item of Array.isArray(value) ? value : []) {
        if (typeof item !== 'object' || item === null) continue;
        const id = textOf((item as Record<string, unknown>).id);
        if (id !== null && found.length < LIST_MAX) found.push({ id, assigningAuthority: textOf((item as Record<string, unknown>).assigningAuthority) });
      }
      return found;
    }
  }
}

/** The declared facts of an adapter's facts record; anything missing or of the wrong shape is null (or empty). */
export function readFacts(record: Readonly<Record<string, unknown>>): ReadFacts {
  const facts: Record<string, unknown> = {};
  for (const fact of MESSAGE_FACTS) facts[fact.field] = readOne(fact.kind, record[fact.field]);
  return facts as unknown as ReadFacts;
}

/** Facts of a message that holds none (unreadable content). */
export function noFacts(): ReadFacts {
  return readFacts({});
}

/**
 * Text as every database stores it: PostgreSQL refuses NUL characters (binary files carry them) and values longer
 * than their column, so NUL becomes U+FFFD and a value is cut to `max` characters.
 */
export function storableText<T extends string | null>(value: T, max?: number): T {
  if (value === null) return value;
  const clean = value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  return (max !== undefined && clean.length > max ? clean.slice(0, max) : clean) as T;
}

/** The columns of the declared facts, in order. */
export const FACT_COLUMNS: ReadonlyArray<keyof MessageRow & string> = MESSAGE_FACTS.map((f) => f.column);

/** The stored values of a message's declared facts, in {@link FACT_COLUMNS} order. */
export function factValues(facts: ReadFacts): unknown[] {
  return MESSAGE_FACTS.map((fact) => {
    const value = facts[fact.field] as unknown;
    switch (fact.kind) {
      case 'text':
      case 'instant':
        return storableText(value as string | null, fact.max);
      case 'integer':
        return value;
      case 'software':
        return value === null ? null : storableText(JSON.stringify(value));
      case 'ids':
        return (value as string[]).length === 0 ? null : (value as string[]).join(' ');
      case 'identifiers':
        return (value as unknown[]).length === 0 ? '[]' : storableText(JSON.stringify(value));
    }
  });
}

/** A declared fact's stored value as the contract gives it. */
export function projectFact(kind: FactKind, value: unknown): unknown {
  switch (kind) {
    case 'text':
    case 'instant':
      return value ?? null;
    case 'integer':
      return value === null || value === undefined ? null : Number(value);
    case 'software':
      return typeof value === 'string' ? (JSON.parse(value) as SendingSoftware) : null;
    case 'ids':
      return typeof value === 'string' && value !== '' ? value.split(' ') : [];
    case 'identifiers':
      return typeof value === 'string' && value !== '[]' ? JSON.parse(value) : [];
  }
}

/** The declared facts of a stored row. */
export function projectFacts(row: Readonly<Record<string, unknown>>): ReadFacts {
  const facts: Record<string, unknown> = {};
  for (const fact of MESSAGE_FACTS) facts[fact.field] = projectFact(fact.kind, row[fact.column]);
  return facts as unknown as ReadFacts;
}

/** The digest kept of a message's text (sha256, hex): equal digests are exact resends. */
export function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
