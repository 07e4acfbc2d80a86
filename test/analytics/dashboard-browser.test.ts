// The dashboard in a real browser (Debian's Chromium through playwright-core): the page loads with no console error
// (a CSP violation is one), shows the counts of the ingested files, and its Acknowledge button changes what the API
// answers. Skipped, with a notice, where no Chromium is installed. WORKBENCH_UPDATE_SCREENSHOT=1 saves the page as
// docs/dashboard.png (the README's picture).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../../plugins/monitor/api.ts';
import { adtMessage, failingMessage, ingest, startAnalyticsHarness, waitFor, type MonitorHarness } from './analytics-harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser) console.warn(`[notice] ${CHROMIUM} is missing: the dashboard browser test is skipped (apt-get install chromium).`);

describe.skipIf(!hasBrowser)('dashboard in a browser', () => {
  let h: MonitorHarness;
  let feed: string;
  let alertId: string;
  let browser: import('playwright-core').Browser;

  beforeAll(async () => {
    h = await startAnalyticsHarness({ analytics: { dashboardRefreshSeconds: 2 } });
    const dir = h.folder('adt');
    feed = (await h.post('/api/monitor/interfaces', { name: 'ADT inbound (Epic)', directoryPath: dir })).json.data.id;
    const now = new Date();
    const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
    await ingest(
      h,
      feed,
      dir,
      { 'a0.hl7': adtMessage('OK0', { time: stamp }), 'a1.hl7': adtMessage('OK1', { time: stamp }), 'a2.hl7': adtMessage('OK2', { time: stamp }), 'b0.hl7': failingMessage('FAIL0', stamp) },
      4,
    );
    const monitor = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
    alertId = (await monitor.raiseAlert({ interfaceId: feed, severity: 'warning', rule: 'browser-probe', title: 'Probe alert for the dashboard', message: 'Raised by the browser test.' })).id;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('loads without console errors, shows the counts, and acknowledges an alert through the API', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(h.wb.urls.monitor);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
    expect(await page.textContent('#total-messages')).toBe('4');
    expect(await page.textContent('#total-failed')).toBe('1');
    expect(await page.textContent('#interfaces tbody')).toContain('ADT inbound (Epic)');
    await page.waitForSelector('#chart canvas');
    expect(await page.textContent('#errors tbody')).toContain('FAIL0');
    for (const url of requests) expect(new URL(url).origin).toBe(new URL(h.wb.urls.monitor).origin);

    // the README's picture is refreshed on request only, so a test run leaves the tree as it was
    const shots = process.env.WORKBENCH_UPDATE_SCREENSHOT ? resolve(import.meta.dirname, '../../docs') : mkdtempSync(join(tmpdir(), 'dashboard-shot-'));
    mkdirSync(shots, { recursive: true });
    const shot = await page.screenshot({ path: join(shots, 'dashboard.png'), fullPage: true });
    expect(shot.subarray(1, 4).toString('latin1')).toBe('PNG');
    if (!process.env.WORKBENCH_UPDATE_SCREENSHOT) rmSync(shots, { recursive: true, force: true });

    await page.click(`button[data-alert-id="${alertId}"]`);
    const acknowledged = await waitFor(async () => {
      const alerts = (await h.get('/api/monitor/alerts?sinceHours=1')).json.data as Array<{ id: string; acknowledgedAt: string | null }>;
      return alerts.find((alert) => alert.id === alertId && alert.acknowledgedAt !== null);
    }, 10_000, 'the alert acknowledged');
    expect(acknowledged.acknowledgedAt).not.toBeNull();
    await page.waitForSelector(`button[data-alert-id="${alertId}"]`, { state: 'detached', timeout: 10_000 });

    for (const range of ['1h', '7d', '30d']) {
      await page.click(`button[data-range="${range}"]`);
      await page.waitForSelector(`button[data-range="${range}"][aria-pressed="true"]`);
    }
    await page.waitForSelector('#chart canvas');
    expect(problems).toEqual([]);
  }, 60_000);
});
