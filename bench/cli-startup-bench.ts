/**
 * Start-up of the compiled `workbench` command: `help`, `validate FILE` (one HL7 message) and `generate`, each run
 * end to end as a child process, beside `node -e 0` (the floor: starting Node itself) measured in the same rounds.
 * Runs are interleaved round by round so a load spike hits every command alike; the figure is the median wall time
 * against the issue's ceiling of 500 ms. The build is refreshed first so the figure is the current sources'.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../kernel/project-root.ts';

const ROUNDS = 15;
const CEILING_MS = 500;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Runs the CLI start-up benchmark and returns its figures. */
export async function runCliStartupBench(): Promise<Record<string, number>> {
  const built = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed:\n${built.stderr}`);
  const work = mkdtempSync(join(tmpdir(), 'wb-cli-bench-'));
  try {
    const bin = join(projectRoot, 'bin', 'workbench.js');
    const env = { ...process.env, WORKBENCH_DATA_DIR: join(work, 'data'), WORKBENCH_LOG_LEVEL: 'warn' };
    const message = spawnSync(process.execPath, [bin, 'generate', '--seed', '1'], { env, encoding: 'utf8' });
    if (message.status !== 0) throw new Error(`generate failed:\n${message.stderr}`);
    const file = join(work, 'adt-a01.hl7');
    writeFileSync(file, message.stdout);
    const commands: Array<[name: string, args: string[]]> = [
      ['node -e 0', ['-e', '0']],
      ['workbench help', [bin, 'help']],
      ['workbench validate FILE', [bin, 'validate', file]],
      ['workbench generate', [bin, 'generate']],
    ];
    const times = new Map<string, number[]>(commands.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of commands) {
        const started = process.hrtime.bigint();
        const run = spawnSync(process.execPath, args, { env, encoding: 'utf8', cwd: work });
        const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
        if (run.status !== 0) throw new Error(`${name} exited ${run.status}:\n${run.stderr}`);
        times.get(name)!.push(elapsed);
      }
    }
    const floor = median(times.get('node -e 0')!);
    const figures: Record<string, number> = { nodeMedianMs: Math.round(floor) };
    console.log(`cli start-up, median of ${ROUNDS} interleaved runs (ceiling ${CEILING_MS} ms):`);
    console.log(`  ${'node -e 0'.padEnd(26)} ${floor.toFixed(0).padStart(5)} ms`);
    for (const [name] of commands.slice(1)) {
      const value = median(times.get(name)!);
      const key = name.split(' ')[1];
      figures[`${key}MedianMs`] = Math.round(value);
      figures[`${key}VsNode`] = Number((value / floor).toFixed(2));
      const verdict = value < CEILING_MS ? 'under' : 'OVER';
      console.log(
        `  ${name.padEnd(26)} ${value.toFixed(0).padStart(5)} ms  ${(value / floor).toFixed(2)}x node -e 0  ${verdict} the ceiling (${(value / CEILING_MS).toFixed(2)}x)`,
      );
    }
    return figures;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
