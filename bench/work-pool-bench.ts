/**
 * In-process versus worker pool, by message size: the time of one strict validation of an HL7 ORU^R01 and a FHIR
 * Bundle run on the calling thread beside the same validation handed to a warm pool worker (a thread hop, a copy of
 * the message, the result copied back), measured in alternating rounds. The ratio pooled/in-process says where the
 * hop stops mattering; below `work.inlineBelowBytes` the service validates in-process, where the time shown is also
 * how long the event loop is blocked.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '../kernel/workbench.ts';
import { resolveService } from '../kernel/service-ref.ts';
import { TOKENS } from '../kernel/tokens.ts';
import { largeMessage, type LargeMessageStandard } from '../test/helpers/large-messages.ts';

const SIZES = [1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576];
const STANDARDS: LargeMessageStandard[] = ['hl7', 'fhir'];

/** Median milliseconds of `work` over rounds lasting at least ~300 ms in all. */
async function medianMs(work: () => Promise<unknown> | unknown, roundsAtLeast: number): Promise<number> {
  const times: number[] = [];
  const deadline = performance.now() + 300;
  while (times.length < roundsAtLeast || performance.now() < deadline) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function label(bytes: number): string {
  return bytes >= 1_048_576 ? `${bytes / 1_048_576} MB` : `${bytes / 1024} KB`;
}

/** Runs the benchmark and returns its figures. */
export async function runWorkPoolBench(): Promise<Record<string, number>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-work-'));
  const workbench = await createWorkbench({
    env: {},
    overrides: {
      dataDir,
      logging: { level: 'warn' },
      servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
      // Every input goes to the pool through the runner; the in-process side calls the adapter directly.
      work: { threads: 1, inlineBelowBytes: 0, timeBudgetMs: 600_000 },
    },
  });
  const figures: Record<string, number> = {};
  try {
    await workbench.start();
    const registry = resolveService(workbench.container, TOKENS.Standards);
    const runner = resolveService(workbench.container, TOKENS.StandardsRunner);
    for (const standard of STANDARDS) {
      const adapter = registry.get(standard);
      if (!adapter) throw new Error(`no ${standard} adapter`);
      const warmUp = largeMessage(standard, 2_048);
      for (let i = 0; i < 50; i++) {
        adapter.validate(warmUp, { mode: 'strict' });
        await runner.validate(adapter, warmUp, { mode: 'strict' });
      }
      for (const size of SIZES) {
        const message = largeMessage(standard, size);
        const rounds = size >= 262_144 ? 5 : 30;
        let inProcess = Number.POSITIVE_INFINITY;
        let pooled = Number.POSITIVE_INFINITY;
        // Alternating rounds, so background load hits both sides alike; the best round of each counts.
        for (let pass = 0; pass < 3; pass++) {
          inProcess = Math.min(inProcess, await medianMs(() => adapter.validate(message, { mode: 'strict' }), rounds));
          pooled = Math.min(pooled, await medianMs(() => runner.validate(adapter, message, { mode: 'strict' }), rounds));
        }
        const ratio = pooled / inProcess;
        console.log(
          `${standard} ${label(size).padStart(6)}: in-process ${inProcess.toFixed(2)} ms (event loop blocked that long) | pool worker ${pooled.toFixed(2)} ms | ratio ${ratio.toFixed(2)}x`,
        );
        figures[`${standard}${size}InProcessMs`] = Number(inProcess.toFixed(3));
        figures[`${standard}${size}PooledMs`] = Number(pooled.toFixed(3));
        figures[`${standard}${size}Ratio`] = Number(ratio.toFixed(3));
      }
    }
  } finally {
    await workbench.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}
