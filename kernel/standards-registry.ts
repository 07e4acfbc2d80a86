/**
 * The registry of message-standard adapters (DESIGN.md, "Standard adapters"). The kernel knows nothing of any
 * standard: it only stores adapters that plugins register and hands them to whoever asks by id or by detection.
 */

/** One finding of a validation. */
export interface ValidationIssue {
  /** Where the problem is, in the standard's own path syntax (`PID.5`, `Patient.name[0].family`, `AM07.D2`). */
  field: string;
  /** Stable UPPER_SNAKE code (documented in docs/reference/error-codes.md and the validation guide). */
  code: string;
  /** A sentence a person understands, naming the field. */
  message: string;
  severity: 'error' | 'warning';
  /**
   * What the check wanted, in a few words (kernel/standards/issue-detail.ts): the allowed codes up to a bound, a data type and
   * its format, a cardinality, a declared count. Absent when the check does not know it.
   */
  expected?: string;
  /** The value found, excerpted to about sixty characters (`empty` for a missing value). */
  actual?: string;
}

/** Exact counts of a validation's findings, listed or not. */
export interface IssueTotals {
  errors: number;
  warnings: number;
  /** Findings per code, both severities together. */
  byCode: Record<string, number>;
}

/**
 * Result of validating one message (or a batch: the top level aggregates, `messages` has one entry per message).
 * `errors` and `warnings` list at most `maxIssues` findings together (kernel/standards/issue-list.ts); `totals` counts every
 * one and `truncated` says when some are not listed. `isValid` follows the counts, never the lists.
 */
export interface ValidationResult {
  isValid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  /** Exact counts (adapters fill it; the bridge counts the lists of an adapter that does not). */
  totals?: IssueTotals;
  /** True when findings (or per-message results) were counted but not listed. */
  truncated?: boolean;
  /** Per-message results when the content held more than one message (at most `maxIssues` of them). */
  messages?: Array<MessageValidationResult>;
  /** Facts the adapter found while validating (version, message type, profile used...). */
  summary?: Record<string, unknown>;
}

/** Validation result of one message inside a multi-message input. */
export interface MessageValidationResult {
  index: number;
  messageType?: string;
  controlId?: string;
  isValid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
}

/** One difference between two messages. */
export interface Difference {
  field: string;
  leftValue: string;
  rightValue: string;
  changeType: 'modified' | 'added' | 'removed';
}

/** Exact counts of a diff's differences by change type. */
export interface DifferenceTotals {
  modified: number;
  added: number;
  removed: number;
}

/**
 * Result of a diff: at most `maxDifferences` differences listed, `totalDifferences` and `totals` counting every one,
 * `truncated` when some are not listed.
 */
export interface DiffResult {
  differences: Difference[];
  totalDifferences: number;
  /** Exact counts by change type (adapters fill it; the bridge counts the list of an adapter that does not). */
  totals?: DifferenceTotals;
  truncated?: boolean;
  ignoredFields: string[];
  /**
   * The `ignoredFields` entries that match no path of either message (a typo, most likely); absent when the adapter
   * does not tell, or when the check stopped at its work limit (kernel/lib/paths/pattern-usage.ts).
   */
  unmatchedIgnoredFields?: string[];
}

/** Options of a diff. */
export interface DiffOptions {
  /** Paths to leave out, with wildcards (kernel/lib/paths/path-pattern.ts). */
  ignoredFields: string[];
  /** Most differences listed; 1,000 when absent (`DEFAULT_MAX_ISSUES` of kernel/standards/issue-list.ts). */
  maxDifferences?: number;
}

/** Options of a validation. */
export interface ValidateOptions {
  mode: 'strict' | 'compatibility';
  /** Profile name (as listed by the adapter's `profiles()`), applied on top of the standard. */
  profile?: string;
  /** Version to validate against instead of the one the message declares. */
  version?: string;
  /** Most issues listed (errors and warnings together); 1,000 when absent (`DEFAULT_MAX_ISSUES` of kernel/standards/issue-list.ts). */
  maxIssues?: number;
}

/**
 * Largest generation seed. Seeds are whole numbers from 0 to this (32 bits, what the seeded generators take in):
 * every seed of the range gives its own output, anything else is refused rather than folded onto another seed.
 */
