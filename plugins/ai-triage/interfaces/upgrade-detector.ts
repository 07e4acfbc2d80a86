/**
 * Vendor-upgrade detection over an interface's message facts (no raw text, no patient values): finds the point where
 * the sender's version (MSH-12), sending application (MSH-3), software (SFT-1/2/3/6), segments (Z-segments included)
 * or issue codes changed, and judges whether several of them changed together.
 *
 * How it decides, in one pass over the messages in time order (the sender's MSH-7 when usable, else the received time):
 * - A value *appears* at the message where it is first seen when none of the baseline before showed it, at least
 *   `minAfter` messages follow and it is on at least 80 % of them (30 % for issue codes, which need not be on every
 *   message). A value *vanishes* after its last message when it was on at least 80 % of the messages before and at
 *   least `minAfter` messages follow without it.
 * - Changes within `toleranceMessages` (or 10 minutes) of each other form one change point; the point with the
 *   highest confidence is the answer. The baseline is everything before it, whether that lies before the window or
 *   inside it; it needs at least `minBaseline` messages, and the changed traffic must reach into the window.
 * - Confidence = 1 - Π(1 - wᵢ) over the distinct kinds of change at the point, with weights: MSH-12 version 0.45,
 *   SFT software version 0.4, SFT install date 0.3, SFT product or vendor 0.25, sending application 0.25, a Z-segment
 *   appearing or vanishing 0.25, another segment 0.15, a new issue code 0.05. Several changes at one point raise it;
 *   one new error alone stays at 0.05. An upgrade is reported at confidence 0.5 or more.
 */

/** The facts of one message the detector reads (a projection of the monitor's MessageFacts). */
export interface UpgradeFacts {
  /** Epoch ms of the message (MSH-7, else received time). */
  at: number;
  /** Whether `at` falls in the window asked about. */
  inWindow: boolean;
  version: string | null;
  sendingApplication: string | null;
  software: { vendor: string | null; version: string | null; product: string | null; installDate: string | null } | null;
  segmentIds: readonly string[];
  errorCodes: readonly string[];
  /**
   * Features read from the message's text (upgrade-signals.ts), already as keys: `field\0PID.5` for a populated
   * field, `code\0OBX.3.3=LN` for a code or code system, `delimiters\0|^~\\&`, `encoding\0UNICODE UTF-8; CR`. Absent
   * when the text was not kept.
   */
  extra?: readonly string[];
}

/** Kinds of change. */
export const CHANGE_KINDS = [
  'version',
  'sending-application',
  'software-version',
  'software-install-date',
  'software-product',
  'software-vendor',
  'segment-appeared',
  'segment-vanished',
  'field-populated',
  'field-emptied',
  'code-set',
  'delimiters',
  'encoding',
  'new-issue-code',
] as const;

/** One kind of change. */
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One change at the change point: codes and versions, never patient values. */
export interface UpgradeChange {
  kind: ChangeKind;
  /** The value(s) of the baseline (for appeared segments and new codes: none). */
  before: string[];
  /** The value(s) after the change point (for vanished segments: none). */
  after: string[];
  /** When the change was first seen (ISO 8601 UTC). */
  firstSeen: string;
  /** Messages showing it (for a vanished segment: messages without it after the point). */
  messages: number;
}

/** The detector's verdict. */
export interface UpgradeVerdict {
  assessment: 'detected' | 'not-detected' | 'insufficient-data';
  upgradeDetected: boolean;
  confidence: number;
  changePoint: string | null;
  changes: UpgradeChange[];
  baselineMessages: number;
  afterMessages: number;
  explanation: string;
}

/** Tuning of the detector (defaults are what the routes and alert rule use). */
export interface UpgradeOptions {
  minBaseline: number;
  minAfter: number;
  toleranceMessages: number;
}

/** Defaults. */
export const DEFAULT_UPGRADE_OPTIONS: UpgradeOptions = { minBaseline: 20, minAfter: 5, toleranceMessages: 5 };

const WEIGHTS: Record<ChangeKind, number> = {
  version: 0.45,
  'software-version': 0.4,
  'software-install-date': 0.3,
  'software-product': 0.25,
  'software-vendor': 0.25,
  'sending-application': 0.25,
  'segment-appeared': 0.15,
  'segment-vanished': 0.15,
  'field-populated': 0.15,
  'field-emptied': 0.15,
  'code-set': 0.2,
  delimiters: 0.3,
  encoding: 0.3,
  'new-issue-code': 0.05,
};

