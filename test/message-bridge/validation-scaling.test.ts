/**
 * Validation time grows linearly with the size of a message: doubling the growing part (segments, fields,
 * repetitions, OBX count, messages of a batch, Bundle entries, repeated FHIR elements, SCRIPT elements, batch claims)
 * at most about doubles the time, for every standard, with and without a profile. A check that rescans what it has
 * already seen (issue de-duplication, profile rules, structure matching) shows up here as a ratio near 4.
 *
 * The measurements run in a process of their own with a fixed young generation (test/helpers/validation-scaling.ts
 * says how they stay robust on a loaded machine); this file starts it once and judges each case as its line comes.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../kernel/config-loader.ts';
import { SCALING_LIMIT, SCALING_NODE_FLAGS, type ScalingResult, scalingCases } from '../helpers/validation-scaling.ts';

const cases = scalingCases();
const results = new Map<string, { promise: Promise<ScalingResult>; resolve: (result: ScalingResult) => void; reject: (error: Error) => void }>();
for (const c of cases) {
  let resolve!: (result: ScalingResult) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<ScalingResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A case whose line never comes fails its own test; nothing else waits on the promise.
  promise.catch(() => undefined);
  results.set(c.name, { promise, resolve, reject });
}

const tsxLoader = pathToFileURL(join(projectRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const child = spawn(process.execPath, [...SCALING_NODE_FLAGS, '--import', tsxLoader, join(projectRoot, 'test', 'helpers', 'validation-scaling.ts')], {
  cwd: projectRoot,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let pending = '';
let errors = '';
child.stdout.on('data', (chunk: Buffer) => {
  pending += chunk.toString();
  let newline = pending.indexOf('\n');
  while (newline !== -1) {
    const result = JSON.parse(pending.slice(0, newline)) as ScalingResult;
    results.get(result.name)?.resolve(result);
    pending = pending.slice(newline + 1);
    newline = pending.indexOf('\n');
  }
});
child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
child.on('exit', (code) => {
  for (const entry of results.values()) entry.reject(new Error(`the measuring process ended (exit code ${code}) before this case: ${errors.slice(-2000)}`));
});
afterAll(() => {
  child.kill('SIGKILL');
});

describe('validation time grows linearly with message size', () => {
  for (const c of cases) {
    it(`${c.name}: at most ${SCALING_LIMIT}x the time`, { timeout: 600_000 }, async () => {
      const result = await (results.get(c.name) as { promise: Promise<ScalingResult> }).promise;
      console.info(`[figure] ${c.name}: ${result.count} -> ${2 * result.count}, time x${result.ratio.toFixed(2)}`);
      expect(result.ratio, `ratios ${result.ratios.map((r) => r.toFixed(2)).join(', ')} at ${result.count} and ${2 * result.count}`).toBeLessThanOrEqual(SCALING_LIMIT);
    });
  }
});
