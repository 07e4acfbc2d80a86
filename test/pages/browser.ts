/**
 * Shared setup of the pages' browser tests: Debian's Chromium through playwright-core (absent: the tests skip with a
 * notice), a page that records every console error, failed request and request to another origin, and axe-core run
 * inside the page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';

/** Where Debian installs Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** True when the browser tests can run; otherwise a notice says why they are skipped. */
export function browserAvailable(what: string): boolean {
  const present = existsSync(CHROMIUM);
  if (!present) console.warn(`[notice] ${CHROMIUM} is missing: ${what} is skipped (apt-get install chromium).`);
  return present;
}

/** Starts headless Chromium (one per test file). */
export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** A page and what went wrong in it: console errors, page errors, answers of 400 and above, other origins asked. */
export interface WatchedPage {
  page: Page;
  problems: string[];
  requests: string[];
}

/** Opens a page that records its problems (`allowStatus` lists answers a test provokes on purpose, e.g. 400 of a form). */
export async function watchedPage(browser: Browser, options: { width?: number; height?: number; allowStatus?: number[] } = {}): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: options.width ?? 1200, height: options.height ?? 1000 } });
  const problems: string[] = [];
  const requests: string[] = [];
  const allowed = new Set(options.allowStatus ?? []);
  page.on('console', (message) => {
    // a failed fetch the test provoked is logged by Chromium as a console error naming its status
    if (message.type() === 'error' && ![...allowed].some((status) => message.text().includes(`status of ${status}`))) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400 && !allowed.has(response.status())) problems.push(`${response.status()} ${response.url()}`);
  });
  return { page, problems, requests };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations of the page as it is now (rule id and the first element of each). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // evaluated through the debugging protocol, which the page's policy (no inline script) does not govern
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(axeSource);
  // (the expression runs in the page, which has a DOM; the tests' own TypeScript has none)
  const result = (await page.evaluate('axe.run(document)')) as { violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> };
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}) at ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
}
