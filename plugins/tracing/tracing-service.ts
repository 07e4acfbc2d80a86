/**
 * What the tracing routes and the gap alert rule do, over the monitor's query contract only: a trace by patient,
 * account or control id; gaps of a window (sequences, MSH-13, control ids); latency between two interfaces; the
 * defined and the observed sequences (latency itself in latency-read.ts). Every read is bounded: a trace by its limit, a window by `maxScanMessages`
 * (answers say `truncated` when the bound cut the read).
 */
import { createHash } from 'node:crypto';
import type { MessageFilter, MonitorService } from '../monitor/api.ts';
import type { FeedColumn, FeedIndex, FeedMessage } from './feed-index.ts';
import { FEED_FIELDS, feedMessageOf } from './feed-projection.ts';
import { interfaceGaps, scanFeed, type FeedFindings, type InterfaceGapResult } from './interface-gaps.ts';
import { scanFeedWindow } from './feed-gap-scan.ts';
import { readLatency, type LatencyQuery, type LatencyResult } from './latency-read.ts';
import { observedSequences, patientKeyOf, type ObservedSequence } from './observed-sequences.ts';
import { sequenceGaps, type JudgedSequence } from './sequence-gaps.ts';
import { formatSequence, parseSequence } from './sequence-syntax.ts';
import type { SequenceStore, StoredSequence } from './sequence-store.ts';
import { GAP_KINDS, TRACE_FIELDS, compareEvents, toTraceEvent, type Gap, type GapKind, type TraceEvent, type TraceFacts } from './trace-model.ts';

/** What the gaps show of the messages the scan kept, read after it. */
const DETAIL_COLUMNS: readonly FeedColumn[] = ['messageType', 'messageTimeMs', 'patientId', 'contentDigest'];

/** A sequence as listed: from config or defined through the API. */
export interface DefinedSequence {
  name: string;
  sequence: string;
  alert: boolean;
  source: 'config' | 'api';
  createdAt: string | null;
}

/** Bounds and windows of the service (from the plugin config). */
export interface TracingLimits {
  /** Most messages one gaps, latency or observed-sequences read goes through. */
  maxScanMessages: number;
  /** Window of the observed sequences, in hours before now. */
  observedWindowHours: number;
  /** Most observed sequences listed. */
  observedTop: number;
  /** Most messages the observed sequences read (the first of the window). */
  observedMaxMessages: number;
  /** Window the gap alert rule judges, in minutes before now. */
  alertWindowMinutes: number;
  /** Most messages the gap alert rule reads of its window. */
  alertMaxMessages: number;
  /** Window of the MSH-7 fallback pairing of the latency, in ms. */
  matchWindowMs: number;
}

/** Which messages a trace follows. */
export interface TraceQuery {
  patientId?: string;
  assigningAuthority?: string;
  accountNumber?: string;
  controlId?: string;
  since?: Date;
  limit: number;
}

/** A trace (SPEC "Trace"). */
export interface Trace {
  patientId: string | null;
  /** Authorities under which the patient id was found; more than one means the id names several patients. */
  assigningAuthorities: Array<string | null>;
  events: TraceEvent[];
  totalSpanMs: number;
  gaps: Gap[];
  /** True when more messages matched than `limit` (the oldest `limit` are shown). */
  truncated: boolean;
}

/** What a gaps read judges. */
export interface GapsQuery {
  interfaceId?: string;
  /** A sequence text to judge instead of the defined ones. */
  sequence?: string;
  since: Date;
  patientId?: string;
  limit: number;
}

/** Answer of a gaps read. */
export interface GapsResult {
  since: string;
  sequences: string[];
  gaps: Gap[];
  counts: Record<GapKind, number>;
  /** Exact resends (same sender, control id and content): counted apart, not gaps. */
  resends: number;
  /** Repeated control ids whose content is no longer known (raw text removed by retention). */
  contentUnknown: number;
  messagesRead: number;
  truncated: boolean;
}

