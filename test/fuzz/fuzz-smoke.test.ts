/**
 * A short run of `npm run fuzz`: the script starts a real service, drives mutated corpus messages of every standard
 * through the bridge's routes and ends with one JSON line of figures. No input may get a 5xx, crash the service or
 * go unanswered. Without the shared corpus the script prints a notice and fuzzes nothing, and so does this test.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../kernel/config-loader.ts';
import { corpusDir } from '../helpers/shared-corpus.ts';

const COUNT = 150;

function runFuzzScript(args: string[]): Promise<{ code: number | null; output: string }> {
  const tsxLoader = pathToFileURL(join(projectRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', tsxLoader, join(projectRoot, 'fuzz', 'run.ts'), ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('npm run fuzz (smoke run)', () => {
  const standards = (['hl7', 'fhir', 'ncpdp'] as const).filter((standard) => corpusDir(standard === 'hl7' ? 'hl7v2' : standard));

  it.skipIf(standards.length === 0)(`${COUNT} mutated inputs per standard: no 5xx, no crash, no hang, figures in the last line`, { timeout: 600_000 }, async () => {
    const { code, output } = await runFuzzScript(['--count', String(COUNT), '--seed', '7', '--hang-ms', '30000']);
    const lines = output.trim().split('\n');
    const figures = JSON.parse(lines[lines.length - 1] as string) as Record<string, Record<string, number | Record<string, number>>>;
    expect(Object.keys(figures).sort(), output).toEqual([...standards].sort());
    for (const standard of standards) {
      const f = figures[standard] as Record<string, number>;
      expect(f.requests, standard).toBe(COUNT);
      expect({ standard, serverErrors: f.serverErrors, crashes: f.crashes, hangs: f.hangs, connectionErrors: f.connectionErrors }, output).toEqual({ standard, serverErrors: 0, crashes: 0, hangs: 0, connectionErrors: 0 });
      expect(f.maxMs).toBeGreaterThanOrEqual(f.p999Ms);
      expect(f.peakRssMb).toBeGreaterThan(0);
    }
    expect(code, output).toBe(0);
  });
});
