/**
 * `npm run bench -- bridgePages`: time to interactive of the bridge's and the population generator's pages in
 * headless Chromium: from the navigation's start until the view can be used (its choices loaded from the API, or a
 * deep-linked lookup answered), each load in a fresh browser context (bench/page-timing.ts). Beside it, the peer
 * measured the same way (a JSON answer of the bridge opened in Chromium) and the goal of 1 s. Skipped, saying so,
 * without Chromium.
 */
import { startBenchWorkbench } from './bench-workbench.ts';
import { launchBenchBrowser, measurePages } from './page-timing.ts';

/** Runs the section; figures in milliseconds (medians of cold loads) and ratios to the peer. */
export async function runBridgePagesBench(): Promise<Record<string, number>> {
  const browser = await launchBenchBrowser();
  if (!browser) return {};
  const bench = await startBenchWorkbench('wb-bench-pages-', {});
  try {
    const { bridge, population } = bench.urls;
    return await measurePages(browser, `${bridge}/api/standards`, [
      { name: 'bridgeValidate', url: `${bridge}/`, ready: '#validate-standard option[value="hl7"]' },
      { name: 'bridgeLookup', url: `${bridge}/?tab=lookup&path=PID.5&lversion=2.5.1`, ready: '#lookup-facts' },
      { name: 'bridgeGenerate', url: `${bridge}/?tab=generate`, ready: '#generate-type option[value="ADT^A04"]' },
      { name: 'population', url: `${population}/`, ready: '#connected-database' },
    ]);
  } finally {
    await browser.close();
    await bench.stop();
  }
}
