/**
 * The offline triage engine: from a message (and its findings, or a validation it runs) to one plain-English root
 * cause, an explanation, ordered fixes naming the field and the side that changes, the affected fields with their
 * meaning (the standard's own `describe`), a category and a confidence. Deterministic: same input, same answer.
 * It never echoes a value of the message; texts are built from paths, codes, names of fields and counts.
 */
import type { FieldDescription, StandardAdapter, ValidationIssue } from '../../../kernel/standards-registry.ts';
import type { KnowledgeBase, KnowledgeEntry, TriageCategory } from './knowledge-base.ts';
import { detectSignals, type MessageSignals } from './message-signals.ts';
import { bindingStrength, findingFix, type FindingFix } from './finding-fixes.ts';

/** One suggested fix, in the order to try. */
export interface SuggestedFix {
  order: number;
  side: 'sender' | 'receiver';
  field: string;
  action: string;
}

/** A field the findings touch, with what it means. */
export interface AffectedField {
  path: string;
  name: string | null;
  dataType: string | null;
  table: string | null;
  codes: string[];
}

/** What triage answers. */
export interface TriageResult {
  rootCause: string;
  explanation: string;
  suggestedFixes: SuggestedFix[];
  affectedFields: AffectedField[];
  category: TriageCategory;
  confidence: number;
  /** `rules` for the offline engine, else the model's name. */
  engine: string;
  standard: string | null;
  messageType: string | null;
  version: string | null;
  /** The knowledge entry behind the root cause (for review), null when none applied. */
  knowledgeEntry: string | null;
  /** Counts of the findings triage looked at. */
  findings: { errors: number; warnings: number; byCode: Record<string, number> };
  /** Causes read from the raw message (`lf-terminators`, `z-segment`...). */
  signals: string[];
  notes: string[];
}

/** A finding as triage reads it (from a validation, or parsed from a caller's strings). */
export type TriageFinding = Pick<ValidationIssue, 'field' | 'code' | 'severity' | 'expected' | 'actual'>;

/** Input of {@link TriageEngine.triage}. */
export interface TriageInput {
  content: string;
  /** The caller's findings as strings (`PID.5 REQUIRED_FIELD_MISSING ...`); absent: the engine validates. */
  validationErrors?: string[];
  interfaceContext?: string;
}

/** What the engine needs from the platform: detection, describe and a validation (possibly off the event loop). */
export interface TriageDependencies {
  detect(content: string): StandardAdapter | undefined;
  validate(adapter: StandardAdapter, content: string): Promise<{ errors: ValidationIssue[]; warnings: ValidationIssue[] }>;
}

/** Findings triage ranks at most (the counts cover every one). */
const MAX_RANKED = 200;

/** Which cause explains a message first when it has several: what breaks reading comes before what breaks meaning. */
const CATEGORY_RANK: Record<TriageCategory, number> = {
  'parse-failure': 0,
  'encoding-delimiters': 1,
  structure: 2,
  'version-mismatch': 3,
  'missing-data': 4,
  'wrong-code': 5,
  'date-time-format': 6,
  'data-type': 7,
  'check-digit': 8,
  reference: 9,
  profile: 10,
  length: 11,
  none: 12,
};

/** Codes saying the content could not be read at all (checked even when the caller sends its own findings). */
const UNREADABLE_CODES = new Set(['PARSE_ERROR', 'NOT_FHIR_RESOURCE', 'MESSAGE_UNPARSEABLE', 'MSH_INVALID']);

const CODE_PATTERN = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;
const CODE_PATTERN_ONE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const HL7_PATH = /\b([A-Z][A-Z0-9]{2})(?:\[\d+\])?((?:[.-]\d+(?:\[\d+\])?)+)\b/;
const DOTTED_PATH = /\b([A-Z][A-Za-z]+(?:\.[A-Za-z@][\w@]*(?:\[\d+\])?)+)/;

/** Words of free-text findings and the code they most likely mean. */
const WORD_CODES: Array<[RegExp, string]> = [
  [/required|missing|empty|blank/i, 'REQUIRED_FIELD_MISSING'],
  [/table|code|value set/i, 'VALUE_NOT_IN_TABLE'],
  [/date|time/i, 'INVALID_DATE'],
  [/too long|length/i, 'FIELD_TOO_LONG'],
  [/segment/i, 'SEGMENT_UNEXPECTED'],
  [/parse|unreadable|malformed/i, 'PARSE_ERROR'],
  [/version/i, 'UNSUPPORTED_VERSION'],
];

