// The dashboard in a real browser (Debian's Chromium through playwright-core): the page loads with no console error
// (a CSP violation is one), shows the counts of the ingested files and each interface's figures, every tile and row
// leads to the message list filtered to it, its Acknowledge button changes what the API answers, axe-core finds no
// serious violation, and it reads at 800 px wide. Skipped, with a notice, where no Chromium is installed.
// WORKBENCH_UPDATE_SCREENSHOT=1 saves the page as docs/dashboard.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../../plugins/monitor/api.ts';
import { adtMessage, failingMessage, ingest, startMonitorHarness, waitFor, type MonitorHarness } from '../analytics/analytics-harness.ts';
import { browserAvailable, launchBrowser, seriousViolations, watchedPage } from './browser.ts';
import { screenshot } from './screenshots.ts';

const hasBrowser = browserAvailable('the dashboard browser test');

describe.skipIf(!hasBrowser)('dashboard in a browser', () => {
  let h: MonitorHarness;
  let feed: string;
  let alertId: string;
  let browser: import('playwright-core').Browser;

  beforeAll(async () => {
    h = await startMonitorHarness({ plugins: { pages: { refreshSeconds: 2 } } });
    const dir = h.folder('adt');
    feed = (await h.post('/api/monitor/interfaces', { name: 'ADT inbound (Epic)', directoryPath: dir })).json.data.id;
    const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
    await ingest(
      h,
      feed,
      dir,
      { 'a0.hl7': adtMessage('OK0', { time: stamp }), 'a1.hl7': adtMessage('OK1', { time: stamp }), 'a2.hl7': adtMessage('OK2', { time: stamp }), 'b0.hl7': failingMessage('FAIL0', stamp) },
      4,
    );
    const monitor = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
    alertId = (await monitor.raiseAlert({ interfaceId: feed, severity: 'warning', rule: 'browser-probe', title: 'Probe alert for the dashboard', message: 'Raised by the browser test.' })).id;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('loads without console errors, shows the counts, links every figure to its messages, and acknowledges an alert', async () => {
    const { page, problems, requests } = await watchedPage(browser, { width: 1200, height: 1400 });
    await page.goto(h.wb.urls.monitor);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
    await page.waitForFunction("document.querySelector('#total-messages')?.textContent === '4'");
    expect(await page.textContent('#total-failed')).toBe('1');
    const row = page.locator('#interfaces tbody tr', { hasText: 'ADT inbound (Epic)' });
    await expect.poll(async () => (await row.locator('td.num').allTextContents()).join(' ')).toBe('4 1');
    expect(await row.locator('a').first().getAttribute('href')).toBe(`/messages?interfaceId=${feed}`);
    expect(await row.locator('td.num a').nth(1).getAttribute('href')).toContain(`interfaceId=${feed}&status=failed`);
    expect(await page.locator('#total-failed').locator('xpath=..').getAttribute('href')).toContain('status=failed');
    await page.waitForSelector('#chart canvas');
    expect(await page.textContent('#errors tbody')).toContain('FAIL0');
    expect(await page.locator('#errors tbody a', { hasText: 'FAIL0' }).getAttribute('href')).toBe('/messages?controlId=FAIL0');
    for (const url of requests) expect(new URL(url).origin).toBe(new URL(h.wb.urls.monitor).origin);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await screenshot(page, 'dashboard')).toBe(true);

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

    // at 800 px wide nothing but the tables' own scroll boxes is wider than the window
    await page.setViewportSize({ width: 800, height: 1000 });
    await page.waitForTimeout(100);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(800);
    expect(problems).toEqual([]);
  }, 60_000);
});