/** Answer of the observed sequences. */
export interface ObservedAnswer {
  sequences: ObservedSequence[];
  since: string;
  messagesRead: number;
  truncated: boolean;
}

/** Names of interfaces by id. */
type InterfaceNames = Map<string, string>;

/** Interface names for events (an interface deleted since shows its id). */
async function interfaceNames(monitor: MonitorService): Promise<InterfaceNames> {
  return new Map((await monitor.listInterfaces()).map((i) => [i.id, i.name]));
}

/** Tracing over the monitor's store. */
export class TracingService {
  constructor(
    private readonly monitor: MonitorService,
    private readonly feed: FeedIndex,
    private readonly store: SequenceStore,
    private readonly configSequences: readonly DefinedSequence[],
    private readonly limits: TracingLimits,
    private readonly nowMs: () => number,
  ) {}

  /** Interface names as last read; forgotten when the monitor says an interface changed. */
  private names: Promise<InterfaceNames> | undefined;

  /** The interface names by id (read once, until {@link forgetInterfaces}). */
  private interfaceNames(): Promise<InterfaceNames> {
    const names = (this.names ??= interfaceNames(this.monitor));
    names.catch(() => {
      if (this.names === names) this.names = undefined;
    });
    return names;
  }

  /** Forgets the interface names (an interface was created, renamed or deleted). */
  forgetInterfaces(): void {
    this.names = undefined;
  }

  /** API sequences as last read (the table changes only through this service). */
  private stored: Promise<DefinedSequence[]> | undefined;
  /** The observed answer of the last minute: every listing within it shares one read. */
  private observedMemo: { atMs: number; answer: Promise<ObservedAnswer> } | undefined;

  /** Config sequences, then API ones, by name. */
  async definedSequences(): Promise<DefinedSequence[]> {
    this.stored ??= this.store.list().then((list) => list.map((s): DefinedSequence => ({ ...s, source: 'api' })));
    try {
      return [...this.configSequences, ...(await this.stored)];
    } catch (error) {
      this.stored = undefined;
      throw error;
    }
  }

  /** Adds an API sequence; false when the name is taken. */
  async addSequence(sequence: StoredSequence): Promise<boolean> {
    try {
      return await this.store.add(sequence);
    } finally {
      // after the write: a listing that ran during it may have cached the list from before
      this.stored = undefined;
    }
  }

  /** Removes an API sequence; false when there was none. */
  async removeSequence(name: string): Promise<boolean> {
    try {
      return await this.store.remove(name);
    } finally {
      this.stored = undefined;
    }
  }

  private async judgedSequences(only?: string, alerting = false): Promise<JudgedSequence[]> {
    if (only !== undefined) return [{ name: null, sequence: parseSequence(only) }];
    const defined = await this.definedSequences();
    return defined.filter((s) => !alerting || s.alert).map((s) => ({ name: s.name, sequence: parseSequence(s.sequence) }));
  }

  private eventOf(record: TraceFacts, names: InterfaceNames): TraceEvent {
    return toTraceEvent(record, names.get(record.interfaceId) ?? record.interfaceId);
  }