/** Kinds whose changes are one value each (a segment, a field, an issue code) rather than a value replaced. */
const PRESENCE_KINDS: ReadonlySet<ChangeKind> = new Set(['segment-appeared', 'segment-vanished', 'field-populated', 'field-emptied', 'new-issue-code']);

/** How a feature group changes: shares that make a value appear or vanish, and the kinds it reports. */
interface GroupRule {
  /** Share of the messages since its first one that must show a new value. */
  appearShare: number;
  /** Share of the messages up to its last one that must have shown a vanished value. */
  vanishShare: number;
  /** Fewest messages without the value after its last one (beside `minAfter`). */
  vanishAfter: number;
  appeared: (value: string) => ChangeKind;
  /** Absent: values of the group never vanish (issue codes). */
  vanished?: (value: string) => ChangeKind;
}

/** The feature every message whose text was read carries. */
const TEXT_KNOWN = 'text\0known';

/** Feature groups read from the text (upgrade-signals.ts). */
const TEXT_GROUPS = new Set(['field', 'code', 'delimiters', 'encoding']);

const VALUE_GROUPS = new Set<string>(['version', 'sending-application', 'software-version', 'software-install-date', 'software-product', 'software-vendor', 'delimiters', 'encoding']);

/**
 * The rule of a feature group. Versions, senders, software, delimiters and encoding are on every message and change by
 * replacement; segments and fields by presence (80 % of the messages); issue codes and code values need not be on every
 * message (30 %), and a code value vanishes only after twenty messages without it (a value on a third of the messages is
 * missing five times in a row by chance far too often).
 */
function ruleOf(group: string): GroupRule {
  if (group === 'segment') return { appearShare: 0.8, vanishShare: 0.8, vanishAfter: 0, appeared: () => 'segment-appeared', vanished: () => 'segment-vanished' };
  if (group === 'field') return { appearShare: 0.8, vanishShare: 0.8, vanishAfter: 0, appeared: () => 'field-populated', vanished: () => 'field-emptied' };
  if (group === 'issue') return { appearShare: 0.3, vanishShare: 1, vanishAfter: 0, appeared: () => 'new-issue-code' };
  if (group === 'code') return { appearShare: 0.3, vanishShare: 0.3, vanishAfter: 20, appeared: () => 'code-set', vanished: () => 'code-set' };
  const kind = (VALUE_GROUPS.has(group) ? group : 'version') as ChangeKind;
  return { appearShare: 0.8, vanishShare: 0.8, vanishAfter: 0, appeared: () => kind, vanished: () => kind };
}

function weightOf(kind: ChangeKind, value: string): number {
  return (kind === 'segment-appeared' || kind === 'segment-vanished') && value.startsWith('Z') ? Z_WEIGHT : WEIGHTS[kind];
}

const Z_WEIGHT = 0.25;
const TOLERANCE_MS = 10 * 60_000;
/** How confident an upgrade must be to be reported. */
export const UPGRADE_THRESHOLD = 0.5;

interface Track {
  first: number;
  last: number;
  count: number;
}

/**
 * A run of messages that showed the same features, as the detector reads them: `count` messages from `at` on (the
 * triage aggregate stores one per signature and minute; one message is a run of one).
 */
export interface UpgradeEntry {
  /** Epoch ms of the run's first message. */
  at: number;
  count: number;
  inWindow: boolean;
  /** Feature keys (`kind\0value`), see {@link upgradeFeatures}. */
  features: readonly string[];
}

/** Feature keys of one message: `kind\0value`. Values-kinds change by replacement; segments and codes by presence. */
export function upgradeFeatures(facts: Omit<UpgradeFacts, 'at' | 'inWindow'>): string[] {
  const out: string[] = [];
  out.push(`version\0${facts.version ?? '(none)'}`);
  out.push(`sending-application\0${facts.sendingApplication ?? '(none)'}`);
  const software = facts.software;
  out.push(`software-version\0${software?.version ?? '(none)'}`);
  out.push(`software-install-date\0${software?.installDate ?? '(none)'}`);
  out.push(`software-product\0${software?.product ?? '(none)'}`);
  out.push(`software-vendor\0${software?.vendor ?? '(none)'}`);
  for (const segment of new Set(facts.segmentIds)) out.push(`segment\0${segment}`);
  for (const code of new Set(facts.errorCodes)) out.push(`issue\0${code}`);
  if (facts.extra) out.push(TEXT_KNOWN, ...facts.extra);
  return out;
}

