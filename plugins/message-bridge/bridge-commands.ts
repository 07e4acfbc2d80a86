/**
 * CLI commands of the bridge: `workbench validate FILE...` (exit code 1 when any message is invalid, for CI
 * pipelines), `workbench diff LEFT RIGHT`, `workbench generate`.
 */
import { parseArgs } from 'node:util';
import type { PluginCommand } from '../../kernel/plugin-api.ts';
import { MAX_SEED, type StandardAdapter, type StandardsRegistry, type ValidationIssue } from '../../kernel/standards-registry.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { WorkbenchError } from '../../kernel/errors.ts';
import { withDifferenceTotals, withIssueTotals } from '../../kernel/standards/issue-list.ts';
import type { BridgeConfig } from './bridge-config.ts';
import { adapterForGeneration, canonicalVersion, generationVersion, selectAdapter, selectDiffAdapter } from './standard-selection.ts';
import { UnreadableFileError, formatGenerated, readMessageFile, splitNdjson } from './message-files.ts';
import { JOURNEY_CLI_OPTIONS, runJourneyCommand, wantsScenario } from './journey-command.ts';

function formatIssue(issue: ValidationIssue): string {
  const wanted = [issue.expected === undefined ? '' : `expected ${issue.expected}`, issue.actual === undefined ? '' : `found ${issue.actual}`];
  const detail = wanted.filter((part) => part !== '').join(', ');
  return `  ${issue.severity === 'error' ? 'ERROR  ' : 'warning'} ${issue.field.padEnd(14)} ${issue.code}: ${issue.message}${detail ? ` (${detail})` : ''}`;
}