  /** A trace by patient id (optionally of one authority), account number or control id. */
  async trace(query: TraceQuery): Promise<Trace> {
    const filter: MessageFilter = {};
    if (query.patientId !== undefined) filter.patientId = query.patientId;
    if (query.assigningAuthority !== undefined) filter.assigningAuthority = query.assigningAuthority;
    if (query.accountNumber !== undefined) filter.accountNumber = query.accountNumber;
    if (query.controlId !== undefined) filter.controlId = query.controlId;
    if (query.since !== undefined) filter.since = query.since;
    const [page, names, sequences] = await Promise.all([
      this.monitor.queryMessages(filter, { limit: query.limit, fields: TRACE_FIELDS }),
      this.interfaceNames(),
      this.judgedSequences(),
    ]);
    const events = page.messages.map((m) => this.eventOf(m, names)).sort(compareEvents);
    const authorities = new Set<string | null>();
    if (query.patientId !== undefined) {
      for (const event of events) {
        for (const id of event.patientIds) if (id.id === query.patientId) authorities.add(id.assigningAuthority);
      }
    }
    // A patient is an id under one authority: events are judged per patient, so MRN 123 of HOSP and of LAB stay apart.
    const byPatient = new Map<string, TraceEvent[]>();
    for (const event of events) {
      const own = query.patientId === undefined ? undefined : event.patientIds.find((id) => id.id === query.patientId);
      const key = own ? `${own.id}\u0000${own.assigningAuthority ?? ''}` : (patientKeyOf(event) ?? '');
      const list = byPatient.get(key);
      if (list) list.push(event);
      else byPatient.set(key, [event]);
    }
    const gaps: Gap[] = [];
    for (const [key, list] of byPatient) {
      const patientId = key === '' ? null : key.slice(0, key.lastIndexOf('\u0000'));
      for (const judged of sequences) gaps.push(...sequenceGaps(list, judged, patientId, this.nowMs()));
    }
    const first = events[0];
    const last = events[events.length - 1];
    return {
      patientId: query.patientId ?? (first ? (first.patientIds[0]?.id ?? null) : null),
      assigningAuthorities: [...authorities].sort((a, b) => (a ?? '').localeCompare(b ?? '')),
      events,
      totalSpanMs: first && last ? Date.parse(last.timestamp) - Date.parse(first.timestamp) : 0,
      gaps,
      truncated: page.next !== null,
    };
  }

  /** Gaps of a window: sequences (all interfaces), MSH-13 and control ids (per interface). */
  async gaps(query: GapsQuery): Promise<GapsResult> {
    const sequences = await this.judgedSequences(query.sequence);
    const names = await this.interfaceNames();
    const cap = this.limits.maxScanMessages;
    let messagesRead = 0;
    let truncated = false;
    const gaps: Gap[] = [];
    let resends = 0;
    let contentUnknown = 0;
    // Per-interface checks (MSH-13, control ids) read each interface's window in arrival order, at most `cap` messages in all.
    for (const interfaceId of query.interfaceId !== undefined ? [query.interfaceId] : [...names.keys()]) {
      const remaining = cap - messagesRead;
      if (remaining <= 0) {
        truncated = true;
        break;
      }
      const name = names.get(interfaceId) ?? interfaceId;
      let result: InterfaceGapResult;
      if (query.patientId === undefined) {
        // every patient: the window is scanned in the feed, and only what it found is read
        const scan = await this.feed.snapshot((reader) => scanFeedWindow(reader, { interfaceId, sinceMs: query.since.getTime() }, remaining));
        messagesRead += scan.messagesRead;
        truncated ||= scan.more;
        result = await this.judgeFindings(interfaceId, name, scan.findings, true);
      } else {
        const { messages, more } = await this.patientWindow(interfaceId, query, remaining);
        messagesRead += messages.length;
        truncated ||= more;
        result = await this.judgeFindings(interfaceId, name, scanFeed(messages), false);
      }
      gaps.push(...result.gaps);
      resends += result.resends;
      contentUnknown += result.contentUnknown;
    }
    if (sequences.length > 0) {
      // Sequences span interfaces: with one interface named, the patients seen on it are judged over every interface.
      const wide: MessageFilter = { since: query.since };
      if (query.patientId !== undefined) wide.patientId = query.patientId;
      let seenPatients: Set<string> | undefined;
      if (query.interfaceId !== undefined) {
        seenPatients = new Set<string>();
        for await (const record of this.monitor.streamMessages({ ...wide, interfaceIds: [query.interfaceId] }, { fields: ['patientIds'] })) {
          for (const id of record.patientIds) seenPatients.add(`${id.id}\u0000${id.assigningAuthority ?? ''}`);
        }
      }
      const events: TraceEvent[] = [];
      for await (const record of this.monitor.streamMessages(wide, { fields: TRACE_FIELDS })) {
        if (messagesRead >= cap) {
          truncated = true;
          break;
        }
        messagesRead++;
        if (seenPatients === undefined || record.patientIds.some((id) => seenPatients.has(`${id.id}\u0000${id.assigningAuthority ?? ''}`))) {
          events.push(this.eventOf(record, names));
        }
      }
      gaps.push(...this.judgeSequences(events, sequences, query.patientId));
      if (query.interfaceId !== undefined) {
        const iface = query.interfaceId;
        const name = names.get(iface);
        // Keep the sequence gaps that concern the interface: a step bound to it, or a message of it around the gap.
        const kept = gaps.filter((gap) => gap.kind === 'sequence-number' || gap.kind === 'duplicate-control-id' || gap.interfaceId === iface || gap.interfaceId === name || gap.seen.some((s) => s.interface === name));
        gaps.length = 0;
        gaps.push(...kept);
      }
    }
    gaps.sort((a, b) => a.window.from.localeCompare(b.window.from) || a.kind.localeCompare(b.kind));
    const counts = Object.fromEntries(GAP_KINDS.map((kind) => [kind, 0])) as Record<GapKind, number>;
    for (const gap of gaps) counts[gap.kind]++;
    return {
      since: query.since.toISOString(),
      sequences: sequences.map((s) => formatSequence(s.sequence)),
      gaps: gaps.slice(0, query.limit),
      counts,
      resends,
      contentUnknown,
      messagesRead,
      truncated: truncated || gaps.length > query.limit,
    };
  }

