/**
 * `npm run bench -- bridgePages`: time to interactive of the bridge's and the population generator's pages in
 * headless Chromium (Debian's, through playwright-core): from the navigation's start until the view can be used (its
 * choices loaded from the API, or a deep-linked lookup answered). Each run opens a fresh browser context, so nothing
 * is cached. Beside it, the peer measured the same way: navigating to a JSON answer of the same base (one round trip
 * and a render, no script), and the goal of 1 s. Skipped, saying so, without Chromium.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startBenchWorkbench } from './bench-workbench.ts';
import { median, round } from './timing.ts';

const CHROMIUM = '/usr/bin/chromium';
const RUNS = 7;

/** A page and what says it is usable. */
interface PageProbe {
  name: string;
  base: 'bridge' | 'population';
  path: string;
  ready: string;
}

const PROBES: PageProbe[] = [
  { name: 'bridgeValidate', base: 'bridge', path: '/', ready: '#validate-standard option[value="hl7"]' },
  { name: 'bridgeLookup', base: 'bridge', path: '/?tab=lookup&path=PID.5&lversion=2.5.1', ready: '#lookup-facts' },
  { name: 'bridgeGenerate', base: 'bridge', path: '/?tab=generate', ready: '#generate-type option[value="ADT^A04"]' },
  { name: 'population', base: 'population', path: '/', ready: '#connected-database' },
];

/** Runs the section; figures in milliseconds (medians of {@link RUNS} cold loads) and ratios to the peer. */
export async function runBridgePagesBench(): Promise<Record<string, number>> {
  if (!existsSync(CHROMIUM)) {
    console.log(`${CHROMIUM} is missing: the page timings are skipped (apt-get install chromium).`);
    return {};
  }
  const bench = await startBenchWorkbench('wb-bench-pages-', {});
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const figures: Record<string, number> = {};
  try {
    const coldLoad = async (url: string, ready: string | undefined): Promise<number> => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const start = performance.now();
      await page.goto(url, { waitUntil: ready ? 'commit' : 'load' });
      if (ready) await page.waitForSelector(ready, { state: 'attached', timeout: 20_000 });
      const ms = performance.now() - start;
      await context.close();
      return ms;
    };
    const timesOf = async (url: string, ready?: string) => {
      await coldLoad(url, ready); // the first load of the service pays for its own warm-up
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await coldLoad(url, ready));
      return median(times);
    };
    // the machine is shared: its load says how far the figures are from an idle machine's
    figures.loadAverage = round(loadavg()[0] as number, 1);
    console.log(`load average over the last minute: ${figures.loadAverage} (on ${(await import('node:os')).cpus().length} cores)`);
    const peer = await timesOf(`${bench.urls.bridge}/api/standards`);
    figures.peerJsonMs = round(peer, 1);
    console.log(`peer: a JSON answer of the bridge opened in Chromium, median of ${RUNS} cold loads: ${round(peer, 1)} ms`);
    for (const probe of PROBES) {
      const ms = await timesOf(`${bench.urls[probe.base]}${probe.path}`, probe.ready);
      figures[`${probe.name}Ms`] = round(ms, 1);
      figures[`${probe.name}VsPeer`] = round(ms / peer, 2);
      console.log(
        `${probe.name.padEnd(15)} ${probe.base} ${probe.path}: interactive in ${round(ms, 1)} ms (median of ${RUNS} cold loads), ` +
          `${round(ms / peer, 2)}x the peer, ${round(ms / 1000, 2)}x the goal of 1 s`,
      );
    }
  } finally {
    await browser.close();
    await bench.stop();
  }
  return figures;
}
