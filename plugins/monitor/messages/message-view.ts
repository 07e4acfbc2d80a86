/**
 * What the message routes and commands answer: a page of message summaries (facts, first finding, file name, never
 * raw text) read through the query contract, and one message's view: its facts, its raw text while retained and
 * readable by the caller (`plugins.monitor.rawAccess`), its findings placed in the raw text, and its file. Every
 * view that hands out raw text, or refuses it by policy, is recorded (who, which message, when).
 */
import type { Kysely } from 'kysely';
import { kernelErrors } from '../../../kernel/errors.ts';
import { locateFinding } from '../../../kernel/positions/finding-position.ts';
import type { AuditOutcome } from '../../audit/api.ts';
import type { MessageFilter, MessageRecord, MonitoredInterface, MonitorStore, StoredIssue } from '../api.ts';
import { monitorErrors } from '../errors.ts';
import { fileNameOf, messageFiles, type MessageFileFacts } from './message-files.ts';
import { parseMessageId } from './message-query.ts';
import type { MessageListQuery, MessageSummary, MessageView } from './message-schemas.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';

/** Who may read raw text. */
export type RawAccess = 'open' | 'admin' | 'off';

/** The caller of a view: whether it holds the MonitorAdmin role, and who it is for the audit trail. */
export interface MessageViewer {
  admin: boolean;
  actor: string;
  actorKind: string;
  requestId?: string;
  sourceAddress?: string;
}

/** One raw view (or refusal) to record. */
export interface RawViewRecord {
  viewer: MessageViewer;
  messageId: string;
  interfaceId: string;
  outcome: AuditOutcome;
}

/** What the views read and where they record. */
export interface MessageViewDeps {
  db: Kysely<MonitorDatabase>;
  store: Pick<MonitorStore, 'queryMessages' | 'getMessage'>;
  interfaces: { list(): Promise<MonitoredInterface[]>; get(id: string): Promise<MonitoredInterface | undefined> };
  rawAccess: RawAccess;
  keepRawContent: boolean;
  rawRetentionDays: number;
  /** Records a raw view in the audit trail; resolves once stored. */
  recordRawView(record: RawViewRecord): Promise<void>;
}

/** The facts a summary reads (a projection: only these columns are read). */
export const SUMMARY_FIELDS = [
  'interfaceId', 'fileId', 'indexInFile', 'standard', 'isValid', 'messageType', 'triggerEvent', 'controlId', 'patientIds',
  'accountNumber', 'receivedAt', 'messageTime', 'errors', 'warnings',
] as const;

type SummaryFacts = Pick<MessageRecord, (typeof SUMMARY_FIELDS)[number] | 'id'>;