  /**
   * The messages of one patient in one interface's window in arrival order, at most `limit` (`more` when the window
   * holds more), from the monitor's identifier index with every detail (the feed keeps one identifier a message).
   */
  private async patientWindow(interfaceId: string, query: GapsQuery, limit: number): Promise<{ messages: FeedMessage[]; more: boolean }> {
    const messages: FeedMessage[] = [];
    const filter: MessageFilter = { since: query.since, interfaceIds: [interfaceId], patientId: query.patientId };
    for await (const record of this.monitor.streamMessages(filter, { fields: FEED_FIELDS })) {
      messages.push(feedMessageOf(record));
      if (messages.length > limit) break;
    }
    const more = messages.length > limit;
    if (more) messages.length = limit;
    return { messages, more };
  }

  /**
   * MSH-13 and control-id gaps of what a scan of one interface's window found. `narrow`: the messages it kept carry
   * only what the scan reads, and are completed with their details from the feed (type, MSH-7, patient, content
   * digest). A repeated message without a digest (stored before the monitor kept digests) is told by its raw text
   * when that is still kept.
   */
  private async judgeFindings(interfaceId: string, name: string, findings: FeedFindings, narrow: boolean): Promise<InterfaceGapResult> {
    if (narrow) {
      const shown = findings.jumps.flatMap(({ before, after }) => [before, after]);
      await this.feed.complete(interfaceId, [...shown, ...findings.repeated], DETAIL_COLUMNS);
    }
    for (const message of findings.repeated) {
      if (message.contentDigest !== null) continue;
      const full = await this.monitor.getMessage(message.id, { include: ['raw'] });
      message.contentDigest = typeof full?.raw === 'string' ? createHash('sha256').update(full.raw).digest('hex') : null;
    }
    return interfaceGaps(interfaceId, name, findings);
  }

  /** Sequence gaps of events of many patients (grouped by every identifier with its authority). */
  private judgeSequences(events: TraceEvent[], sequences: JudgedSequence[], patientId?: string): Gap[] {
    const byPatient = new Map<string, TraceEvent[]>();
    for (const event of events) {
      const own = patientId === undefined ? event.patientIds[0] : event.patientIds.find((id) => id.id === patientId);
      if (!own) continue;
      const key = `${own.id}\u0000${own.assigningAuthority ?? ''}`;
      const list = byPatient.get(key);
      if (list) list.push(event);
      else byPatient.set(key, [event]);
    }
    const gaps: Gap[] = [];
    const now = this.nowMs();
    for (const [key, list] of byPatient) {
      list.sort(compareEvents);
      const id = key.slice(0, key.lastIndexOf('\u0000'));
      for (const judged of sequences) gaps.push(...sequenceGaps(list, judged, id, now));
    }
    return gaps;
  }

