/**
 * `workbench deidentify FILE|DIR... --out DIR`: writes a de-identified copy of every message file (folders read
 * recursively, hidden entries skipped) under DIR with the same relative name, and prints one report line per file. An
 * NDJSON file (what `workbench generate` writes for FHIR, and `validate` reads) is de-identified line by line and
 * written back as NDJSON, its report the sum of its lines'.
 * Exit 0 when every file was de-identified, 1 when some could not be (unknown standard), 2 for usage problems.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import type { PluginCommand } from '../../kernel/plugin-api.ts';
import { WorkbenchError } from '../../kernel/errors.ts';
import { splitNdjson } from '../../kernel/lib/text/ndjson.ts';
import type { DeidentificationReport, DeidentifyResult, DeidentifyService } from './api.ts';

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

/** The reports of several messages as one: replacements summed by path and kind, notes kept once. */
function sumReports(reports: DeidentificationReport[]): DeidentificationReport {
  const entries = new Map<string, DeidentificationReport['replacements'][number]>();
  const byKind: DeidentificationReport['byKind'] = {};
  const notes = new Set<string>();
  const redacted = new Set<string>();
  let total = 0;
  for (const report of reports) {
    for (const entry of report.replacements) {
      const key = `${entry.path}\u0000${entry.kind}`;
      const summed = entries.get(key);
      if (summed) summed.count += entry.count;
      else entries.set(key, { ...entry });
    }
    for (const [kind, count] of Object.entries(report.byKind) as Array<[keyof typeof byKind, number]>) {
      byKind[kind] = (byKind[kind] ?? 0) + count;
    }
    for (const note of report.notes) notes.add(note);
    for (const path of report.redacted) redacted.add(path);
    total += report.total;
  }
  return { replacements: [...entries.values()], byKind, total, notes: [...notes], redacted: [...redacted].sort() };
}

/** One file de-identified: an NDJSON file line by line (each line named `FILE:LINE` in errors), any other whole. */
function deidentifyFile(service: DeidentifyService, file: string, standard: string | undefined): DeidentifyResult {
  const content = readFileSync(file, 'utf8');
  const lines = splitNdjson(content);
  if (!lines) return service.deidentify(content, standard, file);
  const results = lines.map(({ line, message }) => service.deidentify(message, standard, `${file}:${line}`));
  return {
    standard: results[0]!.standard,
    // one line per message whatever layout the engine answers in
    messageContent: `${results.map((result) => JSON.stringify(JSON.parse(result.messageContent))).join('\n')}\n`,
    report: sumReports(results.map((result) => result.report)),
    needles: [...new Set(results.flatMap((result) => result.needles))],
  };
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
          const result = deidentifyFile(service, file, values.standard);
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
