// The analyst's loop in a real browser (Debian's Chromium through playwright-core; skipped with a notice without it):
// a failing file dropped into a watched folder shows on the dashboard, its interface opens the message list, the
// message opens with the finding marked at its field and the field named on hover ("Patient Name" at PID.5), and
// "open in the bridge" carries the message to the bridge's page, where it is fixed and valid. The same for a FHIR
// resource and an NCPDP SCRIPT message (trees of elements), and an NCPDP D.0 claim (by segment and field, at 800 px
// wide). Every page: no console error, nothing from another origin, no serious axe violation.
// WORKBENCH_UPDATE_SCREENSHOT=1 writes the pages into docs/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_NEWRX_HEAD, SCRIPT_NEWRX_TAIL } from '../helpers/large-messages.ts';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from '../monitor/monitor-harness.ts';
import { browserAvailable, launchBrowser, seriousViolations, watchedPage } from './browser.ts';
import { screenshot } from './screenshots.ts';

const hasBrowser = browserAvailable('the message browser test');

/** An ADT^A01 whose PID-5 (patient name, required) is empty, with a site-defined ZPI segment. */
function nameless(controlId: string): string {
  return `${adtMessage(controlId, { patientId: 'MRN-PAGES-1' }).replace('|DOE^JANE|', '||')}\rZPI|1|VIP`;
}