  /** Latency between two interfaces over a window (see latency-read.ts). */
  latency(query: LatencyQuery): Promise<LatencyResult> {
    return readLatency(this.feed, query, { maxScanMessages: this.limits.maxScanMessages, matchWindowMs: this.limits.matchWindowMs }, this.nowMs());
  }

  /**
   * The most common paths of the recent window, from its first `observedMaxMessages` messages. Computed at most once
   * a minute: listings within the minute share the answer.
   */
  observed(): Promise<ObservedAnswer> {
    const now = this.nowMs();
    if (this.observedMemo && now - this.observedMemo.atMs < 60_000 && now >= this.observedMemo.atMs) return this.observedMemo.answer;
    const answer = this.readObserved(now);
    this.observedMemo = { atMs: now, answer };
    answer.catch(() => {
      if (this.observedMemo?.answer === answer) this.observedMemo = undefined;
    });
    return answer;
  }

  private async readObserved(nowMs: number): Promise<ObservedAnswer> {
    const since = new Date(nowMs - this.limits.observedWindowHours * 3_600_000);
    const names = await this.interfaceNames();
    const events: TraceEvent[] = [];
    let truncated = false;
    for await (const record of this.monitor.streamMessages({ since }, { fields: TRACE_FIELDS })) {
      if (events.length >= this.limits.observedMaxMessages) {
        truncated = true;
        break;
      }
      events.push(this.eventOf(record, names));
    }
    return { sequences: observedSequences(events, this.limits.observedTop), since: since.toISOString(), messagesRead: events.length, truncated };
  }

  /** The alerting sequences' gaps of the window, shared by every interface's judgement (see {@link alertingGaps}). */
  private alertMemo: { promise: Promise<{ gaps: Gap[]; names: InterfaceNames }>; settledAt: number | null } | undefined;

  /**
   * Sequence gaps of the alerting sequences over the last `alertWindowMinutes` that concern an interface (a step
   * bound to it, or one of its messages around the gap). The rule judges every interface after each commit and on
   * each check, so the window is read once for all of them: the read in flight, or one finished less than a second
   * ago, answers every interface; a window reads at most `alertMaxMessages` messages.
   */
  async alertingGaps(interfaceId: string): Promise<Gap[]> {
    const sequences = await this.judgedSequences(undefined, true);
    if (sequences.length === 0) return [];
    const memo = this.alertMemo;
    const fresh = memo !== undefined && (memo.settledAt === null || performance.now() - memo.settledAt < 1_000);
    if (!fresh) {
      const promise = this.readAlertingGaps(sequences);
      const entry: { promise: typeof promise; settledAt: number | null } = { promise, settledAt: null };
      this.alertMemo = entry;
      promise.then(
        () => {
          entry.settledAt = performance.now();
        },
        () => {
          if (this.alertMemo === entry) this.alertMemo = undefined;
        },
      );
    }
    const { gaps, names } = await this.alertMemo!.promise;
    const name = names.get(interfaceId);
    return gaps.filter((gap) => gap.interfaceId === interfaceId || (name !== undefined && (gap.interfaceId === name || gap.seen.some((s) => s.interface === name))));
  }

  private async readAlertingGaps(sequences: JudgedSequence[]): Promise<{ gaps: Gap[]; names: InterfaceNames }> {
    const names = await this.interfaceNames();
    const since = new Date(this.nowMs() - this.limits.alertWindowMinutes * 60_000);
    const events: TraceEvent[] = [];
    for await (const record of this.monitor.streamMessages({ since }, { fields: TRACE_FIELDS })) {
      if (events.length >= this.limits.alertMaxMessages) break;
      events.push(this.eventOf(record, names));
    }
    return { gaps: this.judgeSequences(events, sequences), names };
  }
}
