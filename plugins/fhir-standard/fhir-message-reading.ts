/**
 * The FHIR adapter's reading capability (kernel `MessageReading`): a received file is one resource or Bundle (JSON or
 * XML), or NDJSON with one resource per line; each is one message, validated by the adapter. Its facts, under the
 * names stores of received messages use (the monitor's README lists them), come from the MessageHeader (event,
 * source, sender, destination, response), the Bundle (identifier, timestamp), every Patient's identifiers and the
 * first Encounter's identifier. One pass over the resources; a line that is not JSON is a message with PARSE_ERROR.
 * A resource whose braces or root element are not closed when the content ends is still open (fhir-open-tail.ts).
 */
import type { MessageReading, ReadContentMessage, ReadContentOptions, ReadMessageVerdict, ValidateOptions, ValidationResult } from '../../kernel/standards-registry.ts';
import { fhirCompleteLength } from './fhir-open-tail.ts';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function instant(value: unknown): string | null {
  const t = text(value);
  if (t === null) return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** An identifier's value and its authority (its system, else the assigner's name). */
function identifiers(resource: Json): Array<{ id: string; assigningAuthority: string | null }> {
  const found: Array<{ id: string; assigningAuthority: string | null }> = [];
  for (const identifier of list(resource.identifier)) {
    if (!isObject(identifier)) continue;
    const id = text(identifier.value);
    if (id === null) continue;
    const assigner = isObject(identifier.assigner) ? text(identifier.assigner.display) : null;
    found.push({ id, assigningAuthority: text(identifier.system) ?? assigner });
  }
  return found;
}

function referenceName(value: unknown): string | null {
  return isObject(value) ? (text(value.display) ?? text(value.reference)) : null;
}

/** The facts of one resource (a Bundle's entries included). */
export function fhirFactsRecord(resource: Json): Record<string, unknown> {
  const resources: Json[] = [resource];
  if (resource.resourceType === 'Bundle') {
    for (const entry of list(resource.entry)) if (isObject(entry) && isObject(entry.resource)) resources.push(entry.resource);
  }
  const segmentIds: string[] = [];
  const patientIds: Array<{ id: string; assigningAuthority: string | null }> = [];
  const seenPatients = new Set<string>();
  let header: Json | undefined;
  let encounter: Json | undefined;
  for (const r of resources) {
    const type = text(r.resourceType);
    if (type !== null && !segmentIds.includes(type) && segmentIds.length < 100) segmentIds.push(type);
    if (type === 'MessageHeader' && !header) header = r;
    if (type === 'Encounter' && !encounter) encounter = r;
    if (type === 'Patient') {
      for (const p of identifiers(r)) {
        const key = `${p.id}\u0000${p.assigningAuthority}`;
        if (seenPatients.has(key)) continue;
        seenPatients.add(key);
        patientIds.push(p);
      }
    }
  }
  const source = header && isObject(header.source) ? header.source : undefined;
  const destination = header ? list(header.destination).find(isObject) : undefined;
  const response = header && isObject(header.response) ? header.response : undefined;
  const event = header && isObject(header.eventCoding) ? text(header.eventCoding.code) : header ? text(header.eventUri) : null;
  const bundleIdentifier = isObject(resource.identifier) ? text(resource.identifier.value) : null;
  const visit = encounter ? (identifiers(encounter)[0]?.id ?? null) : null;
  const meta = isObject(resource.meta) ? resource.meta : undefined;
  return {
    messageTime: instant(resource.timestamp) ?? (meta ? instant(meta.lastUpdated) : null),
    messageType: event ?? text(resource.resourceType),
    triggerEvent: null,
    version: null,
    controlId: bundleIdentifier ?? text(resource.id) ?? (header ? text(header.id) : null),
    sendingApplication: source ? (text(source.name) ?? text(source.endpoint)) : null,
    sendingFacility: header ? referenceName(header.sender) : null,
    receivingApplication: isObject(destination) ? (text(destination.name) ?? text(destination.endpoint)) : null,
    receivingFacility: isObject(destination) ? referenceName(destination.receiver) : null,
    sequenceNumber: null,
    acknowledgedControlId: response ? (text(response.identifier) ?? (isObject(response.identifier) ? text(response.identifier.value) : null)) : null,
    software:
      source && (text(source.software) !== null || text(source.version) !== null)
        ? { vendor: null, version: text(source.version), product: text(source.software), installDate: null }
        : null,
    segmentIds,
    patientIds,
    accountNumber: visit,
    visitNumber: visit,
  };
}

function unreadable(index: number, raw: string, reason: string): ReadContentMessage {
  const issue = { field: 'message', code: 'PARSE_ERROR', severity: 'error' as const, message: `The content is not a FHIR resource: ${reason}.` };
  return { index, raw, facts: {}, verdict: { isValid: false, errors: [issue], warnings: [] } };
}

/** The reading capability over the adapter's validation. */
export function createFhirReading(validate: (content: string, options: ValidateOptions) => ValidationResult): MessageReading {
  const judge = (raw: string, options: ReadContentOptions): ReadMessageVerdict | undefined => {
    if (options.validateHere && !options.validateHere(raw.length)) return undefined;
    const { isValid, errors, warnings } = validate(raw, { mode: options.mode, ...(options.profile ? { profile: options.profile } : {}) });
    return { isValid, errors, warnings };
  };
  return {
    filePattern: '*.{json,ndjson}',
    completeLength: fhirCompleteLength,
    readMessages(content, options) {
      let body = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
      if (body.charCodeAt(0) === 0xfeff) body = body.slice(1);
      const trimmed = body.trim();
      const first = options.firstIndex ?? 0;
      if (trimmed.startsWith('<')) {
        // XML: one resource; its facts are its root element's name
        const root = /<([A-Za-z][\w]*)[\s/>]/.exec(trimmed)?.[1] ?? null;
        const messages = first > 0 ? [] : [{ index: 0, raw: body, facts: { messageType: root, segmentIds: root ? [root] : [] }, ...withVerdict(judge(body, options)) }];
        return { messages, messageCount: 1, problems: [] };
      }
      if (!trimmed.startsWith('{')) return { messages: [], messageCount: 0, problems: ['The content is neither FHIR JSON, NDJSON nor XML.'] };
      let whole: unknown;
      try {
        whole = JSON.parse(trimmed);
      } catch {
        whole = undefined;
      }
      let lines = [trimmed];
      if (whole === undefined) {
        // NDJSON when its first line is a resource on its own; else one malformed resource
        const split = trimmed.split(/\r?\n/).filter((line) => line.trim() !== '');
        try {
          JSON.parse(split[0]);
          lines = split;
        } catch {
          lines = [trimmed];
        }
      }
      const messages: ReadContentMessage[] = [];
      for (let index = first; index < lines.length; index++) {
        const raw = lines[index];
        let resource: unknown = index === 0 && whole !== undefined ? whole : undefined;
        if (resource === undefined) {
          try {
            resource = JSON.parse(raw);
          } catch (error) {
            messages.push(unreadable(index, raw, (error as Error).message));
            continue;
          }
        }
        if (!isObject(resource) || text(resource.resourceType) === null) {
          messages.push(unreadable(index, raw, 'it has no resourceType'));
          continue;
        }
        messages.push({ index, raw, facts: fhirFactsRecord(resource), ...withVerdict(judge(raw, options)) });
      }
      return { messages, messageCount: lines.length, problems: [] };
    },
  };
}

function withVerdict(verdict: ReadMessageVerdict | undefined): { verdict?: ReadMessageVerdict } {
  return verdict ? { verdict } : {};
}
