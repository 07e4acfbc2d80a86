// The monitor's pages over lists longer than one API page: the interfaces page and the interface pickers read every
// page of interfaces; the alerts page shows the newest page of alerts and "Show more" appends the older ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracingHarness, type TracingHarness } from '../tracing/tracing-harness.ts';
import { browserAvailable, launchBrowser, watchedPage } from './browser.ts';

const hasBrowser = browserAvailable('the paged lists browser test');
/** One more than the API's default page of 100. */
const INTERFACES = 105;
const ALERTS = 130;

describe.skipIf(!hasBrowser)('paged lists in the monitor pages', () => {
  let h: TracingHarness;
  let browser: import('playwright-core').Browser;
  const ids: string[] = [];

  beforeAll(async () => {
    h = await startTracingHarness({ storage: 'sqlite' });
    for (let n = 1; n <= INTERFACES; n += 1) ids.push((await h.addInterface(`Feed ${String(n).padStart(3, '0')}`)).id);
    for (let n = 1; n <= ALERTS; n += 1) {
      await h.monitor.raiseAlert({ interfaceId: ids[0]!, severity: 'warning', rule: `paging-probe-${n}`, title: `Paging probe ${n}`, message: 'Raised by the test.' });
    }
    // the API's own default page holds fewer than that: what the pages must go beyond
    const first = await h.get('/api/monitor/interfaces');
    expect(first.json.data).toHaveLength(100);
    expect(first.json.page.truncated).toBe(true);
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('lists every interface, and every picker offers them all', async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(`${h.wb.urls.monitor}/interfaces`);
    const rows = page.locator('#interface-list tbody tr[data-interface-id]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(INTERFACES);
    expect(await page.locator(`#interface-list tr[data-interface-id="${ids[INTERFACES - 1]}"]`).count()).toBe(1);
    expect(await page.locator('#interface-list-cut').count()).toBe(0);

    for (const [view, picker] of [
      ['messages', 'select[name="interfaceId"]'],
      ['tracing', '#latency-title ~ .filters select >> nth=0'],
      ['alerts', 'select >> nth=0'],
    ] as const) {
      await page.goto(`${h.wb.urls.monitor}/${view}`);
      // every interface and the "every interface" / "choose" option
      await expect.poll(() => page.locator(picker).locator('option').count(), { timeout: 20_000 }).toBe(INTERFACES + 1);
      expect(await page.locator(picker).locator(`option[value="${ids[INTERFACES - 1]}"]`).count()).toBe(1);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows the newest page of alerts and appends the rest with "Show more", filters starting again at one page', async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(`${h.wb.urls.monitor}/alerts?show=all`);
    const rows = page.locator('#alert-list tbody tr[data-alert-id]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(100);
    expect(await page.textContent('#alert-count')).toContain('older ones follow');
    await page.click('#alert-more');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(ALERTS);
    expect(await page.locator('#alert-more').count()).toBe(0);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-alert-id')));
    expect(new Set(shown).size).toBe(ALERTS);

    // a reload reads as many pages as were shown
    await page.click('button[data-show="open"]');
    await page.waitForURL(/show=open/);
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(ALERTS);
    // another filter reads its first page again
    await page.selectOption('select >> nth=1', 'warning');
    await page.waitForURL(/severity=warning/);
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(100);
    expect(await page.locator('#alert-more').count()).toBe(1);
    expect(problems).toEqual([]);
  }, 120_000);
});
