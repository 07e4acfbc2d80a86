/**
 * Validates HL7 v2 content: every message of the input against its version (MSH-12, or the version asked for),
 * its message structure and field definitions, and optionally a profile. Collects every issue with a path and a
 * severity (strict or compatibility mode) and never throws for bad content.
 */
import { IssueList, IssuePart } from '../../../kernel/standards/issue-list.ts';
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import type { MessageValidationResult, ValidationIssue, ValidationResult } from '../../../kernel/standards-registry.ts';
import { getHl7Definitions, type Hl7Version, isHl7TableValue, isSupportedVersion, nearestVersion } from '../hl7-definitions.ts';
import { checkBatchEnvelope } from './hl7-envelope-check.ts';
import { checkSegmentFields } from './hl7-field-check.ts';
import { describeField, Hl7IssueCollector, type Hl7ValidationMode } from './hl7-issue-messages.ts';
import type { Hl7Segment } from '../hl7-model.ts';
import { type Hl7ParsedMessage, type Hl7ParseResult, parseHl7 } from '../parsing/hl7-parser.ts';
import { isFieldEmpty } from '../hl7-path.ts';
import { checkProfile } from '../profiles/hl7-profile-check.ts';
import { findReplacementCharacters } from '../parsing/hl7-replacement-characters.ts';
import type { Hl7Profile } from '../profiles/hl7-profiles.ts';
import { checkMessageStructure, compileStructure } from './hl7-structure-check.ts';

/** Options of an HL7 v2 validation. */
export interface Hl7ValidateOptions {
  mode: Hl7ValidationMode;
  /** Validate against this version instead of MSH-12 (must be supported; the adapter checks). */
  version?: Hl7Version;
  /** Resolved profile to apply on top of the standard. */
  profile?: Hl7Profile;
  /** Most issues listed (kernel/standards/issue-list.ts); every one is counted. */
  maxIssues?: number;
}

/** Facts about one validated message. */
interface MessageFacts {
  messageType?: string;
  controlId?: string;
  version?: string;
  validatedAgainst?: string;
  structure?: string;
}

function first(segment: Hl7Segment | undefined, field: number, component = 1): string {
  return segment?.fields[field]?.[0]?.[component - 1]?.[0] ?? '';
}

/**
 * Paths of segment occurrences: `OBX[2]` for segments that may repeat or occur more than once, `PID` otherwise.
 * Paths are wanted only for issues, so the occurrence counts are taken on the first call, not for every message.
 */
function createPathOf(segments: Hl7Segment[], repeatable: ReadonlySet<string>): (segment: Hl7Segment) => string {
  let counts: Map<string, number> | undefined;
  let occurrence: Map<Hl7Segment, number> | undefined;
  return (segment) => {
    if (segment.name === 'MSH') return 'MSH';
    if (!counts || !occurrence) {
      counts = new Map();
      occurrence = new Map();
      for (const each of segments) {
        const n = (counts.get(each.name) ?? 0) + 1;
        counts.set(each.name, n);
        occurrence.set(each, n);
      }
    }
    const n = occurrence.get(segment) ?? 1;
    return repeatable.has(segment.name) || (counts.get(segment.name) ?? 1) > 1 ? `${segment.name}[${n}]` : segment.name;
  };
}

/** No segment is repeatable when the message structure is unknown. */
const NOTHING_REPEATABLE: ReadonlySet<string> = new Set();

/** Without a profile, no segment outside the structure is allowed. */
const NO_EXTRA_SEGMENTS = (_name: string) => false;

/**
 * Reports U+FFFD in a message's fields, unless the parser already reported the bytes it could not decode: the
 * characters were replaced before the message reached the validator, so the sender's bytes were not valid in the
 * character set they were read as.
 */
function checkReplacementCharacters(message: Hl7ParsedMessage, msh: Hl7Segment, pathOf: (segment: Hl7Segment) => string, issues: Hl7IssueCollector): void {
  const found = findReplacementCharacters(message.raw, message.segments, pathOf);
  if (!found) return;
  const declared = first(msh, 18);
  const charset = declared
    ? `the character set they were read as (MSH.18 declares "${declared.slice(0, 40)}")`
    : 'UTF-8 (the character set of a message whose MSH.18 is empty)';
  const where = found.fieldCount > 1 ? `${found.firstField} and ${found.fieldCount - 1} more field(s) hold` : `${found.firstField} holds`;
  issues.add(
    'INVALID_ENCODING',
    found.firstField,
    `${where} U+FFFD, the replacement character: the sender's bytes were not valid in ${charset} and were replaced, so the original characters are lost.`,
  );
}

