/**
 * Measures how long the event loop is held while some work runs: the loop's own delay histogram (every base shares
 * the one loop, so its longest delay is the longest pause any base sees) and a request probe (a GET every
 * `everyMs`, each answer's time), the pause a client sees.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { send } from '../test/helpers/http-client.ts';

/** What a probe saw: the longest loop delay and the slowest probe answer, in ms, and how many probes answered. */
export interface PauseFigures {
  maxLoopDelayMs: number;
  maxProbeMs: number;
  probes: number;
}

/** Starts probing `path` on `baseUrl` every `everyMs`; `stop()` ends it and answers the figures. */
export function startPauseProbe(baseUrl: string, path: string, everyMs = 50): { stop(): Promise<PauseFigures> } {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let maxProbeMs = 0;
  let probes = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await send(baseUrl, { path });
      maxProbeMs = Math.max(maxProbeMs, performance.now() - started);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      histogram.disable();
      return { maxLoopDelayMs: Math.round(histogram.max / 1e6), maxProbeMs: Math.round(maxProbeMs), probes };
    },
  };
}