/** `PID.3[2].1` -> `PID.3.1`, `OBX[3].5` -> `OBX.5`, `PID-5` -> `PID.5`. */
export function normalisePath(path: string): string {
  return path.replace(/\[\d+\]/g, '').replace(/^([A-Z][A-Z0-9]{2})-(\d)/, '$1.$2');
}

/** Reads a caller's finding string: its code (a known one first) and its path; severity error. */
export function parseFindingText(text: string, knownCodes: ReadonlySet<string>): TriageFinding & { guessed: boolean } {
  const bounded = text.slice(0, 500);
  const codes = bounded.match(CODE_PATTERN) ?? [];
  let code = codes.find((candidate) => knownCodes.has(candidate));
  let guessed = false;
  if (!code) {
    code = WORD_CODES.find(([pattern]) => pattern.test(bounded))?.[1] ?? 'UNKNOWN_FINDING';
    guessed = true;
  }
  // A finding usually starts with its path (`PID.5 ...`, `message[3].SAC ...`); otherwise the first path it names.
  const first = bounded.trim().split(/[\s:,;]+/, 1)[0] ?? '';
  const hl7 = HL7_PATH.exec(bounded);
  const field = /^[A-Za-z][\w[\]@-]*\.[\w[\].@-]+$/.test(first) && !CODE_PATTERN_ONE.test(first)
    ? first
    : hl7
      ? `${hl7[1]}${hl7[2]!.replace(/-/g, '.')}`
      : (DOTTED_PATH.exec(bounded)?.[1] ?? '');
  return { code, field: normalisePath(field), severity: 'error', guessed };
}

/** Message type and version as the message declares them (HL7 MSH-9/MSH-12, FHIR resourceType, NCPDP body). */
function declared(standard: string, content: string): { messageType: string | null; version: string | null } {
  if (standard === 'hl7') {
    const msh = content.split(/\r\n|\r|\n/, 50).map((line) => line.replace(/^[\uFEFF\x0b]+/, '')).find((line) => line.startsWith('MSH'));
    if (!msh) return { messageType: null, version: null };
    const fields = msh.split(msh[3] ?? '|');
    const type = (fields[8] ?? '').split(msh[4] ?? '^').slice(0, 2).filter(Boolean).join('^');
    return { messageType: type.slice(0, 20) || null, version: (fields[11] ?? '').split(msh[4] ?? '^')[0]!.slice(0, 10) || null };
  }
  if (standard === 'fhir') {
    const type = /"resourceType"\s*:\s*"([A-Za-z]{1,64})"/.exec(content.slice(0, 10_000))?.[1] ?? /<([A-Z][A-Za-z]{1,63})[\s>]/.exec(content.slice(0, 10_000))?.[1];
    return { messageType: type ?? null, version: 'R4' };
  }
  const body = /<(?:\w+:)?Body>\s*<(?:\w+:)?([A-Za-z]{1,64})[\s>/]/.exec(content.slice(0, 20_000))?.[1];
  const version = /<(?:\w+:)?Message[^>]*\sversion="([^"]{1,16})"/.exec(content.slice(0, 2_000))?.[1] ?? (content.includes('D0') ? 'D.0' : null);
  return { messageType: body ?? (/^\s*\S{6}D0(B1|B2|B3|E1|N1|C1)/.exec(content)?.[1] ?? null), version };
}

/**
 * A segment both out of order and "missing" is one problem: it is there, in the wrong place, so the fix is to move
 * it, not to add one. Each SEGMENT_MISSING finding of a segment that our own validation also finds out of order
 * becomes that out-of-order finding, with the missing finding's severity (compatibility mode reports the order as a
 * warning and the absence as an error).
 */
function misplacedForMissing<T extends TriageFinding>(findings: T[], validated: readonly TriageFinding[]): T[] {
  const misplaced = new Map<string, TriageFinding>();
  for (const finding of validated) if (finding.code === 'SEGMENT_OUT_OF_ORDER' && !misplaced.has(segmentOf(finding.field))) misplaced.set(segmentOf(finding.field), finding);
  if (misplaced.size === 0) return findings;
  return findings.map((finding) => {
    const out = finding.code === 'SEGMENT_MISSING' ? misplaced.get(segmentOf(finding.field)) : undefined;
    return out ? { ...finding, code: out.code, field: out.field, expected: out.expected, actual: out.actual } : finding;
  });
}

