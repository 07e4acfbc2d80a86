/**
 * `workbench deidentify FILE|DIR... --out DIR`: writes a de-identified copy of every message file (folders read
 * recursively, hidden entries skipped) under DIR with the same relative name, and prints one report line per file.
 * Exit 0 when every file was de-identified, 1 when some could not be (unknown standard), 2 for usage problems.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import type { PluginCommand } from '../../kernel/plugin-api.ts';
import { WorkbenchError } from '../../kernel/errors.ts';
import type { DeidentifyService } from './api.ts';

/** Every file under `input` (or `input` itself) with the name it gets under the output folder. */
function filesOf(input: string): Array<{ file: string; name: string }> {
  const stats = statSync(input);
  if (!stats.isDirectory()) return [{ file: input, name: basename(input) }];
  const found: Array<{ file: string; name: string }> = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) found.push({ file: path, name: join(basename(input), relative(input, path)) });
    }
  };
  walk(input);
  return found;
}

/** Builds the command over the service. */
export function createDeidentifyCommand(service: DeidentifyService): PluginCommand {
  return {
    name: 'deidentify',
    async run(args, io) {
      let parsed;
      try {
        parsed = parseArgs({
          args,
          allowPositionals: true,
          options: { out: { type: 'string' }, standard: { type: 'string' }, json: { type: 'boolean', default: false } },
        });
      } catch (error) {
        io.err((error as Error).message);
        return 2;
      }
      const { values, positionals } = parsed;
      if (positionals.length === 0 || !values.out) {
        io.err('deidentify needs at least one FILE or DIR and --out DIR.');
        return 2;
      }
      const out = resolve(values.out);
      const inputs: Array<{ file: string; name: string }> = [];
      for (const input of positionals) {
        const absolute = resolve(input);
        // Writing into the folder being read would overwrite originals with their de-identified copies.
        if (out === absolute || out.startsWith(absolute + sep)) {
          io.err(`--out ${values.out} is inside ${input}: choose a folder outside the input so no original is overwritten.`);
          return 2;
        }
        try {
          inputs.push(...filesOf(absolute));
        } catch (error) {
          io.err(`${input}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
          return 2;
        }
      }
      let failed = 0;
      for (const { file, name } of inputs) {
        const target = join(out, name);
        try {
          const result = service.deidentify(readFileSync(file, 'utf8'), values.standard, file);
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, result.messageContent, { mode: 0o600 });
          if (values.json) io.out(JSON.stringify({ file, output: target, standard: result.standard, report: result.report }));
          else {
            const kinds = Object.entries(result.report.byKind).map(([kind, count]) => `${kind} ${count}`).join(', ');
            io.out(`${file} -> ${target}: ${result.report.total} replaced (${kinds || 'nothing identifying found'})`);
          }
        } catch (error) {
          if (!(error instanceof WorkbenchError)) throw error;
          failed++;
          io.err(`${file}: ${error.message}`);
        }
      }
      return failed > 0 ? 1 : 0;
    },
  };
}
