// The monitor's management pages in a real browser (Debian's Chromium through playwright-core; skipped with a notice
// without it): an interface created (the API's problem shown at its field first), edited, disabled and deleted from
// the page; alerts acknowledged and then found in the history with who and when, a cleared one too; a patient traced
// by MRN across two interfaces with the dropped step marked in the timeline, each event opening its message. Every
// page: no console error, no serious axe violation. WORKBENCH_UPDATE_SCREENSHOT=1 writes the pages into docs/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mrnOf, startTracingHarness, typeOf, type TracingHarness } from '../tracing/tracing-harness.ts';
import { browserAvailable, launchBrowser, seriousViolations, watchedPage } from './browser.ts';
import { screenshot } from './screenshots.ts';

const hasBrowser = browserAvailable('the management pages browser test');

describe.skipIf(!hasBrowser)('interfaces, alerts and tracing pages in a browser', () => {
  let h: TracingHarness;
  let browser: import('playwright-core').Browser;
  let folders: string;
  let dropped: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startTracingHarness({ storage: 'sqlite' });
    folders = mkdtempSync(join(tmpdir(), 'pages-manage-'));
    const admissions = await h.addInterface('ADT inbound');
    const results = await h.addInterface('Lab results');
    Object.assign(ids, { admissions: admissions.id, results: results.id });
    // one admission whose order never came: ADT on one interface, the result on another, the ORM dropped
    const journeys = await h.journeys({ patients: 1, seed: 4242, start: '2026-03-03T09:00:00Z', faults: [{ kind: 'drop', step: 'ORM^O01', patient: 1 }] });
    dropped = mrnOf(journeys[0] as string);
    await h.deliver(admissions.dir, journeys.filter((m) => typeOf(m).startsWith('ADT')));
    await h.deliver(results.dir, journeys.filter((m) => typeOf(m) === 'ORU^R01'));
    const sequence = await h.post('/api/monitor/sequences', { name: 'admission', sequence: 'ADT^A01>ORM^O01<1h>ORU^R01<4h' });
    expect(sequence.status, JSON.stringify(sequence.json)).toBe(201);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
    if (folders) rmSync(folders, { recursive: true, force: true });
  });

  it('creates an interface (the folder problem shown at its field first), edits, disables and deletes it', async () => {
    const { page, problems } = await watchedPage(browser, { allowStatus: [400] });
    await page.goto(`${h.wb.urls.monitor}/interfaces`);
    const form = page.locator('#interface-form-new');
    await form.locator('input[name="name"]').fill('Pharmacy orders');
    await form.locator('input[name="directoryPath"]').fill(join(folders, 'not-there'));
    await form.locator('button[type="submit"]').click();
    const problem = form.locator('#directoryPath-problem');
    await expect.poll(async () => (await problem.count()) > 0 && (await problem.textContent()), { timeout: 10_000 }).toContain('does not exist');
    expect(await form.locator('input[name="directoryPath"]').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);

    const folder = join(folders, 'pharmacy');
    mkdirSync(folder);
    await form.locator('input[name="directoryPath"]').fill(folder);
    await form.locator('select[name="standard"]').selectOption('hl7');
    await form.locator('button[type="submit"]').click();
    await page.waitForSelector('#created');
    const listed = (await h.get('/api/monitor/interfaces')).json.data as Array<{ id: string; name: string; directoryPath: string; standard: string; enabled: boolean }>;
    const created = listed.find((i) => i.name === 'Pharmacy orders');
    expect(created).toMatchObject({ standard: 'hl7' });
    const row = page.locator(`#interface-list tr[data-interface-id="${created!.id}"]`);
    await row.waitFor();
    await screenshot(page, 'pages-interfaces');

    await row.locator('a', { hasText: 'Edit' }).click();
    const edit = page.locator(`#interface-form-edit-${created!.id}`);
    await edit.locator('input[name="name"]').fill('Pharmacy orders (Omnicell)');
    await edit.locator('button[type="submit"]').click();
    await expect.poll(async () => (await h.get(`/api/monitor/interfaces/${created!.id}`)).json.data.name).toBe('Pharmacy orders (Omnicell)');
    await expect.poll(() => row.textContent()).toContain('Pharmacy orders (Omnicell)');

    await row.locator(`button[data-toggle="${created!.id}"]`).click();
    await expect.poll(async () => (await h.get(`/api/monitor/interfaces/${created!.id}`)).json.data.enabled).toBe(false);
    await expect.poll(() => row.locator('button').textContent()).toBe('Enable');

    await row.locator('a', { hasText: 'Delete' }).click();
    expect(await page.textContent('#delete-what')).toContain('stored messages');
    await page.click('#confirm-delete');
    await row.waitFor({ state: 'detached' });
    expect((await h.get(`/api/monitor/interfaces/${created!.id}`)).status).toBe(404);
    expect(problems).toEqual([]);
  }, 60_000);

  it('acknowledges an alert and finds it in the history with who and when, beside a cleared one', async () => {
    await h.monitor.raiseAlert({ interfaceId: ids.admissions!, severity: 'critical', rule: 'pages-probe-ack', title: 'Probe to acknowledge', message: 'Raised by the test.' });
    await h.monitor.raiseAlert({ interfaceId: ids.results!, severity: 'warning', rule: 'pages-probe-clear', title: 'Probe to clear', message: 'Raised by the test.' });
    const { page, problems } = await watchedPage(browser);
    await page.goto(`${h.wb.urls.monitor}/alerts`);
    const openRow = page.locator('#alert-list tbody tr', { hasText: 'Probe to acknowledge' });
    await openRow.waitFor();
    expect(await page.locator('#alert-list tbody tr', { hasText: 'Probe to clear' }).count()).toBe(1);
    await openRow.locator('button[data-acknowledge]').click();
    await openRow.waitFor({ state: 'detached' });
    await h.monitor.clearAlert(ids.results!, 'pages-probe-clear');

    await page.click('button[data-show="history"]');
    await page.waitForURL(/show=history/);
    const history = page.locator('#alert-list tbody tr', { hasText: 'Probe to acknowledge' });
    await history.waitFor();
    expect(await history.locator('.acknowledged').textContent()).toContain('by local caller');
    const clearedRow = page.locator('#alert-list tbody tr', { hasText: 'Probe to clear' });
    await clearedRow.waitFor();
    expect(await clearedRow.locator('.cleared').textContent()).toContain('by its rule');
    // filtered by severity and interface, in the address
    await page.selectOption('select >> nth=1', 'warning');
    await page.waitForURL(/severity=warning/);
    await expect.poll(() => page.locator('#alert-list tbody tr', { hasText: 'Probe to acknowledge' }).count()).toBe(0);
    expect(await clearedRow.count()).toBe(1);
    expect(await page.locator('#alert-list tbody tr', { hasText: 'Probe to clear' }).locator('a').getAttribute('href')).toContain(`interfaceId=${ids.results}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'pages-alerts');
    expect(problems).toEqual([]);
  }, 60_000);

  it('traces a patient by MRN across two interfaces, the dropped step marked, each event opening its message', async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(`${h.wb.urls.monitor}/tracing`);
    await page.fill('input[name="patientId"]', dropped);
    await page.click('form[role="search"] button[type="submit"]');
    await page.waitForURL(new RegExp(`patientId=${dropped}`));
    await page.waitForSelector('#timeline');
    const events = page.locator('#timeline li[data-message-id]');
    expect(await events.count()).toBeGreaterThanOrEqual(2);
    const text = (await page.textContent('#timeline')) ?? '';
    expect(text).toContain('ADT inbound');
    expect(text).toContain('Lab results');
    const gap = page.locator('#timeline li[data-gap="missing"]');
    expect(await gap.count()).toBe(1);
    expect(await gap.textContent()).toContain('ORM^O01');
    await page.selectOption('#latency-title ~ .filters select >> nth=0', ids.admissions!);
    await page.selectOption('#latency-title ~ .filters select >> nth=1', ids.results!);
    await page.waitForSelector('#latency');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'pages-tracing');

    await events.first().locator('a').click();
    await page.waitForSelector('#raw .segment[data-segment="PID"]');
    expect(await page.textContent('#raw')).toContain(dropped);
    expect(problems).toEqual([]);
  }, 60_000);
});
