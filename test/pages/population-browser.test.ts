// The population page in a real browser (Debian's Chromium through playwright-core; skipped with a notice without
// it): a population generated from the page with its progress bar fed by the job's own progress and its no-PHI
// attestation; then, on the test PostgreSQL (WORKBENCH_TEST_POSTGRES_URL; skipped with a notice when unset), a
// database connected (the password never shown back), learned from, planned, seeded and cleaned up from the page.
// axe-core finds no serious or critical violation, and nothing fails in the console.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { type FreshDatabase, freshPostgresDatabase, testPostgresUrl } from '../population/population-test-kit.ts';
import { browserAvailable, launchBrowser, seriousViolations, watchedPage, type WatchedPage } from './browser.ts';
import { screenshot } from './screenshots.ts';

if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is unset: seeding from the population page is not tested.');

describe.skipIf(!browserAvailable('the population page test'))('the population page in a browser', () => {
  let wb: TestWorkbench;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let database: FreshDatabase | undefined;

  beforeAll(async () => {
    wb = await startTestWorkbench();
    browser = await launchBrowser();
    // 409: the schema asked before any connect (the page reads it as "not connected")
    watched = await watchedPage(browser, { allowStatus: [409] });
    page = watched.page;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await wb?.stop();
    await database?.drop();
  });

  it('generates a population with a progress bar and shows its attestation', async () => {
    await page.goto(wb.urls.population);
    await page.waitForSelector('body[data-loaded="true"]');
    expect(await page.textContent('#connected-database')).toContain('Not connected');
    await page.fill('#generate-count', '40');
    await page.selectOption('#generate-format', 'csv');
    await page.fill('#generate-seed', '5');
    await page.click('#generate-run');
    await page.waitForSelector('#job-progress[data-state="completed"]', { timeout: 60_000 });
    const jobId = new URL(page.url()).searchParams.get('job');
    expect(jobId).toBeTruthy();
    expect(await page.getAttribute('#job-progress-bar', 'value')).toBe('100');
    expect(await page.textContent('#job-progress')).toContain('40 of 40');
    expect(await page.locator('#job-files a[download]').count()).toBeGreaterThan(0);
    await page.click('#show-compliance');
    await page.waitForSelector('#compliance');
    expect(await page.textContent('#compliance')).toContain('Synthetic only');
    expect(await seriousViolations(page)).toEqual([]);
    // the job is in the address: a reload shows it again, readable at 800 px wide
    await page.setViewportSize({ width: 800, height: 1000 });
    await page.reload();
    await page.waitForSelector('#job-progress[data-state="completed"]');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(800);
    await page.setViewportSize({ width: 1200, height: 1000 });
    expect(watched.problems).toEqual([]);
  }, 90_000);

  it.skipIf(!testPostgresUrl)('connects, learns, plans, seeds and cleans up PostgreSQL from the page', async () => {
    database = await freshPostgresDatabase(testPostgresUrl as string);
    await database.query('create table patients (id bigint primary key, mrn varchar(20), given_name varchar(60), family_name varchar(60), sex varchar(10), birth_date date)');
    await database.query("insert into patients values (1, 'A1', 'Ada', 'Lovelace', 'female', '1815-12-10'), (2, 'A2', 'Alan', 'Turing', 'male', '1912-06-23')");
    // trust authentication on loopback ignores the password, which must still never come back
    const url = new URL(database.url);
    url.password = 'n0t-shown-back';
    await page.goto(wb.urls.population);
    await page.waitForSelector('body[data-loaded="true"]');
    await page.fill('#connect-string', url.toString());
    await page.click('#connect-run');
    await page.waitForSelector('#connected-database strong');
    expect(await page.textContent('#connected-database')).toContain(database.name);
    expect(await page.inputValue('#connect-string')).toBe('');
    expect(await page.content()).not.toContain('n0t-shown-back');

    await page.waitForSelector('#schema-tables');
    await page.check('#learn-patients');
    await page.click('#learn-run');
    await page.waitForSelector('#learned');

    await page.fill('#generate-count', '30');
    await page.selectOption('#generate-format', 'csv');
    await page.click('#generate-run');
    await page.waitForSelector('#job-progress[data-state="completed"]', { timeout: 60_000 });
    await page.click('#dry-run');
    await page.waitForSelector('#plan-steps');
    expect(await page.textContent('#plan-steps')).toContain('patients');
    await page.click('#seed-run');
    await page.waitForSelector('#seed-progress[data-state="completed"]', { timeout: 60_000 });
    expect(Number((await database.query('select count(*) as n from patients'))[0].n)).toBe(32);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await screenshot(page, 'population')).toBe(true);
    await page.click('#cleanup-run');
    await page.waitForSelector('#cleanup-progress[data-state="completed"]', { timeout: 60_000 });
    expect(Number((await database.query('select count(*) as n from patients'))[0].n)).toBe(2);
    expect(watched.problems).toEqual([]);
  }, 120_000);
});