export const MAX_SEED = 4_294_967_295;

/** Options of a generation. */
export interface GenerateOptions {
  messageType: string;
  /** Version of the standard; the adapter's `defaultVersion` when omitted. */
  version?: string;
  count: number;
  /** Same seed, same output, byte for byte; an integer from 0 to {@link MAX_SEED}. */
  seed?: number;
  /**
   * The instant (ms) messages are stamped near: their message time falls in the minute before it, and every other time
   * follows from it. Without it a seeded generation uses the adapter's fixed reference date (reproducible on any day),
   * an unseeded one now; the routes and commands always give one (now, unless the caller names another).
   */
  referenceTimeMs?: number;
}

/** What a path means, for humans and for triage. */
export interface FieldDescription {
  path: string;
  name: string;
  dataType?: string;
  optionality?: string;
  repeatable?: boolean;
  maxLength?: number;
  table?: string;
  description?: string;
  /** With `detail` only: `min..max` occurrences (`0..1`, `1..*`) as the standard counts them. */
  cardinality?: string;
  /** With `detail` only: the table's or value set's own name (`Administrative Sex`). */
  tableName?: string;
  /** With `detail` only: the first codes of the table or value set (at most `detail.maxCodes`). */
  codes?: FieldCode[];
  /** With `detail` only: how many codes the table or value set holds, listed or not. */
  codeTotal?: number;
  /** With `detail` only: why a table or value set named here has no codes listed (not shipped, not expandable). */
  codesNote?: string;
  /** With `detail` only: what the path holds (a segment's fields, a data type's components, an element's children). */
  children?: FieldChild[];
}

/** One code of a table or value set. */
export interface FieldCode {
  code: string;
  display?: string;
  /** The code system, where the standard names one (FHIR). */
  system?: string;
}

/** One part of a described path: a field of a segment, a component of a field, a child element. */
export interface FieldChild {
  /** The child's own path, in the standard's syntax (`PID.5.1`, `Patient.name`). */
  path: string;
  name: string;
  dataType?: string;
  optionality?: string;
}

/** Options of {@link StandardAdapter.describe}. */
export interface DescribeOptions {
  /** Version whose definitions describe the path; the adapter's default when absent. */
  version?: string;
  /**
   * The field lookup's extras: codes (at most `maxCodes`, with their total), children and cardinality. Absent: the
   * short description, cheap enough for per-field callers (triage, de-identification).
   */
  detail?: { maxCodes: number };
}

/** A profile an adapter can validate against. */
export interface ProfileSummary {
  name: string;
  pack: string;
  standard: string;
  description?: string;
  version?: string;
  messageTypes?: string[];
}

/** The verdict of one message read by {@link MessageReading.readMessages}. */
export interface ReadMessageVerdict {
  isValid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
}

/** One message of content read by {@link MessageReading.readMessages}. */
export interface ReadContentMessage {
  /** 0-based position among the messages of the content. */
  index: number;
  /** The message's own text, to validate and keep. */
  raw: string;
  /**
   * What the message says about itself, as plain values under names the reading plugin documents (who sent it,
   * when, what kind, which identifiers). The kernel does not read them; a consumer maps the names it knows.
   */
  facts: Readonly<Record<string, unknown>>;
  /** Absent when `validateHere` said no for it: the caller validates `raw` elsewhere (a worker pool). */
  verdict?: ReadMessageVerdict;
}

/** What reading content found. */
export interface ReadContentResult {
  /** The messages from `firstIndex` on. */
  messages: ReadContentMessage[];
  /** How many messages the content holds, those before `firstIndex` included. */
  messageCount: number;
  /** Problems outside any message (content that is not of the standard, undecodable bytes), as sentences. */
  problems: string[];
}

/** How to read content. */
export interface ReadContentOptions {
  mode: ValidateOptions['mode'];
  /** Profile applied on top of the standard; the adapter's PROFILE_NOT_FOUND error when none has this name. */
  profile?: string;
  /** Messages before this index are left out (already read; default 0). */
  firstIndex?: number;
  /** Which messages to validate here, by the length of their text (default: all). */
  validateHere?: (rawLength: number) => boolean;
}

