/**
 * The NCPDP adapter's reading capability (kernel `MessageReading`): a received file is one SCRIPT XML message, one
 * Telecommunication D.0 transmission, or a batch file whose detail records each carry one D.0 transaction. Each
 * message is validated by the adapter (a batch's transactions one by one) and its facts, under the names stores of
 * received messages use (the monitor's README lists them), come from the SCRIPT Header (MessageID,
 * RelatesToMessageID, SentTime, From, To, SenderSoftware) and patient identification, or from the D.0 header (BIN,
 * version, transaction code, provider, software vendor) and patient segment (patient ID with its qualifier). A last
 * batch record without its ETX, or SCRIPT XML whose root is not closed, is still open (ncpdp-open-tail.ts).
 */
import type { MessageReading, ReadContentMessage, ReadContentOptions, ReadMessageVerdict, ValidateOptions, ValidationResult } from '../../kernel/standards-registry.ts';
import { BATCH_HEADER_LAYOUT, detailTransaction, looksLikeNcpdpBatch, readBatchFields, splitNcpdpBatch } from './telecom/ncpdp-batch.ts';
import type { ScriptElement, TelecomMessage } from './ncpdp-model.ts';
import { ncpdpCompleteLength } from './ncpdp-open-tail.ts';
import { parseNcpdp } from './ncpdp-parser.ts';

function orNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function child(element: ScriptElement | undefined, name: string): ScriptElement | undefined {
  return element?.children.find((c) => c.name === name);
}

function path(element: ScriptElement | undefined, ...names: string[]): ScriptElement | undefined {
  let current = element;
  for (const name of names) current = child(current, name);
  return current;
}

