/** `workbench errors`: every error code the service can answer with, as a table (docs/reference/error-codes.md). */
import type { Workbench } from '../workbench.ts';
import type { CliCommand } from '../plugin-api.ts';
import type { ErrorRegistry } from '../errors.ts';

/** The error catalogue as Markdown rows `| code | status | owner | message |`, sorted by status then code. */
export function errorTableMarkdown(errors: ErrorRegistry): string {
  const rows = errors
    .list()
    .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code))
    .map((row) => `| \`${row.code}\` | ${row.status} | ${row.owner} | ${row.message.replace(/\|/g, '\\|')} |`);
  return ['| code | HTTP status | raised by | message |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** Builds the command; `workbench` gives the booted Workbench when it runs (with every plugin loaded). */
export function createErrorsCommand(workbench: () => Workbench): CliCommand {
  return {
    name: 'errors',
    usage: 'errors',
    summary: 'print every error code with its HTTP status (Markdown table)',
    usesStorage: false,
    async run(_args, io) {
      io.out(errorTableMarkdown(workbench().errors));
      return 0;
    },
  };
}