/**
 * Validates one parsed message; its issues go to `part` (of the whole result's bounded list). `decodingFailed`: the
 * parser already reported bytes it could not decode.
 */
export function validateHl7Message(
  message: Hl7ParsedMessage,
  options: Hl7ValidateOptions,
  part?: IssuePart,
  decodingFailed = false,
): MessageValidationResult & { facts: MessageFacts } {
  const issues = new Hl7IssueCollector(options.mode, part, options.profile !== undefined);
  const facts: MessageFacts = {};
  for (const problem of message.problems) {
    const field = problem.field ?? `line ${problem.line}`;
    issues.add(problem.code, field, problem.message, problem.tolerable);
  }
  const msh = message.segments[0];
  if (msh?.name !== 'MSH') {
    issues.add('PARSE_ERROR', 'MSH', 'The message has no MSH segment.');
    return { index: message.index, isValid: false, errors: issues.errors, warnings: issues.warnings, facts };
  }
  // The length test spares the usual problem-free message a predicate closure.
  if (message.problems.length > 0 && message.problems.some((p) => p.field === 'MSH.1')) {
    return { index: message.index, isValid: false, errors: issues.errors, warnings: issues.warnings, facts };
  }
  const code = first(msh, 9, 1);
  const trigger = first(msh, 9, 2);
  const declaredStructure = first(msh, 9, 3);
  const declaredVersion = first(msh, 12, 1);
  // Facts repeat input in the result (and in every per-message entry): excerpts only.
  facts.controlId = excerpt(first(msh, 10)) || undefined;
  facts.version = excerpt(declaredVersion) || undefined;

  // Version: the one asked for, else MSH-12; an unknown one is validated against the nearest known version.
  let version: Hl7Version;
  if (options.version) version = options.version;
  else if (declaredVersion && isSupportedVersion(declaredVersion)) version = declaredVersion;
  else {
    version = nearestVersion(declaredVersion || '2.3');
    if (declaredVersion) {
      issues.add(
        'UNSUPPORTED_VERSION',
        'MSH.12',
        `MSH.12 (Version ID) "${excerpt(declaredVersion)}" is not a supported HL7 version; the message was validated against v${version}.`,
      );
    }
  }
  facts.validatedAgainst = version;
  const definitions = getHl7Definitions(version);
  const messageType = excerpt(trigger ? `${code}^${trigger}` : code);
  facts.messageType = messageType || undefined;
  const label = `${messageType || 'the message'} v${version}`;

  let structure: ReturnType<typeof definitions.resolveMessage>['structure'];
  if (code === '') {
    // An empty MSH-9 is reported by the field check (it is required); a filled one without a code is broken here.
    if (!isFieldEmpty(msh.fields[9])) {
      issues.add('MSH_INVALID', 'MSH.9', `${describeField('MSH.9.1', 'Message Code')} is empty, so the message type cannot be determined.`);
    }
  } else {
    const resolution = definitions.resolveMessage(code, trigger, declaredStructure);
    structure = resolution.structure;
    facts.structure = structure?.id;
    if (!structure) {
      const why = !resolution.knownCode
        ? `message code "${excerpt(code)}" is not in HL7 table 0076`
        : trigger && !resolution.knownTrigger
          ? `trigger event "${excerpt(trigger)}" is not in HL7 table 0003`
          : `v${version} defines no message structure for it`;
      issues.add('UNKNOWN_MESSAGE_TYPE', 'MSH.9', `MSH.9 (Message Type) ${messageType} is not a known message type of HL7 v${version}: ${why}.`);
    } else if (declaredStructure && !definitions.structure(declaredStructure) && isHl7TableValue('0354', declaredStructure) === false) {
      issues.add(
        'UNKNOWN_MESSAGE_TYPE',
        'MSH.9.3',
        `MSH.9.3 (Message Structure) "${excerpt(declaredStructure)}" is not a message structure of HL7 table 0354; ${messageType} was validated as ${structure.id}.`,
        // The event already identifies the structure; a wrong third component does not change how the message reads.
        true,
      );
    }
  }

  const profile = options.profile;
  const repeatable = structure ? compileStructure(structure).repeatable : NOTHING_REPEATABLE;
  const pathOf = createPathOf(message.segments, repeatable);
  if (structure) {
    checkMessageStructure({
      segments: message.segments,
      structure,
      label,
      pathOf,
      allowedExtra: profile ? (name) => profile.zSegments.has(name) : NO_EXTRA_SEGMENTS,
      issues,
    });
  }
  const ctx = { definitions, issues, label, pathOf };
  for (let i = 0; i < message.segments.length; i++) {
    const segment = message.segments[i] as Hl7Segment;
    const def = definitions.segment(segment.name);
    if (def) checkSegmentFields(ctx, segment, def);
    else {
      const zSegment = profile?.zSegments.get(segment.name);
      if (zSegment) checkSegmentFields(ctx, segment, zSegment, true);
    }
  }
  if (profile) checkProfile({ profile, message, issues, label, pathOf, definitions });
  if (!decodingFailed) checkReplacementCharacters(message, msh, pathOf, issues);
  return { index: message.index, messageType: facts.messageType, controlId: facts.controlId, isValid: issues.errorCount === 0, errors: issues.errors, warnings: issues.warnings, facts };
}