interface Candidate {
  index: number;
  kind: ChangeKind;
  value: string;
  appeared: boolean;
  messages: number;
  weight: number;
}

/**
 * Runs the detector over runs of messages sorted by `at` (oldest first). Positions are message counts: a run of
 * `count` messages occupies `count` positions, so a verdict over runs equals the verdict over their messages.
 */
export function detectUpgradeIn(entries: readonly UpgradeEntry[], options: UpgradeOptions = DEFAULT_UPGRADE_OPTIONS): UpgradeVerdict {
  const starts: number[] = [];
  const entryAt = new Map<number, number>();
  let total = 0;
  let inWindow = 0;
  let firstInWindow = -1;
  entries.forEach((entry, index) => {
    starts.push(total);
    entryAt.set(total, index);
    if (entry.inWindow) {
      inWindow += entry.count;
      if (firstInWindow < 0) firstInWindow = total;
    }
    total += entry.count;
  });
  if (total < options.minBaseline + options.minAfter || inWindow === 0) {
    return {
      assessment: 'insufficient-data',
      upgradeDetected: false,
      confidence: 0,
      changePoint: null,
      changes: [],
      baselineMessages: total - inWindow,
      afterMessages: inWindow,
      explanation:
        inWindow === 0
          ? 'No message arrived in the window, so there is nothing to compare with a baseline.'
          : `Too little data to judge: ${total} message(s) in the window and before it; at least ${options.minBaseline + options.minAfter} are needed (${options.minBaseline} for a baseline and ${options.minAfter} after a change).`,
    };
  }
  // Time of the run starting at a position (candidates always start at a run's start).
  const timeAt = (position: number) => entries[entryAt.get(position) ?? 0]!.at;
  const tracks = new Map<string, Track>();
  entries.forEach((entry, index) => {
    const first = starts[index]!;
    const last = first + entry.count - 1;
    for (const key of entry.features) {
      const track = tracks.get(key);
      if (track) {
        track.last = last;
        track.count += entry.count;
      } else tracks.set(key, { first, last, count: entry.count });
    }
  });
  const candidates: Candidate[] = [];
  // Features read from the text are judged only when every message had its text: where some had not (raw text not
  // kept, or removed by retention before it was read), their appearing would be the text's, not the sender's.
  const textKnown = tracks.get(TEXT_KNOWN)?.count === total;
  for (const [key, track] of tracks) {
    const [group, value] = key.split('\0') as [string, string];
    if (key === TEXT_KNOWN || (TEXT_GROUPS.has(group) && !textKnown)) continue;
    const rule = ruleOf(group);
    const after = total - track.first;
    // Appeared: first seen after a full baseline, present on most messages since (issue codes and code values: on some).
    if (track.first >= options.minBaseline && after >= options.minAfter && track.last >= firstInWindow) {
      const share = track.count / after;
      if (share >= rule.appearShare) {
        const kind = rule.appeared(value);
        candidates.push({ index: track.first, kind, value, appeared: true, messages: track.count, weight: weightOf(kind, value) });
      }
    }
    // Vanished: on most of the messages up to its last one, then absent for long enough.
    const afterLast = total - track.last - 1;
    const vanished = rule.vanished;
    if (vanished && track.last + 1 >= options.minBaseline && afterLast >= Math.max(options.minAfter, rule.vanishAfter) && track.last + 1 >= firstInWindow) {
      const share = track.count / (track.last + 1);
      if (share >= rule.vanishShare) {
        const kind = vanished(value);
        candidates.push({ index: track.last + 1, kind, value, appeared: false, messages: afterLast, weight: weightOf(kind, value) });
      }
    }
  }
  if (candidates.length === 0) return noChange(total, 'No version, sending application, software, segment, field, code system, delimiter, encoding or issue code changed between the baseline and the window.');
  candidates.sort((a, b) => a.index - b.index);
  // Group candidates into change points: close in messages or in time.
  const groups: Candidate[][] = [];
  for (const candidate of candidates) {
    const current = groups[groups.length - 1];
    const head = current?.[0];
    if (head && (candidate.index - head.index <= options.toleranceMessages || timeAt(candidate.index) - timeAt(head.index) <= TOLERANCE_MS)) current!.push(candidate);
    else groups.push([candidate]);
  }
  let best: { group: Candidate[]; confidence: number } | undefined;
  for (const group of groups) {
    // The change must reach into the window: some message at or after the point lies in it.
    const from = entryAt.get(group[0]!.index);
    if (from === undefined || !entries.slice(from).some((entry) => entry.inWindow)) continue;
    const kinds = new Map<ChangeKind, number>();
    for (const candidate of group) kinds.set(candidate.kind, Math.max(kinds.get(candidate.kind) ?? 0, candidate.weight));
    const confidence = 1 - [...kinds.values()].reduce((product, weight) => product * (1 - weight), 1);
    if (!best || confidence > best.confidence) best = { group, confidence };
  }
  if (!best) return noChange(total, 'The only changes found happened before the baseline the window can be compared with.');
  const point = best.group[0]!.index;
  const changes = mergeChanges(best.group, timeAt);
  const confidence = Math.round(best.confidence * 100) / 100;
  const detected = confidence >= UPGRADE_THRESHOLD;
  const changePoint = new Date(timeAt(point)).toISOString();
  const described = changes.map((change) => describeChange(change)).join('; ');
  return {
    assessment: detected ? 'detected' : 'not-detected',
    upgradeDetected: detected,
    confidence,
    changePoint,
    changes,
    baselineMessages: point,
    afterMessages: total - point,
    explanation: detected
      ? `The sender changed at ${changePoint}: ${described}. ${changes.length} change(s) starting at one point (confidence ${confidence}) indicate a vendor upgrade or reconfiguration; the baseline is the ${point} message(s) before it.`
      : `A change was seen at ${changePoint} (${described}), but alone it does not indicate an upgrade (confidence ${confidence} < ${UPGRADE_THRESHOLD}).`,
  };
}