/** The details of a request error as lines (what the API sends in `error.details`), e.g. the supported types. */
export function detailLines(details: unknown): string[] {
  if (details === undefined || details === null) return [];
  if (Array.isArray(details)) {
    return details.map((item) => {
      if (typeof item !== 'object' || item === null) return `  ${String(item)}`;
      const { path, message } = item as { path?: unknown; message?: unknown };
      return path !== undefined && message !== undefined ? `  ${String(path)}: ${String(message)}` : `  ${JSON.stringify(item)}`;
    });
  }
  if (typeof details === 'object') {
    return Object.entries(details as Record<string, unknown>).map(
      ([key, value]) => `  ${key}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    );
  }
  return [`  ${String(details)}`];
}

/** Runs a command body (any bridge command), turning request errors and unreadable files into a message (with details) and exit code 2. */
export async function guarded(io: { err(text: string): void }, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof WorkbenchError) {
      io.err([error.message, ...detailLines(error.details)].join('\n'));
      return 2;
    }
    if (error instanceof UnreadableFileError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err((error as Error).message);
      return 2;
    }
    throw error;
  }
}

/** The last line of `validate` over several files: `47 files, 2 valid, 45 invalid` (and what could not be read). */
function summaryLine(files: number, tally: { valid: number; invalid: number; unrecognised: number; unreadable: number }): string {
  const parts = [`${files} files`, `${tally.valid} valid`, `${tally.invalid + tally.unrecognised} invalid`];
  if (tally.unrecognised > 0) parts.push(`${tally.unrecognised} of them without a recognisable message`);
  if (tally.unreadable > 0) parts.push(`${tally.unreadable} unreadable`);
  return parts.join(', ');
}

/** Builds the bridge's commands over the standards registry (lists bounded as the config says). */
export function createBridgeCommands(standards: StandardsRegistry, config: BridgeConfig): PluginCommand[] {
  return [
    {
      name: 'validate',
      run: (args, io) =>
        guarded(io, () => {
          const { values, positionals } = parseArgs({
            args,
            allowPositionals: true,
            options: {
              mode: { type: 'string', default: 'strict' },
              profile: { type: 'string' },
              version: { type: 'string' },
              standard: { type: 'string' },
              json: { type: 'boolean', default: false },
            },
          });
          if (positionals.length === 0) {
            io.err('validate needs at least one FILE.');
            return 2;
          }
          if (values.mode !== 'strict' && values.mode !== 'compatibility') {
            io.err(`--mode must be strict or compatibility, not "${excerpt(values.mode)}".`);
            return 2;
          }
          const mode = values.mode;
          let anyInvalid = false;
          let unreadable = false;
          // Per file: valid when every message in it is, invalid otherwise (or when it holds no recognisable message).
          const tally = { valid: 0, invalid: 0, unrecognised: 0, unreadable: 0 };
          const reports: unknown[] = [];
          for (const file of positionals) {
            let content: string;
            try {
              content = readMessageFile(file);
            } catch (error) {
              if (!(error instanceof UnreadableFileError)) throw error;
              io.err(error.message);
              unreadable = true;
              tally.unreadable++;
              continue;
            }
            // An NDJSON file (what `generate` writes for JSON standards) holds one message per line.
            const lines = splitNdjson(content);
            const messages = lines ?? [{ line: undefined, message: content }];
            let fileValid = true;
            let fileRecognised = true;
            for (const { line, message } of messages) {
              const name = line === undefined ? file : `${file}:${line}`;
              let adapter: StandardAdapter;
              try {
                adapter = selectAdapter(standards, values.standard, message, name);
              } catch (error) {
                // A file that was read but holds no message of any standard is an invalid input (1), not bad usage (2).
                if (!(error instanceof WorkbenchError) || error.code !== 'STANDARD_NOT_DETECTED') throw error;
                anyInvalid = true;
                fileRecognised = false;
                if (values.json) reports.push({ file, ...(line === undefined ? {} : { line }), isValid: false, error: { code: error.code, message: error.message } });
                else io.out(`${name}: INVALID (no recognisable message: ${error.message})`);
                continue;
              }
              const result = withIssueTotals(
                adapter.validate(message, {
                  mode,
                  maxIssues: config.maxIssues,
                  ...(values.profile ? { profile: values.profile } : {}),
                  ...(values.version ? { version: canonicalVersion(adapter, values.version) } : {}),
                }),
                config.maxIssues,
              );
              anyInvalid ||= !result.isValid;
              fileValid &&= result.isValid;
              if (values.json) {
                reports.push({ file, ...(line === undefined ? {} : { line }), standard: adapter.id, ...result });
                continue;
              }
              const verdict = result.isValid ? 'valid' : 'INVALID';
              const totals = result.totals ?? { errors: result.errors.length, warnings: result.warnings.length };
              io.out(`${name}: ${verdict} (${adapter.displayName}, ${mode}; ${totals.errors} error(s), ${totals.warnings} warning(s))`);
              for (const issue of [...result.errors, ...result.warnings]) io.out(formatIssue(issue));
              const unlisted = totals.errors + totals.warnings - result.errors.length - result.warnings.length;
              if (unlisted > 0) io.out(`  ... and ${unlisted} more issue(s) not listed (plugins.message-bridge.maxIssues is ${config.maxIssues})`);
            }
            if (!fileRecognised) tally.unrecognised++;
            else if (fileValid) tally.valid++;
            else tally.invalid++;
          }
          if (values.json) io.out(JSON.stringify(reports, null, 2));
          else if (positionals.length > 1) io.out(summaryLine(positionals.length, tally));
          // A file that cannot be read is a usage problem (2), which outranks an invalid message (1).
          return unreadable ? 2 : anyInvalid ? 1 : 0;
        }),
    },
    {
      name: 'diff',
      run: (args, io) =>
        guarded(io, () => {
          const { values, positionals } = parseArgs({
            args,
            allowPositionals: true,
            options: {
              ignore: { type: 'string', multiple: true, default: [] },
              standard: { type: 'string' },
              json: { type: 'boolean', default: false },
            },
          });
          if (positionals.length !== 2) {
            io.err('diff needs exactly two files: LEFT RIGHT.');
            return 2;
          }
          const [leftFile, rightFile] = positionals as [string, string];
          const [left, right] = [readMessageFile(leftFile), readMessageFile(rightFile)];
          const adapter = selectDiffAdapter(standards, values.standard, left, right, { left: `LEFT (${leftFile})`, right: `RIGHT (${rightFile})` });
          const result = withDifferenceTotals(
            adapter.diff(left, right, { ignoredFields: values.ignore, maxDifferences: config.maxDifferences }),
            config.maxDifferences,
          );
          if (values.json) io.out(JSON.stringify(result, null, 2));
          else {
            io.out(`${result.totalDifferences} difference(s)`);
            for (const d of result.differences) {
              io.out(`  ${d.changeType.padEnd(8)} ${d.field.padEnd(16)} ${JSON.stringify(d.leftValue)} -> ${JSON.stringify(d.rightValue)}`);
            }
            const unlisted = result.totalDifferences - result.differences.length;
            if (unlisted > 0) io.out(`  ... and ${unlisted} more difference(s) not listed (plugins.message-bridge.maxDifferences is ${config.maxDifferences})`);
          }
          // a pattern that matches nothing is most likely a typo: said on stderr, so the output stays the diff
          for (const pattern of result.unmatchedIgnoredFields ?? []) {
            io.err(`warning: --ignore ${JSON.stringify(pattern)} matches no path of either message`);
          }
          return result.totalDifferences > 0 ? 1 : 0;
        }),
    },
    {
      name: 'generate',
      run: (args, io) =>
        guarded(io, () => {
          const { values } = parseArgs({
            args,
            options: {
              type: { type: 'string' },
              version: { type: 'string' },
              count: { type: 'string', default: '1' },
              seed: { type: 'string' },
              standard: { type: 'string' },
              'reference-time': { type: 'string' },
              ...JOURNEY_CLI_OPTIONS,
            },
          });
          const count = Number(values.count);
          if (!Number.isInteger(count) || count < 1 || count > 100) {
            io.err(`--count must be an integer from 1 to 100, not "${excerpt(values.count)}".`);
            return 2;
          }
          const seed = values.seed === undefined ? undefined : Number(values.seed);
          if (seed !== undefined && (values.seed?.trim() === '' || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED)) {
            io.err(`--seed must be a whole number from 0 to ${MAX_SEED}, not "${excerpt(values.seed ?? '')}".`);
            return 2;
          }
          const referenceTime = values['reference-time'];
          const referenceTimeMs = referenceTime === undefined ? Date.now() : Date.parse(referenceTime);
          if (!Number.isFinite(referenceTimeMs)) {
            io.err(`--reference-time must be an ISO 8601 instant such as 2026-03-02T08:00:00Z, not "${excerpt(referenceTime ?? '')}".`);
            return 2;
          }
          if (wantsScenario(values)) {
            if (referenceTime !== undefined) {
              io.err('A scenario is placed in time by --start (its first step), not --reference-time.');
              return 2;
            }
            return runJourneyCommand(standards, { ...values, seed }, io);
          }
          const adapter = adapterForGeneration(standards, values.standard, values.type);
          const version = generationVersion(adapter, values.version, undefined);
          const messages = adapter.generate({
            messageType: values.type ?? adapter.messageTypes[0],
            ...(version === undefined ? {} : { version }),
            count,
            ...(seed === undefined ? {} : { seed }),
            // stamped near now unless --reference-time names the instant: generated data is read as fresh
            referenceTimeMs,
          });
          io.out(formatGenerated(messages));
          return 0;
        }),
    },
  ];
}