/** The segment a finding's path names, with its message when the content has several (`message[2].PV1`). */
function segmentOf(path: string): string {
  return /^(?:message\[\d+\]\.)?[A-Za-z0-9]+/.exec(path)?.[0] ?? path;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}

/** The offline engine over one knowledge base. */
export class TriageEngine {
  constructor(
    private readonly knowledge: KnowledgeBase,
    private readonly dependencies: TriageDependencies,
  ) {}

  /** Triage of one message. Never throws for message content: unreadable content is a parse-failure answer. */
  async triage(input: TriageInput): Promise<TriageResult> {
    const adapter = input.content.trim() === '' ? undefined : this.dependencies.detect(input.content);
    if (!adapter) return this.unrecognised(input);
    const standard = adapter.id;
    const { messageType, version } = declared(standard, input.content);
    const signals = detectSignals(standard, input.content);
    const notes: string[] = [];
    let findings: Array<TriageFinding & { guessed?: boolean }>;
    /** Every finding of our own validation (errors and warnings), whoever supplied the findings triaged. */
    let validated: TriageFinding[];
    if (input.validationErrors !== undefined) {
      const known = this.knowledge.codes(standard);
      // A caller's text becomes a field path only when it names a path the standard describes: otherwise the word
      // taken for a path (`MRN88877766.PID`, an e-mail address) is a value, and the finding is about the message.
      let unnamed = 0;
      findings = input.validationErrors.map((text) => {
        const finding = parseFindingText(text, known);
        if (finding.field === '' || this.describe(adapter, finding.field, version) !== undefined) return finding;
        unnamed++;
        return { ...finding, field: '' };
      });
      if (unnamed > 0) notes.push(`${unnamed} finding(s) named no path the standard defines; they are read as about the whole message.`);
      // The caller's findings explain a message that can be read; content that cannot is a parse failure first.
      const own = await this.dependencies.validate(adapter, input.content);
      validated = [...own.errors, ...own.warnings];
      const unreadable = own.errors.filter((issue) => UNREADABLE_CODES.has(issue.code));
      if (unreadable.length > 0) findings = [...unreadable, ...findings];
      if (findings.some((finding) => finding.guessed)) notes.push('Some findings named no known issue code; their code was inferred from their words.');
    } else {
      const result = await this.dependencies.validate(adapter, input.content);
      findings = [...result.errors, ...result.warnings];
      validated = findings;
    }
    const counts = { errors: 0, warnings: 0, byCode: {} as Record<string, number> };
    for (const finding of findings) {
      if (finding.severity === 'warning') counts.warnings++;
      else counts.errors++;
      counts.byCode[finding.code] = (counts.byCode[finding.code] ?? 0) + 1;
    }
    const context = input.interfaceContext ?? '';
    const signalSet = new Set(signals.keys());
    const relevant = misplacedForMissing(findings, validated);
    const ranked = relevant.slice(0, MAX_RANKED).map((finding, index) => {
      const field = normalisePath(finding.field);
      const entry = this.knowledge.match(standard, { code: finding.code, field, messageType: messageType ?? '', context, signals: signalSet });
      return { finding: { ...finding, field }, entry, index };
    });
    const errors = ranked.filter((item) => item.finding.severity !== 'warning');
    const pool = errors.length > 0 ? errors : ranked;
    const explained = pool.filter((item) => item.entry !== undefined) as Array<{ finding: TriageFinding; entry: KnowledgeEntry; index: number }>;
    // Knowledge keyed to the very field or signal beats a generic entry; then what breaks reading comes first.
    // Content that cannot be read comes before anything said about its fields.
    const specific = (entry: KnowledgeEntry) => (entry.category === 'parse-failure' ? -1 : entry.field !== undefined || entry.signal !== undefined ? 0 : 1);
    explained.sort(
      (a, b) =>
        specific(a.entry) - specific(b.entry) ||
        CATEGORY_RANK[a.entry.category] - CATEGORY_RANK[b.entry.category] ||
        b.entry.confidence - a.entry.confidence ||
        a.index - b.index,
    );
    const primary = explained[0];
    const describe = (path: string) => this.describe(adapter, path, version);
    const values = (field: string): Record<string, string> => {
      const description = field ? describe(field) : undefined;
      return {
        field: field || 'the message',
        fieldLabel: description ? `${field} (${description.name})` : field || 'A field',
        dataType: description?.dataType ?? 'its data type',
        table: description?.table ?? 'its table',
        messageType: messageType ?? 'this message type',
        version: version ?? '(undeclared)',
        count: String(findings.length),
      };
    };
    const affectedFields = this.affected(ranked.map((item) => item.finding), describe);

    if (!primary) {
      // No finding explained by the knowledge: a signal of the raw message may still be the cause.
      const signal = [...signals.keys()].map((name) => ({ name, entry: this.knowledge.signal(standard, name, { field: '', messageType: messageType ?? '', context, signals: signalSet }) })).find((item) => item.entry);
      if (signal?.entry) {
        return this.answer(signal.entry, values(signals.get(signal.name) ?? ''), [], {
          affectedFields,
          standard,
          messageType,
          version,
          counts,
          signals,
          notes: findings.length === 0 ? [...notes, 'The message validates; the cause shown is read from its raw form and matters to stricter receivers.'] : notes,
          confidence: findings.length === 0 ? 0.5 : undefined,
        });
      }
      if (findings.length === 0) {
        return {
          rootCause: `No problem found: the ${messageType ?? 'message'} validates as ${adapter.displayName}${version && /^\d/.test(version) ? ` v${version}` : ''}.`,
          explanation: 'The message passed validation with no errors or warnings, so a failure on the receiving side is more likely a routing, profile or acknowledgement problem than the content.',
          suggestedFixes: [{ order: 1, side: 'receiver', field: 'MSH', action: 'Check the receiver\'s own error log and acknowledgement (MSA) for the reason it refused the message, and which profile it applies.' }],
          affectedFields: [],
          category: 'none',
          confidence: 0.6,
          engine: 'rules',
          standard,
          messageType,
          version,
          knowledgeEntry: null,
          findings: counts,
          signals: [...signals.keys()],
          notes,
        };
      }
      const first = ranked[0]!.finding;
      return {
        rootCause: `${values(first.field).fieldLabel} has a finding (${first.code}) this knowledge base does not explain yet.`,
        explanation: `${findings.length} finding(s) were reported; none matches an entry of the ${standard} knowledge base.`,
        suggestedFixes: [{ order: 1, side: 'sender', field: first.field || 'the message', action: 'Compare the field with the standard\'s definition (GET /api/describe) and with a message from before the failure began.' }],
        affectedFields,
        category: 'none',
        confidence: 0.2,
        engine: 'rules',
        standard,
        messageType,
        version,
        knowledgeEntry: null,
        findings: counts,
        signals: [...signals.keys()],
        notes,
      };
    }
    const others = explained.filter((item) => item.entry.id !== primary.entry.id);
    const categories = new Set(explained.map((item) => item.entry.category));
    let confidence = primary.entry.confidence;
    if (primary.entry.field !== undefined || primary.entry.signal !== undefined) confidence += 0.05;
    if (categories.size >= 3) confidence -= 0.1;
    if ((primary.finding as { guessed?: boolean }).guessed) confidence = Math.min(confidence, 0.35);
    const primaryDescription = primary.finding.field ? describe(primary.finding.field) : undefined;
    const own = findingFix({
      standard,
      category: primary.entry.category,
      code: primary.finding.code,
      field: primary.finding.field,
      expected: primary.finding.expected,
      actual: primary.finding.actual,
      messageType,
      description: primaryDescription,
    });
    // Other findings add their fixes after the primary's own, and only errors do: a warning the message already
    // carried is not what failed it, so its fix does not come second.
    const otherErrors = primary.finding.severity === 'warning' ? [] : others.filter((item) => item.finding.severity !== 'warning');
    return this.answer(primary.entry, values(primary.finding.field), otherErrors.map((item) => ({ entry: item.entry, values: values(item.finding.field), binding: bindingStrength(describe(item.finding.field)) })), {
      own,
      binding: bindingStrength(primaryDescription),
      affectedFields,
      standard,
      messageType,
      version,
      counts,
      signals,
      notes,
      confidence,
    });
  }