function noChange(total: number, reason: string): UpgradeVerdict {
  return { assessment: 'not-detected', upgradeDetected: false, confidence: 0, changePoint: null, changes: [], baselineMessages: total, afterMessages: 0, explanation: reason };
}

/** One change per kind: a value that vanished and one that appeared at the same point are "before" and "after". */
function mergeChanges(group: Candidate[], timeAt: (position: number) => number): UpgradeChange[] {
  const byKind = new Map<string, UpgradeChange>();
  for (const candidate of group) {
    const valueKind = !PRESENCE_KINDS.has(candidate.kind);
    // Code values merge per field (before and after name the field's codes); other value kinds per kind.
    const key = candidate.kind === 'code-set' ? `code-set\0${candidate.value.split('=')[0]}` : valueKind ? candidate.kind : `${candidate.kind}\0${candidate.value}`;
    const seenAt = timeAt(candidate.index);
    const change = byKind.get(key) ?? { kind: candidate.kind, before: [], after: [], firstSeen: new Date(seenAt).toISOString(), messages: 0 };
    if (candidate.appeared) {
      change.after.push(candidate.value);
      change.messages = Math.max(change.messages, candidate.messages);
    } else {
      change.before.push(candidate.value);
      if (!valueKind) change.messages = candidate.messages;
    }
    if (seenAt < Date.parse(change.firstSeen)) change.firstSeen = new Date(seenAt).toISOString();
    byKind.set(key, change);
  }
  return [...byKind.values()].filter((change) => !(change.after.length === 0 && change.before.length === 1 && change.before[0] === '(none)'));
}

function describeChange(change: UpgradeChange): string {
  const before = change.before.join(', ') || '(absent)';
  const after = change.after.join(', ') || '(absent)';
  switch (change.kind) {
    case 'segment-appeared':
      return `segment ${after} appeared`;
    case 'segment-vanished':
      return `segment ${before} vanished`;
    case 'new-issue-code':
      return `new issue code ${after}`;
    case 'field-populated':
      return `field ${after} became populated`;
    case 'field-emptied':
      return `field ${before} became empty`;
    case 'code-set':
      return `codes ${before} -> ${after}`;
    default:
      return `${change.kind} ${before} -> ${after}`;
  }
}