/** An issue of message `index` (0-based) as the top level of a multi-message result lists it. */
function prefixed(issue: ValidationIssue, index: number): ValidationIssue {
  return { ...issue, field: `message[${index + 1}].${issue.field}`, message: `Message ${index + 1}: ${issue.message}` };
}

/**
 * Validates content (one or more messages, batches included). With several messages, `messages` holds each
 * message's result and the top level aggregates them with `message[n].` path prefixes.
 */
export function validateHl7(content: string | Uint8Array | Hl7ParseResult, options: Hl7ValidateOptions): ValidationResult {
  try {
    return validateContent(content, options);
  } catch (error) {
    // A defect of the validator must still come back as a finding, never as an exception to the caller.
    const reason = error instanceof Error ? error.message : String(error);
    const issue: ValidationIssue = { field: 'message', code: 'PARSE_ERROR', severity: 'error', message: `The content could not be validated: ${excerpt(reason)}.` };
    return {
      isValid: false,
      errors: [issue],
      warnings: [],
      totals: { errors: 1, warnings: 0, byCode: { PARSE_ERROR: 1 } },
      truncated: false,
      summary: { mode: options.mode },
    };
  }
}

/** The version a batch envelope is read as: the first message's MSH-12 when supported, else the nearest. */
function envelopeVersionOf(parsed: Hl7ParseResult): Hl7Version {
  const declared = first(parsed.messages[0]?.segments[0], 12, 1);
  return declared && isSupportedVersion(declared) ? declared : nearestVersion(declared || '2.5');
}

function validateContent(content: string | Uint8Array | Hl7ParseResult, options: Hl7ValidateOptions): ValidationResult {
  const parsed = typeof content === 'string' || content instanceof Uint8Array ? parseHl7(content) : content;
  // Every issue of every message goes through one bounded list: counted exactly, listed while there is room.
  const list = new IssueList(options.maxIssues);
  const outside = new Hl7IssueCollector(options.mode, new IssuePart(list, { listed: false }));
  for (const problem of parsed.problems) {
    if (problem.messageIndex !== undefined) continue;
    // Text between messages (comments, separators) does not change any message; compatibility mode tolerates it.
    const tolerable = parsed.messages.length > 0 && problem.tolerable !== false;
    outside.add(problem.code, problem.field ?? `line ${problem.line}`, problem.message, tolerable);
  }
  const single = parsed.messages.length === 1;
  // Per-message entries, for input of several messages: at most as many as issues may be listed.
  const entries: MessageValidationResult[] = [];
  let firstFacts: MessageFacts | undefined;
  for (const message of parsed.messages) {
    const keepEntry = !single && entries.length < list.limit;
    const part = single
      ? new IssuePart(list, { listed: false })
      : new IssuePart(list, { asReported: (issue) => prefixed(issue, message.index), listed: keepEntry });
    const { facts, ...entry } = validateHl7Message(message, options, part, parsed.decodingFailed === true);
    firstFacts ??= facts;
    if (keepEntry) entries.push(entry);
  }
  const envelopeVersion = options.version ?? envelopeVersionOf(parsed);
  checkBatchEnvelope(parsed.envelope, parsed.messages.length, {
    definitions: getHl7Definitions(envelopeVersion),
    issues: outside,
    label: `v${envelopeVersion}`,
  });
  const validation: ValidationResult = {
    isValid: list.errorCount === 0,
    errors: list.errors,
    warnings: list.warnings,
    totals: list.totals(),
    truncated: list.truncated || entries.length < (single ? 0 : parsed.messages.length),
    summary: {
      messageCount: parsed.messages.length,
      mode: options.mode,
      charset: parsed.charset,
      ...(firstFacts ?? {}),
      ...(options.profile ? { profile: options.profile.name } : {}),
    },
  };
  if (!single && parsed.messages.length > 0) validation.messages = entries;
  return validation;
}