  private answer(
    entry: KnowledgeEntry,
    values: Record<string, string>,
    others: Array<{ entry: KnowledgeEntry; values: Record<string, string>; binding?: string }>,
    facts: {
      affectedFields: AffectedField[];
      standard: string;
      messageType: string | null;
      version: string | null;
      counts: TriageResult['findings'];
      signals: MessageSignals;
      notes: string[];
      confidence: number | undefined;
      /** The finding's own fix (finding-fixes.ts): it comes first and stands for the entry's first sender fix. */
      own?: FindingFix;
      /** Binding strength of the primary finding's field, for fixes that hold only for some strengths. */
      binding?: string;
    },
  ): TriageResult {
    const fixes: SuggestedFix[] = [];
    const seen = new Set<string>();
    if (facts.own) {
      fixes.push({ order: 1, ...facts.own });
      const generic = entry.fixes.find((fix) => fix.side === 'sender');
      if (generic) seen.add(`sender|${fill(generic.field, values)}|${fill(generic.action, values)}`);
    }
    const addFixes = (source: KnowledgeEntry, sourceValues: Record<string, string>, binding: string | undefined) => {
      for (const fix of source.fixes) {
        // A fix for some binding strengths only: left out when the field's strength is another, or unknown.
        if (fix.binding && !(binding && (fix.binding as string[]).includes(binding))) continue;
        const made = { side: fix.side, field: fill(fix.field, sourceValues), action: fill(fix.action, sourceValues) };
        const key = `${made.side}|${made.field}|${made.action}`;
        if (seen.has(key) || fixes.length >= 8) continue;
        seen.add(key);
        fixes.push({ order: fixes.length + 1, ...made });
      }
    };
    addFixes(entry, values, facts.binding);
    const otherEntries = new Set<string>();
    for (const other of others) {
      if (otherEntries.has(other.entry.id) || otherEntries.size >= 3) continue;
      otherEntries.add(other.entry.id);
      addFixes(other.entry, other.values, other.binding);
    }
    const total = facts.counts.errors + facts.counts.warnings;
    const rest = total > 1 ? ` The message has ${facts.counts.errors} error(s) and ${facts.counts.warnings} warning(s) in all (${Object.entries(facts.counts.byCode).map(([code, count]) => `${code} ${count}`).join(', ')}).` : '';
    return {
      rootCause: fill(entry.rootCause, values),
      explanation: fill(entry.explanation, values) + rest,
      suggestedFixes: fixes,
      affectedFields: facts.affectedFields,
      category: entry.category,
      confidence: Math.round(Math.min(0.98, Math.max(0.05, facts.confidence ?? entry.confidence)) * 100) / 100,
      engine: 'rules',
      standard: facts.standard,
      messageType: facts.messageType,
      version: facts.version,
      knowledgeEntry: entry.id,
      findings: facts.counts,
      signals: [...facts.signals.keys()],
      notes: facts.notes,
    };
  }