describe.skipIf(!hasBrowser)('message browser and message view in a browser', () => {
  let h: MonitorHarness;
  let browser: import('playwright-core').Browser;
  const ids: Record<string, string> = {};

  /** Creates an interface over a fresh folder, writes one file into it and waits until it is stored. */
  async function drop(name: string, standard: string, file: string, content: string): Promise<string> {
    const dir = h.folder(name);
    const created = await h.post('/api/monitor/interfaces', { name, directoryPath: dir, standard });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.data.id as string;
    writeFileSync(join(dir, file), content);
    await waitFor(async () => (await h.get(`/api/monitor/messages?interfaceId=${id}`)).json.data?.items.length === 1, 60_000, `${file} stored`);
    return id;
  }

  beforeAll(async () => {
    h = await startMonitorHarness({});
    ids.hl7 = await drop('ADT inbound', 'hl7', 'nameless.hl7', nameless('PAGES-HL7-1'));
    ids.fhir = await drop('FHIR patients', 'fhir', 'patient.json', JSON.stringify({ resourceType: 'Patient', id: 'p1', gender: 'robot', birthDate: '1980-02-03', nickname: 'Jo' }));
    ids.ncpdp = await drop('eRx inbound', 'ncpdp', 'newrx.xml', `${SCRIPT_NEWRX_HEAD}${SCRIPT_NEWRX_TAIL}`.replace(/<Gender>[^<]*<\/Gender>/, '<Gender>Q</Gender>'));
    // a D.0 claim from the bridge's generator, its date written (414-DE) not a real date
    const claim = (await h.wb.call('bridge', { method: 'POST', path: '/api/generate', body: { standard: 'ncpdp', messageType: 'B1', count: 1 } })).json.data[0] as string;
    ids.claims = await drop('Claims', 'ncpdp', 'claim.d0', claim.replace(/\u001cDE\d{8}/, '\u001cDE20261399'));
    browser = await launchBrowser();
    // the first FHIR and NCPDP validations load their definitions: minutes on a busy machine
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  /** Hovers the part at `path` and answers the description shown for it. */
  async function describedOnHover(page: import('playwright-core').Page, path: string): Promise<string> {
    const part = page.locator(`#raw .field[data-path="${path}"]`).first();
    await part.hover();
    const tip = part.locator(':scope > .field-tip');
    await expect.poll(async () => (await tip.textContent()) ?? '', { timeout: 10_000 }).not.toContain('Looking up');
    return (await tip.textContent()) ?? '';
  }

  it('HL7: dashboard -> interface -> message, the finding at PID.5 marked and named, then to the bridge', async () => {
    const { page, problems, requests } = await watchedPage(browser);
    await page.goto(h.wb.urls.monitor);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
    await page.locator('#interfaces a', { hasText: 'ADT inbound' }).click();
    await page.waitForURL(/\/messages\?interfaceId=/);
    const row = page.locator('#messages tbody tr', { hasText: 'PAGES-HL7-1' });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.textContent()).toContain('nameless.hl7');
    expect(await row.textContent()).toContain('PID.5');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'pages-messages');

    await row.locator('a', { hasText: 'PAGES-HL7-1' }).click();
    await page.waitForSelector('#raw .segment[data-segment="PID"]');
    const field = page.locator('#raw .field[data-path="PID.5"]');
    expect(await field.getAttribute('class')).toContain('marked');
    // the one finding outside the site-defined segment (which strict validation reports too)
    expect(await page.locator('#raw .segment:not([data-segment^="Z"]) .field.marked').count()).toBe(1);
    expect(await describedOnHover(page, 'PID.5')).toContain('Patient Name');
    // a site-defined segment's field says it has no description, and nothing fails in the console for it
    expect(await describedOnHover(page, 'ZPI.2')).toContain('No description');
    // keyboard: the same description on focus, hidden by Escape
    await page.locator('#raw .field[data-path="PID.7"]').focus();
    await expect.poll(async () => page.locator('#raw .field[data-path="PID.7"] > .field-tip').textContent(), { timeout: 10_000 }).toContain('Date/Time of Birth');
    await page.keyboard.press('Escape');
    expect(await page.locator('.field-tip').count()).toBe(0);
    expect(await page.textContent('#findings')).toContain('PID.5');
    expect(await page.locator('#findings li', { hasText: 'REQUIRED_FIELD_MISSING' }).locator('.finding-detail').textContent()).toBe(' (expected a value, found empty)');
    expect(await page.textContent('#file-facts')).toContain('nameless.hl7');
    expect(await page.locator('a', { hasText: 'MRN-PAGES-1' }).getAttribute('href')).toBe('/tracing?patientId=MRN-PAGES-1');
    // triage's explanation on request (the offline engine)
    await page.click('#explain');
    await page.waitForSelector('#triage');
    expect(await page.textContent('#triage')).toMatch(/PID\.5|name/i);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'pages-message-hl7');

    // the masked view shows the de-identified text, and the address says so (a link opens it masked)
    await page.click('#masked-switch');
    await page.waitForURL(/view=masked/);
    await page.waitForSelector('#raw .segment[data-segment="PID"]');
    expect(await page.textContent('#raw')).not.toContain('MRN-PAGES-1');

    // "open in the bridge" carries the text in the fragment, which no request sends
    const link = await page.getAttribute('#open-in-bridge', 'href');
    expect(link?.startsWith(`${h.wb.urls.bridge}/#message=`)).toBe(true);
    for (const url of requests) expect(new URL(url).origin).toBe(new URL(h.wb.urls.monitor).origin);

    // in the bridge: the handed-over message is validated at once (invalid), fixed on the page, and valid
    await page.goto(link as string);
    await page.waitForSelector('#verdict');
    expect(await page.textContent('#verdict')).toContain('Invalid');
    expect(await page.inputValue('#validate-message')).toContain('PAGES-HL7-1');
    await page.fill('#validate-message', adtMessage('PAGES-HL7-1', { patientId: 'MRN-PAGES-1' }));
    await page.click('#validate-run');
    await page.waitForSelector('#verdict:has-text("Valid")');
    expect(await page.textContent('#verdict')).not.toContain('Invalid');
    expect(problems).toEqual([]);
  }, 90_000);

  it('FHIR: the resource as a tree, the element of the finding marked and named', async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(`${h.wb.urls.monitor}/messages?interfaceId=${ids.fhir}`);
    await page.locator('#messages tbody a').first().click();
    await page.waitForSelector('#raw.tree');
    const gender = page.locator('#raw .field[data-path="Patient.gender"]');
    expect(await gender.getAttribute('class')).toContain('marked');
    expect(await describedOnHover(page, 'Patient.gender')).toMatch(/gender/i);
    expect(await describedOnHover(page, 'Patient.birthDate')).toMatch(/date/i);
    // an element no definition names: described as such, the lookup answers found: false (no 404 in the console)
    expect(await describedOnHover(page, 'Patient.nickname')).toContain('not in the definitions');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'pages-message-fhir');
    expect(problems).toEqual([]);
  }, 60_000);

  it('NCPDP SCRIPT: the message as a tree of elements, the element of the finding marked and named', async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(`${h.wb.urls.monitor}/messages?interfaceId=${ids.ncpdp}&status=failed`);
    await page.locator('#messages tbody a').first().click();
    await page.waitForSelector('#raw.tree');
    const gender = page.locator('#raw .field[data-path="NewRx.Patient.HumanPatient.Gender"]');
    expect(await gender.getAttribute('class')).toContain('marked');
    expect(await describedOnHover(page, 'NewRx.Patient.HumanPatient.Gender')).toMatch(/gender/i);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'pages-message-ncpdp');
    expect(problems).toEqual([]);
  }, 60_000);

  it('NCPDP D.0: the claim by segment and field, the field of the finding marked and named', async () => {
    const { page, problems } = await watchedPage(browser, { width: 800 });
    await page.goto(`${h.wb.urls.monitor}/messages?interfaceId=${ids.claims}`);
    await page.locator('#messages tbody a').first().click();
    await page.waitForSelector('#raw.ncpdp .segment[data-segment="AM07"]');
    const date = page.locator('#raw .field[data-path="AM07.DE"]');
    expect(await date.getAttribute('class')).toContain('marked');
    expect(await page.locator('#raw .field.marked').count()).toBe(1);
    expect(await describedOnHover(page, 'AM07.DE')).toContain('Date Prescription Written');
    // readable at 800 px: nothing is wider than the window (with no description open)
    await page.mouse.move(0, 0);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(800);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);
});