/**
 * Optional capability of an adapter: reading content (a file of one message, a batch, a stream of lines) into its
 * messages with their facts and verdicts, in one pass. Consumers branch on its presence, never on an adapter's id.
 */
export interface MessageReading {
  /** Glob (picomatch) of the file names this standard's messages usually have (`*.hl7`, `*.{json,ndjson}`). */
  readonly filePattern: string;
  /**
   * Reads content, linear in its size. Never throws for bad content: content holding no message of the standard
   * gives no messages and the problems. Throws the adapter's PROFILE_NOT_FOUND for an unknown profile name.
   */
  readMessages(content: Uint8Array, options: ReadContentOptions): ReadContentResult;
  /**
   * Where the content's whole messages end (optional): the length in bytes of its longest prefix that ends with a
   * whole message (or holds none). Bytes after it are a trailing message its writer may still be writing: no
   * segment terminator after its last byte, a document that stops before its root closes. Cheap (it looks at the
   * content's end), never throws. Absent: every content is whole.
   */
  completeLength?(content: Uint8Array): number;
}

/**
 * The contract every standard plugin implements. Adapters are plain objects: they take strings and return data,
 * and throw {@link WorkbenchError}s (code + status) only for bad requests such as an unknown message type.
 * They must never throw for bad message content: that is a validation finding (`PARSE_ERROR`).
 */
export interface StandardAdapter {
  /** Short id used in requests: `hl7`, `fhir`, `ncpdp`. */
  readonly id: string;
  readonly displayName: string;
  /** Versions this adapter can validate and generate. */
  readonly versions: readonly string[];
  readonly defaultVersion: string;
  /** Other spellings of versions, accepted wherever a version is named (`D.0` -> `D0`). */
  readonly versionAliases?: Readonly<Record<string, string>>;
  /** Message types `generate` accepts; the first is the default. */
  readonly messageTypes: readonly string[];
  /** Confidence 0..1 that the content is of this standard. */
  detect(content: string): number;
  /** A parsed message tree; its shape is the adapter's own. */
  parse(content: string): unknown;
  validate(content: string, options: ValidateOptions): ValidationResult;
  diff(left: string, right: string, options: DiffOptions): DiffResult;
  generate(options: GenerateOptions): string[];
  /** What a path means, or undefined when these definitions do not know it (see {@link DescribeOptions}). */
  describe(path: string, options?: DescribeOptions): FieldDescription | undefined;
  /**
   * Why `path` is not written in this standard's path syntax, as a sentence naming it (with an example of the
   * syntax); undefined when it is (the path may still name nothing). Optional: without it every path is taken as
   * syntactically fine.
   */
  pathProblem?(path: string): string | undefined;
  /** Profiles loaded for this standard. */
  profiles(): ProfileSummary[];
  /** Reading of received content into messages with their facts (optional capability). */
  readonly reading?: MessageReading;
}

/** Holds the registered adapters. */
export class StandardsRegistry {
  private readonly adapters = new Map<string, StandardAdapter>();

  /** Registers an adapter; a second adapter with the same id is refused. */
  register(adapter: StandardAdapter): void {
    if (this.adapters.has(adapter.id)) throw new Error(`A standard adapter with id "${adapter.id}" is already registered.`);
    this.adapters.set(adapter.id, adapter);
  }

  /** The adapter with this id, in any letter case (`HL7` finds `hl7`). */
  get(id: string): StandardAdapter | undefined {
    return this.adapters.get(id) ?? this.adapters.get(id.toLowerCase());
  }

  list(): StandardAdapter[] {
    return [...this.adapters.values()];
  }

  /** The adapter most confident about the content, or undefined when none reaches `threshold`. */
  detect(content: string, threshold = 0.5): StandardAdapter | undefined {
    let best: StandardAdapter | undefined;
    let bestScore = threshold;
    for (const adapter of this.adapters.values()) {
      let score = 0;
      try {
        score = adapter.detect(content);
      } catch {
        score = 0;
      }
      if (score >= bestScore && (best === undefined || score > bestScore)) {
        best = adapter;
        bestScore = score;
      }
    }
    return best;
  }
}