/** A comma-separated list of a query parameter. */
function listOf(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

function firstFinding(errors: StoredIssue[], warnings: StoredIssue[]): MessageSummary['firstFinding'] {
  const first = errors[0] ?? warnings[0];
  return first ? { severity: first.severity, code: first.code, message: first.message, path: first.field } : null;
}

/** Builds summaries and views. */
export class MessageViews {
  constructor(private readonly deps: MessageViewDeps) {}

  /** Whether the viewer may read raw text (and search it). */
  private mayReadRaw(viewer: MessageViewer): boolean {
    return this.deps.rawAccess === 'open' || (this.deps.rawAccess === 'admin' && viewer.admin);
  }

  /** The query contract's filter of a list query; 400 naming what is malformed. */
  filterOf(query: MessageListQuery): MessageFilter {
    const filter: MessageFilter = {};
    const interfaceIds = listOf(query.interfaceId);
    if (interfaceIds) filter.interfaceIds = interfaceIds;
    if (query.status) filter.isValid = query.status === 'valid';
    const messageTypes = listOf(query.messageType);
    if (messageTypes) filter.messageTypes = messageTypes;
    const errorCodes = listOf(query.errorCode);
    if (errorCodes) filter.errorCodes = errorCodes;
    if (query.patientId) filter.patientId = query.patientId;
    if (query.accountNumber) filter.accountNumber = query.accountNumber;
    if (query.controlId) filter.controlId = query.controlId;
    if (query.fileName) filter.fileName = query.fileName;
    if (query.q) filter.text = query.q;
    const since = query.since === undefined ? undefined : Date.parse(query.since);
    const until = query.until === undefined ? undefined : Date.parse(query.until);
    if (since !== undefined && !Number.isFinite(since)) throw filterInvalid(`since "${query.since}" is not an ISO 8601 date and time`);
    if (until !== undefined && !Number.isFinite(until)) throw filterInvalid(`until "${query.until}" is not an ISO 8601 date and time`);
    if (since !== undefined && until !== undefined && since >= until) throw filterInvalid(`since (${query.since}) must be before until (${query.until})`);
    if (since !== undefined) filter.since = new Date(since);
    if (until !== undefined) filter.until = new Date(until);
    return filter;
  }

  /** A page of summaries. */
  async list(query: MessageListQuery, viewer: MessageViewer): Promise<{ items: MessageSummary[]; next: string | null }> {
    if (query.q !== undefined && !this.mayReadRaw(viewer)) throw rawRefused(this.deps.rawAccess, 'search raw text (q)');
    const filter = this.filterOf(query);
    const page = await this.deps.store.queryMessages(filter, { limit: query.limit, after: query.cursor ?? null, fields: SUMMARY_FIELDS });
    const messages = page.messages as unknown as SummaryFacts[];
    const [files, names] = await Promise.all([
      messageFiles(this.deps.db, messages.map((m) => Number(m.fileId))),
      this.interfaceNames(),
    ]);
    return { items: messages.map((m) => summaryOf(m, names, files.get(Number(m.fileId)))), next: page.next };
  }

  /**
   * One message's view; 404 for an unknown id, 400 for a malformed one. `withRaw: false` leaves the raw text out
   * (withheld, not recorded as a view); the findings are placed all the same.
   */
  async show(id: string, viewer: MessageViewer, options: { withRaw?: boolean } = {}): Promise<MessageView> {
    if (!parseMessageId(id)) {
      throw filterInvalid(`id ${JSON.stringify(id.slice(0, 60))} is not a message id (FILE.INDEX, digits, as the message list gives it)`);
    }
    const record = await this.deps.store.getMessage(id, { include: ['raw'] });
    if (!record) throw kernelErrors.create('NOT_FOUND', { what: `Message ${id}` });
    const stored = typeof record.raw === 'string' ? record.raw : null;
    let raw: string | null = null;
    let rawState: MessageView['rawState'];
    let rawNote: string | null = null;
    let recorded: Promise<void> | undefined;
    if (stored === null) {
      rawState = 'expired';
      rawNote = this.deps.keepRawContent
        ? `The raw text was removed by retention (plugins.monitor.rawRetentionDays: ${this.deps.rawRetentionDays}); the facts and findings stay.`
        : 'The raw text is not kept (plugins.monitor.keepRawContent: false); the facts and findings stay.';
    } else if (options.withRaw === false) {
      rawState = 'withheld';
      rawNote = 'The raw text was not asked for.';
    } else if (!this.mayReadRaw(viewer)) {
      rawState = 'withheld';
      rawNote =
        this.deps.rawAccess === 'off'
          ? 'Raw text is not shown on this service (plugins.monitor.rawAccess: off).'
          : 'Raw text is shown to a caller with the MonitorAdmin role only (plugins.monitor.rawAccess: admin).';
      recorded = this.deps.recordRawView({ viewer, messageId: id, interfaceId: record.interfaceId, outcome: 'denied' });
    } else {
      rawState = 'retained';
      recorded = this.deps.recordRawView({ viewer, messageId: id, interfaceId: record.interfaceId, outcome: 'success' });
      raw = stored;
    }
    // the record is written while the file and interface are read, and awaited with them: a view that could not be
    // accounted for is not answered (its text never leaves)
    const [files, monitored] = await Promise.all([
      messageFiles(this.deps.db, [Number(record.fileId)]),
      this.deps.interfaces.get(record.interfaceId),
      recorded,
    ]);
    const file = files.get(Number(record.fileId));
    const findings = [...record.errors, ...record.warnings].map((issue) => ({
      severity: issue.severity,
      code: issue.code,
      message: issue.message,
      path: issue.field,
      ...(issue.expected === undefined ? {} : { expected: issue.expected }),
      ...(issue.actual === undefined ? {} : { actual: issue.actual }),
      position: stored === null ? null : (locateFinding(record.standard, stored, issue.field) ?? null),
    }));
    const folder = monitored?.directoryPath;
    return {
      message: {
        ...summaryOf(record, new Map(monitored ? [[monitored.id, monitored.name]] : []), file),
        triggerEvent: record.triggerEvent,
        version: record.version,
        sendingApplication: record.sendingApplication,
        sendingFacility: record.sendingFacility,
        receivingApplication: record.receivingApplication,
        receivingFacility: record.receivingFacility,
        sequenceNumber: record.sequenceNumber,
        acknowledgedControlId: record.acknowledgedControlId,
        patientIds: record.patientIds,
        visitNumber: record.visitNumber,
        segmentIds: record.segmentIds,
        latencyMs: record.latencyMs,
        latencyClass: record.latencyClass,
        contentDigest: record.contentDigest,
      },
      raw,
      rawState,
      rawNote,
      findings,
      file: file
        ? {
            path: folder === undefined ? file.path : joinFolder(folder, file.path),
            name: fileNameOf(file.path),
            size: file.size,
            modifiedAt: new Date(file.mtimeMs).toISOString(),
            indexInFile: record.indexInFile,
            messagesInFile: file.messageCount,
          }
        : null,
    };
  }

  private async interfaceNames(): Promise<Map<string, string>> {
    return new Map((await this.deps.interfaces.list()).map((i) => [i.id, i.name]));
  }

}

function joinFolder(folder: string, relative: string): string {
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  const base = folder.endsWith('/') || folder.endsWith('\\') ? folder.slice(0, -1) : folder;
  return `${base}${separator}${separator === '/' ? relative : relative.replaceAll('/', '\\')}`;
}

function summaryOf(m: SummaryFacts, names: ReadonlyMap<string, string>, file: MessageFileFacts | undefined): MessageSummary {
  return {
    id: m.id,
    interfaceId: m.interfaceId,
    interfaceName: names.get(m.interfaceId) ?? null,
    standard: m.standard,
    status: m.isValid ? 'valid' : 'failed',
    messageType: m.messageType === null ? null : m.triggerEvent ? `${m.messageType}^${m.triggerEvent}` : m.messageType,
    controlId: m.controlId,
    patientId: m.patientIds[0]?.id ?? null,
    accountNumber: m.accountNumber,
    receivedAt: m.receivedAt,
    messageTime: m.messageTime,
    fileName: file ? fileNameOf(file.path) : null,
    firstFinding: firstFinding(m.errors, m.warnings),
    errorCount: m.errors.length,
    warningCount: m.warnings.length,
  };
}

function filterInvalid(reason: string): Error {
  return monitorErrors.create('MESSAGE_FILTER_INVALID', { reason });
}

function rawRefused(access: RawAccess, what: string): Error {
  return kernelErrors.create('FORBIDDEN', {
    reason:
      access === 'off'
        ? `Raw message text is not readable on this service (plugins.monitor.rawAccess: off): cannot ${what}.`
        : `Raw message text is readable with the MonitorAdmin role only (plugins.monitor.rawAccess: admin): cannot ${what}.`,
  });
}
