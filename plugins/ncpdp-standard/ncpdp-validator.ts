/**
 * Validates NCPDP content: parse (a failure is one PARSE_ERROR finding), then the SCRIPT or Telecommunication
 * rules, then the chosen profile. Never throws for bad content.
 */
import { IssueList, type IssueSink } from '../../kernel/standards/issue-list.ts';
import type { ValidationResult } from '../../kernel/standards-registry.ts';
import { looksLikeNcpdpBatch } from './telecom/ncpdp-batch.ts';
import { validateNcpdpBatch } from './telecom/ncpdp-batch-rules.ts';
import { IssueCollector, type NcpdpMode } from './ncpdp-issues.ts';
import { parseNcpdp } from './ncpdp-parser.ts';
import { flattenMessage } from './ncpdp-paths.ts';
import type { NcpdpMessage } from './ncpdp-model.ts';
import { applyNcpdpProfile, type NcpdpProfile } from './ncpdp-profiles.ts';
import { validateScript } from './script/script-rules.ts';
import type { ScriptVersion } from './script/script-definitions.ts';
import { headerValue, validateTelecomD0 } from './telecom/telecom-d0-rules.ts';

/** Options of {@link validateNcpdp} (the adapter has already resolved version and profile). */
export interface NcpdpValidateOptions {
  mode: NcpdpMode;
  /** SCRIPT version to validate against instead of the declared one. */
  scriptVersion?: ScriptVersion;
  profile?: NcpdpProfile;
  /** Most findings listed (kernel/standards/issue-list.ts); every one is counted. */
  maxIssues?: number;
}

/**
 * Validates NCPDP content: one SCRIPT or D.0 message, or a Batch Standard 1.2 file whose detail records are each
 * validated as a D.0 transaction (ncpdp-batch-rules.ts). Findings go to one bounded list.
 */
export function validateNcpdp(content: string, options: NcpdpValidateOptions): ValidationResult {
  const list = new IssueList(options.maxIssues);
  if (looksLikeNcpdpBatch(content)) {
    return validateNcpdpBatch(content, options.mode, list, (transaction, sink) => validateMessage(transaction, options, sink));
  }
  const summary = validateMessage(content, options, list);
  return { isValid: list.errorCount === 0, errors: list.errors, warnings: list.warnings, totals: list.totals(), truncated: list.truncated, summary };
}

/** Validates one NCPDP message, its findings into `sink`; answers the summary. */
function validateMessage(content: string, options: NcpdpValidateOptions, sink: IssueSink): Record<string, unknown> {
  const issues = new IssueCollector(options.mode, sink);
  const parsed = parseNcpdp(content);
  if (!parsed.ok) {
    sink.add(parsed.issue);
    return { mode: options.mode };
  }
  const message = parsed.message;
  let summary: Record<string, unknown>;
  let messageType: string | undefined;
  if (message.format === 'script') {
    const findings = validateScript(message, options.scriptVersion, issues);
    messageType = findings.messageType;
    summary = { format: 'SCRIPT', ...findings };
  } else {
    validateTelecomD0(message, issues);
    messageType = headerValue(message, 'A3') || undefined;
    summary = {
      format: 'Telecommunication',
      version: headerValue(message, 'A2'),
      direction: message.direction,
      messageType,
      transactions: Math.max(1, message.groupCount),
    };
  }
  if (content.includes('\uFFFD')) checkReplacementCharacters(message, issues);
  if (options.profile) {
    applyNcpdpProfile(options.profile, message, messageType, issues);
    summary.profile = options.profile.name;
  }
  summary.mode = options.mode;
  return summary;
}

/**
 * U+FFFD, the replacement character, in values or attributes: a decoder put it where the sender's bytes were not
 * valid in the character set they were read as (UTF-8), so the original characters are lost. One finding names the
 * first place and how many hold one.
 */
function checkReplacementCharacters(message: NcpdpMessage, issues: IssueCollector): void {
  let first: string | undefined;
  let count = 0;
  for (const [path, value] of flattenMessage(message)) {
    if (!value.includes('\uFFFD') && !path.includes('\uFFFD')) continue;
    count++;
    first ??= path;
  }
  if (first === undefined) return;
  const where = count > 1 ? `${first} and ${count - 1} more value(s) hold` : `${first} holds`;
  issues.strictError(
    first,
    'INVALID_ENCODING',
    `${where} U+FFFD, the replacement character: the sender's bytes were not valid in the character set they were read as (UTF-8) and were replaced, so the original characters are lost.`,
  );
}
