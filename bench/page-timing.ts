/**
 * Time to interactive of pages in headless Chromium (Debian's, through playwright-core), for the page benches: from
 * the navigation's start until a selector that says the view can be used is in the page. Each load opens a fresh
 * browser context, so nothing is cached; the first load of an address is a warm-up of the service and not counted.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import { median, round } from './timing.ts';

/** Where Debian installs Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** Cold loads measured per address. */
export const PAGE_RUNS = 7;

/** A page and the selector that says it is usable. */
export interface PageProbe {
  name: string;
  url: string;
  ready: string;
}

/** Starts headless Chromium, or says why not and answers undefined. */
export async function launchBenchBrowser(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    console.log(`${CHROMIUM} is missing: the page timings are skipped (apt-get install chromium).`);
    return undefined;
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** Milliseconds of one cold load until `ready` is in the page (without `ready`: until the load event). */
async function coldLoad(browser: Browser, url: string, ready: string | undefined): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const start = performance.now();
  await page.goto(url, { waitUntil: ready ? 'commit' : 'load' });
  if (ready) await page.waitForSelector(ready, { state: 'attached', timeout: 20_000 });
  const ms = performance.now() - start;
  await context.close();
  return ms;
}

/** Median of {@link PAGE_RUNS} cold loads after a warm-up load. */
export async function medianLoadMs(browser: Browser, url: string, ready?: string): Promise<number> {
  await coldLoad(browser, url, ready);
  const times: number[] = [];
  for (let i = 0; i < PAGE_RUNS; i++) times.push(await coldLoad(browser, url, ready));
  return median(times);
}

/**
 * Measures the peer (a JSON answer opened in Chromium: one round trip and a render, no script) and each probe, prints
 * each beside the peer and the goal of 1 s, and answers the figures (milliseconds, ratios, the machine's load).
 */
export async function measurePages(browser: Browser, peerUrl: string, probes: readonly PageProbe[]): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  // the machine is shared: its load says how far the figures are from an idle machine's
  figures.loadAverage = round(loadavg()[0] as number, 1);
  console.log(`load average over the last minute: ${figures.loadAverage} (on ${(await import('node:os')).cpus().length} cores)`);
  const peer = await medianLoadMs(browser, peerUrl);
  figures.peerJsonMs = round(peer, 1);
  console.log(`peer: a JSON answer of the same base opened in Chromium, median of ${PAGE_RUNS} cold loads: ${round(peer, 1)} ms`);
  for (const probe of probes) {
    const ms = await medianLoadMs(browser, probe.url, probe.ready);
    figures[`${probe.name}Ms`] = round(ms, 1);
    figures[`${probe.name}VsPeer`] = round(ms / peer, 2);
    console.log(
      `${probe.name.padEnd(15)} ${new URL(probe.url).pathname}${new URL(probe.url).search}: interactive in ${round(ms, 1)} ms ` +
        `(median of ${PAGE_RUNS} cold loads), ${round(ms / peer, 2)}x the peer, ${round(ms / 1000, 2)}x the goal of 1 s`,
    );
  }
  return figures;
}