  private affected(findings: TriageFinding[], describe: (path: string) => FieldDescription | undefined): AffectedField[] {
    const byPath = new Map<string, Set<string>>();
    for (const finding of findings) {
      if (!finding.field) continue;
      if (!byPath.has(finding.field) && byPath.size >= 50) continue;
      byPath.set(finding.field, (byPath.get(finding.field) ?? new Set()).add(finding.code));
    }
    return [...byPath.entries()].map(([path, codes]) => {
      const description = describe(path);
      return { path, name: description?.name ?? null, dataType: description?.dataType ?? null, table: description?.table ?? null, codes: [...codes] };
    });
  }

  private describe(adapter: StandardAdapter, path: string, version: string | null): FieldDescription | undefined {
    try {
      const known = version && adapter.versions.includes(version) ? version : undefined;
      return adapter.describe(path, known ? { version: known } : {}) ?? undefined;
    } catch {
      return undefined;
    }
  }

  private unrecognised(input: TriageInput): TriageResult {
    const empty = input.content.trim() === '';
    return {
      rootCause: empty ? 'The message is empty.' : 'The content is not recognisable as an HL7 v2, FHIR or NCPDP message, so it fails before any field can be read.',
      explanation: empty
        ? 'Nothing was received: an empty file or body usually comes from a sender that wrote the file before its content, or a transport that lost it.'
        : 'No standard matched: the content has no MSH segment, no FHIR resourceType and no NCPDP structure. Files holding reports, envelopes, headers or a truncated message end up here.',
      suggestedFixes: [
        { order: 1, side: 'sender', field: 'the message', action: 'Send one complete message per file (HL7 starting with MSH, FHIR as a resource, NCPDP as SCRIPT XML or a D.0 transaction).' },
        { order: 2, side: 'receiver', field: 'the message', action: 'Check what arrives in the folder or port: a report, envelope or partial write is not a message.' },
      ],
      affectedFields: [],
      category: 'parse-failure',
      confidence: 0.9,
      engine: 'rules',
      standard: null,
      messageType: null,
      version: null,
      knowledgeEntry: null,
      findings: { errors: 1, warnings: 0, byCode: { PARSE_ERROR: 1 } },
      signals: [],
      notes: input.validationErrors?.length ? ['The findings sent along were not used: the content itself could not be read.'] : [],
    };
  }
}
