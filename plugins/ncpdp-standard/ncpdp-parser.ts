/**
 * Parses NCPDP content of either family: SCRIPT XML through the safe XML reader, Telecommunication D.0 through the
 * framing reader. Content of neither family is a PARSE_ERROR finding, never an exception.
 */
import type { ValidationIssue } from '../../kernel/standards-registry.ts';
import type { NcpdpMessage } from './ncpdp-model.ts';
import { detectNcpdpFormat } from './ncpdp-detect.ts';
import { parseErrorIssue } from './ncpdp-issues.ts';
import { parseScriptXml } from './script/script-xml-parser.ts';
import { firstSeparatorIndex, parseTelecomD0 } from './telecom/telecom-d0-parser.ts';

/** Outcome of parsing: the message tree, or the PARSE_ERROR finding that stopped it. */
export type NcpdpParseOutcome = { ok: true; message: NcpdpMessage } | { ok: false; issue: ValidationIssue };

/** Parses SCRIPT or Telecommunication content; never throws for bad content. */
export function parseNcpdp(content: string): NcpdpParseOutcome {
  const trimmed = content.replace(/^\ufeff/, '').trimStart();
  if (trimmed === '') return { ok: false, issue: parseErrorIssue('Message', 'The content is empty.') };
  const { format } = detectNcpdpFormat(content);
  if (format === 'telecom' || (format === undefined && !trimmed.startsWith('<') && firstSeparatorIndex(trimmed) !== -1)) {
    const outcome = parseTelecomD0(content);
    return outcome.ok ? { ok: true, message: outcome.message } : outcome;
  }
  if (trimmed.startsWith('<')) {
    const outcome = parseScriptXml(content);
    return outcome.ok ? { ok: true, message: outcome.document } : outcome;
  }
  return {
    ok: false,
    issue: parseErrorIssue('Message', 'The content is neither SCRIPT XML (a Message element) nor a Telecommunication D.0 transmission (header and 0x1C/0x1E separators).'),
  };
}