function instant(value: string | null): string | null {
  if (value === null) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** Facts of a SCRIPT message. */
function scriptFacts(root: ScriptElement): Record<string, unknown> {
  const header = child(root, 'Header');
  const transaction = child(root, 'Body')?.children[0];
  const software = path(header, 'Sender', 'SenderSoftware') ?? child(header, 'SenderSoftware');
  const patient = child(transaction, 'Patient');
  const human = patient?.children[0];
  const patientIds: Array<{ id: string; assigningAuthority: string | null }> = [];
  for (const identifier of child(human, 'Identification')?.children ?? []) {
    const id = orNull(identifier.text);
    if (id !== null) patientIds.push({ id, assigningAuthority: identifier.name });
  }
  return {
    messageTime: instant(orNull(child(header, 'SentTime')?.text)),
    messageType: transaction?.name ?? null,
    triggerEvent: null,
    version: orNull(root.attributes.version ?? root.attributes.TransactionVersion),
    controlId: orNull(child(header, 'MessageID')?.text),
    sendingApplication: orNull(child(software, 'SenderSoftwareProduct')?.text),
    sendingFacility: orNull(child(header, 'From')?.text),
    receivingApplication: null,
    receivingFacility: orNull(child(header, 'To')?.text),
    sequenceNumber: null,
    acknowledgedControlId: orNull(child(header, 'RelatesToMessageID')?.text),
    software: software
      ? {
          vendor: orNull(child(software, 'SenderSoftwareDeveloper')?.text),
          version: orNull(child(software, 'SenderSoftwareVersionRelease')?.text),
          product: orNull(child(software, 'SenderSoftwareProduct')?.text),
          installDate: null,
        }
      : null,
    segmentIds: (transaction?.children ?? []).map((c) => c.name).filter((name, i, all) => all.indexOf(name) === i).slice(0, 100),
    patientIds,
    accountNumber: null,
    visitNumber: null,
  };
}

/** Facts of a D.0 transmission; `reference` and `sentAt` come from a batch detail and header. */
function telecomFacts(message: TelecomMessage, reference: string | null, sentAt: string | null): Record<string, unknown> {
  const header = new Map(message.header.filter((f) => f.present).map((f) => [f.id, f.value]));
  const field = (segment: string, id: string): string | null => {
    for (const s of message.segments) if (s.id === segment) for (const f of s.fields) if (f.id === id) return orNull(f.value);
    return null;
  };
  const patientIds: Array<{ id: string; assigningAuthority: string | null }> = [];
  const patientId = field('01', 'CY');
  if (patientId !== null) patientIds.push({ id: patientId, assigningAuthority: field('01', 'CX') });
  const cardholder = field('04', 'C2');
  if (cardholder !== null) patientIds.push({ id: cardholder, assigningAuthority: 'cardholder' });
  const segmentIds: string[] = [];
  for (const s of message.segments) if (s.id !== '' && !segmentIds.includes(s.id) && segmentIds.length < 100) segmentIds.push(s.id);
  return {
    messageTime: sentAt,
    messageType: orNull(header.get('A3')),
    triggerEvent: null,
    version: orNull(header.get('A2')),
    controlId: reference ?? field('07', 'D2') ?? field('22', 'D2'),
    sendingApplication: orNull(header.get('AK')),
    sendingFacility: orNull(header.get('B1')),
    receivingApplication: null,
    receivingFacility: orNull(header.get('A1')),
    sequenceNumber: null,
    acknowledgedControlId: null,
    software: orNull(header.get('AK')) === null ? null : { vendor: orNull(header.get('AK')), version: null, product: null, installDate: null },
    segmentIds,
    patientIds,
    accountNumber: null,
    visitNumber: null,
  };
}

/** The creation instant of a batch header (CCYYMMDD and HHMM, UTC), or null. */
function batchCreatedAt(text: string): string | null {
  const fields = readBatchFields(text, BATCH_HEADER_LAYOUT);
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(`${fields.CreationDate?.value ?? ''}${fields.CreationTime?.value ?? ''}`);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The reading capability over the adapter's validation. */
export function createNcpdpReading(validate: (content: string, options: ValidateOptions) => ValidationResult): MessageReading {
  const judge = (raw: string, options: ReadContentOptions): { verdict?: ReadMessageVerdict } => {
    if (options.validateHere && !options.validateHere(raw.length)) return {};
    const { isValid, errors, warnings } = validate(raw, { mode: options.mode, ...(options.profile ? { profile: options.profile } : {}) });
    return { verdict: { isValid, errors, warnings } };
  };
  const one = (index: number, raw: string, options: ReadContentOptions, reference: string | null, sentAt: string | null): ReadContentMessage | undefined => {
    const parsed = parseNcpdp(raw);
    if (!parsed.ok) return undefined;
    const facts = parsed.message.format === 'script' ? scriptFacts(parsed.message.root) : telecomFacts(parsed.message, reference, sentAt);
    return { index, raw, facts, ...judge(raw, options) };
  };
  return {
    filePattern: '*.{xml,ncpdp,d0,dat}',
    completeLength: ncpdpCompleteLength,
    readMessages(content, options) {
      let text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const first = options.firstIndex ?? 0;
      if (looksLikeNcpdpBatch(text)) {
        const batch = splitNcpdpBatch(text);
        const sentAt = batch.records[0] ? batchCreatedAt(batch.records[0].text) : null;
        const details = batch.records.filter((r) => r.type === 'G1');
        const messages: ReadContentMessage[] = [];
        for (let index = first; index < details.length; index++) {
          const transaction = detailTransaction(details[index]);
          const reference = orNull(details[index].text.slice(2, 12));
          const read = one(index, transaction, options, reference, sentAt);
          if (read) messages.push(read);
          else {
            const issue = { field: `record[${details[index].number}]`, code: 'PARSE_ERROR', severity: 'error' as const, message: 'The detail record holds no readable D.0 transaction.' };
            messages.push({ index, raw: transaction, facts: { controlId: reference }, verdict: { isValid: false, errors: [issue], warnings: [] } });
          }
        }
        const problems = details.length === 0 ? ['The batch file holds no detail record.'] : [];
        return { messages, messageCount: details.length, problems };
      }
      const parsed = parseNcpdp(text);
      if (!parsed.ok) return { messages: [], messageCount: 0, problems: [parsed.issue.message] };
      const read = first > 0 ? undefined : one(0, text, options, null, null);
      return { messages: read ? [read] : [], messageCount: 1, problems: [] };
    },
  };
}
