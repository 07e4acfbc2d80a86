/**
 * `npm run bench -- bridgePages`: time to interactive of the bridge's and the population generator's pages in
 * headless Chromium (Debian's, through playwright-core): from the navigation's start until the view can be used (its
 * choices loaded from the API, or a deep-linked lookup answered). Each run opens a fresh browser context, so nothing
 * is cached. Beside it, the peer measured the same way: navigating to a JSON answer of the same base (one round trip
 * and a render, no script), and the goal of 1 s. Skipped, saying so, without Chromium.
 */
import { startBenchWorkbench } from './bench-workbench.ts';
import { launchBenchBrowser, measurePages } from './page-timing.ts';

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

/** Runs the section; figures in milliseconds (medians of cold loads) and ratios to the peer. */
export async function runBridgePagesBench(): Promise<Record<string, number>> {
  const browser = await launchBenchBrowser();
  if (!browser) return {};
  const bench = await startBenchWorkbench('wb-bench-pages-', {});
  try {
    return await measurePages(
      browser,
      `${bench.urls.bridge}/api/standards`,
      PROBES.map((probe) => ({ name: probe.name, url: `${bench.urls[probe.base]}${probe.path}`, ready: probe.ready })),
    );
  } finally {
    await browser.close();
    await bench.stop();
  }
}
