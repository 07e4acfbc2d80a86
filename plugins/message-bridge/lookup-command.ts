/**
 * `workbench lookup PATH [--version V] [--standard S] [--codes N] [--json]`: the field lookup on the command line,
 * answered by the same code as GET /api/lookup. Exit 0 when the path names a field, 1 when the definitions lack it,
 * 2 for bad usage (a path not written in the standard's syntax, an unknown standard or version).
 */
import { parseArgs } from 'node:util';
import type { PluginCommand } from '../../kernel/plugin-api.ts';
import type { StandardsRegistry } from '../../kernel/standards-registry.ts';
import { WorkbenchError } from '../../kernel/errors.ts';
import { DEFAULT_LOOKUP_CODES, type FieldLookup, lookUpField, MAX_LOOKUP_CODES } from './field-lookup.ts';
import { guarded } from './bridge-commands.ts';

/** The lookup as lines a person reads. */
export function formatLookup(found: FieldLookup): string[] {
  const lines = [`${found.path}  ${found.name}  (${found.standard}${found.version ? ` ${found.version}` : ''})`];
  const row = (label: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') lines.push(`  ${label.padEnd(12)} ${value}`);
  };
  row('data type', found.dataType);
  row('optionality', found.optionality);
  row('cardinality', found.cardinality);
  row('length', found.maxLength);
  row('repeats', found.repeatable === undefined ? undefined : found.repeatable ? 'yes' : 'no');
  row('table', [found.table, found.tableName].filter(Boolean).join(' ') || undefined);
  row('about', found.description);
  if (found.codes && found.codes.length > 0) {
    lines.push(`  codes (${found.codes.length} of ${found.codeTotal ?? found.codes.length})`);
    for (const code of found.codes) lines.push(`    ${code.code.padEnd(10)} ${code.display ?? ''}${code.system ? `  (${code.system})` : ''}`.trimEnd());
  }
  if (found.codesNote) lines.push(`  codes: ${found.codesNote}`);
  if (found.children && found.children.length > 0) {
    lines.push(`  holds (${found.children.length})`);
    const width = Math.max(...found.children.map((child) => child.path.length)) + 2;
    for (const child of found.children) {
      lines.push(`    ${child.path.padEnd(width)} ${child.name}${child.dataType ? `  ${child.dataType}` : ''}${child.optionality ? `  ${child.optionality}` : ''}`);
    }
  }
  return lines;
}

/** The `lookup` command over the standards registry. */
export function createLookupCommand(standards: StandardsRegistry): PluginCommand {
  return {
    name: 'lookup',
    run: (args, io) =>
      guarded(io, () => {
        const { values, positionals } = parseArgs({
          args,
          allowPositionals: true,
          options: {
            version: { type: 'string' },
            standard: { type: 'string' },
            codes: { type: 'string', default: String(DEFAULT_LOOKUP_CODES) },
            json: { type: 'boolean', default: false },
          },
        });
        if (positionals.length !== 1) {
          io.err('lookup needs exactly one PATH: PID.5, Patient.birthDate, AM07.D2, NewRx.Patient.HumanPatient.Gender.');
          return 2;
        }
        const maxCodes = Number(values.codes);
        if (!Number.isInteger(maxCodes) || maxCodes < 0 || maxCodes > MAX_LOOKUP_CODES) {
          io.err(`--codes must be a whole number from 0 to ${MAX_LOOKUP_CODES}, not "${values.codes}".`);
          return 2;
        }
        let found: FieldLookup;
        try {
          found = lookUpField(standards, {
            path: positionals[0] as string,
            maxCodes,
            ...(values.standard === undefined ? {} : { standard: values.standard }),
            ...(values.version === undefined ? {} : { version: values.version }),
          });
        } catch (error) {
          if (error instanceof WorkbenchError && error.code === 'NOT_FOUND') {
            io.err(error.message);
            return 1;
          }
          throw error;
        }
        if (values.json) io.out(JSON.stringify(found, null, 2));
        else for (const line of formatLookup(found)) io.out(line);
        return 0;
      }),
  };
}
