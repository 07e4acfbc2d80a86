// The bridge's page in a real browser (Debian's Chromium through playwright-core; skipped with a notice without it):
// a failing HL7 message handed over in the address's fragment is validated at once, its finding at PID.5 highlighted
// and named "Patient Name" on hover, then fixed and valid; a FHIR finding highlighted in the resource's tree; a diff with a field ignored from the page; generation of
// messages and of journeys with a fault; de-identification; the field lookup with a child followed. Findings say what
// was expected and found, and are highlighted in place in FHIR XML, NCPDP SCRIPT and D.0 too. axe-core finds no serious or
// critical violation in any view, nothing fails in the console, and nothing is asked of another origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SCRIPT_NEWRX_HEAD, SCRIPT_NEWRX_TAIL } from '../helpers/large-messages.ts';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { browserAvailable, launchBrowser, seriousViolations, watchedPage, type WatchedPage } from './browser.ts';
import { screenshot } from './screenshots.ts';

const FAILING = ['MSH|^~\\&|ADT1|HOSP|LAB|HOSP|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5.1', 'EVN||20250615120000', 'PID|1||PATID1234^^^HOSP^MR||', 'PV1|1|I|2000^2012^01'].join('\r');
const FIXED = FAILING.replace('PID|1||PATID1234^^^HOSP^MR||', 'PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM');

/** base64url of UTF-8, as the monitor's "open in the bridge" link writes it. */
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe.skipIf(!browserAvailable('the bridge page test'))('the bridge page in a browser', () => {
  let wb: TestWorkbench;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    wb = await startTestWorkbench();
    browser = await launchBrowser();
    watched = await watchedPage(browser);
    page = watched.page;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await wb?.stop();
  });

  const open = async (address: string) => {
    await page.goto(new URL(address, wb.urls.bridge).href);
    await page.waitForSelector('body[data-loaded="true"]');
  };

  it('validates a handed-over failing message, highlights PID.5 and names it on hover; the fix is valid', async () => {
    await open(`/#message=${base64url(FAILING)}`);
    await page.waitForSelector('#validation-result');
    expect(await page.textContent('#verdict')).toContain('Invalid');
    expect(await page.textContent('#detected-standard')).toBe('HL7 v2');
    const marked = page.locator('.message-layout .field.marked[data-path="PID.5"]');
    await marked.hover();
    await page.waitForSelector('.message-layout .field-tip:has-text("Patient Name")');
    expect(await page.textContent('.findings')).toContain('PID.5');
    // what the standard wanted there and what was found, beside the sentence
    expect(await page.textContent('.findings .finding-detail')).toBe(' (expected a value, found empty)');
    // the same name on keyboard focus
    await page.mouse.move(0, 0);
    await marked.focus();
    expect(await page.locator('.message-layout .field-tip').first().textContent()).toContain('Patient Name');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await screenshot(page, 'bridge-validate')).toBe(true);

    await page.fill('#validate-message', FIXED);
    await page.click('#validate-run');
    await page.waitForSelector('#verdict:has-text("Valid")');
    expect(await page.textContent('#verdict')).not.toContain('Invalid');
    // content holding two messages is summed up message by message
    await page.fill('#validate-message', `${FIXED}\r${FAILING.replace('MSG00001', 'MSG00002')}`);
    await page.click('#validate-run');
    await page.waitForSelector('#message-results');
    expect(await page.locator('#message-results tbody tr').count()).toBe(2);
    expect(await page.textContent('#message-results tbody tr:nth-child(2)')).toContain('MSG00002');
    // a site-defined Z-segment is shown without a lookup (none could answer: no 404 in the console)
    await page.fill('#validate-message', `${FIXED}\rZPI|1|VIP`);
    await page.click('#validate-run');
    await page.waitForSelector('.message-layout .segment:has-text("ZPI")');
    await page.hover('.message-layout .segment:has-text("ZPI") span:text-is("VIP")');
    expect(await page.locator('.message-layout .field-tip').count()).toBe(0);
    // a FHIR resource is laid out as a tree, its finding's element highlighted and described from the lookup
    await page.fill('#validate-message', JSON.stringify({ resourceType: 'Patient', gender: 'robot', birthDate: '1961-06-15' }));
    await page.click('#validate-run');
    await page.waitForSelector('#detected-standard:text-is("HL7 FHIR R4")');
    const gender = page.locator('.tree .field.marked[data-path="Patient.gender"]');
    await gender.hover();
    await page.waitForSelector('.tree .field-tip:has-text("administrative-gender")');
    // the mode chosen on the page is in the address
    await page.selectOption('#validate-mode', 'compatibility');
    expect(new URL(page.url()).searchParams.get('mode')).toBe('compatibility');
  }, 90_000);

  /** Validates `text` on the page and answers the part marked at `path`. */
  async function validatedMark(text: string, layout: string, path: string) {
    await page.fill('#validate-message', text);
    await page.click('#validate-run');
    await page.waitForSelector(`#validation-result ${layout}`, { timeout: 60_000 });
    expect(await page.textContent('#verdict')).toContain('Invalid');
    const marked = page.locator(`#validation-result ${layout} .field.marked`);
    expect(await marked.evaluateAll((parts) => parts.map((part) => part.getAttribute('data-path')))).toContain(path);
    return page.locator(`#validation-result ${layout} .field.marked[data-path="${path}"]`).first();
  }

  it('highlights the findings in place in FHIR XML, NCPDP SCRIPT and NCPDP D.0 from the positions of the validation', async () => {
    await open('/');
    // FHIR XML: the tree of elements, the element of the finding marked and described
    const gender = await validatedMark('<Patient xmlns="http://hl7.org/fhir"><gender value="robot"/><birthDate value="1961-06-15"/></Patient>', '#raw.tree', 'Patient.gender');
    await gender.hover();
    await page.waitForSelector('#raw .field-tip:has-text("administrative-gender")');
    // NCPDP SCRIPT: the message's elements, the patient's gender marked
    await validatedMark(`${SCRIPT_NEWRX_HEAD}${SCRIPT_NEWRX_TAIL}`.replace(/<Gender>[^<]*<\/Gender>/, '<Gender>Q</Gender>'), '#raw.tree', 'NewRx.Patient.HumanPatient.Gender');
    expect(await seriousViolations(page)).toEqual([]);
    // NCPDP D.0: a claim by segment and field, the date written (AM07.DE) marked and named
    const claim = (await wb.call('bridge', { method: 'POST', path: '/api/generate', body: { standard: 'ncpdp', messageType: 'B1', count: 1 } })).json.data[0] as string;
    const date = await validatedMark(claim.replace(/\u001cDE\d{8}/, '\u001cDE20261399'), '#raw.ncpdp', 'AM07.DE');
    await date.hover();
    await page.waitForSelector('#raw .field-tip:has-text("Date Prescription Written")');
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.problems).toEqual([]);
  }, 120_000);

  it('compares two messages, highlights the changes, and ignores a field from the page', async () => {
    await open('/?tab=diff');
    await page.fill('#diff-left', FIXED);
    await page.fill('#diff-right', FIXED.replace('MSG00001', 'MSG00002').replace('EVERYMAN^ADAM', 'EVERYMAN^ADAMS'));
    await page.click('#diff-run');
    await page.waitForSelector('#diff-summary');
    expect(await page.textContent('#diff-summary')).toMatch(/^2 difference/);
    expect(await page.locator('#diff-result .side-by-side .field.marked').count()).toBeGreaterThanOrEqual(4);
    await page.click('button[aria-label="Ignore MSH.10"]');
    await page.waitForSelector('#diff-summary:text-matches("^1 difference")');
    expect(new URL(page.url()).searchParams.get('ignore')).toBe('MSH.10');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await screenshot(page, 'bridge-diff')).toBe(true);
    // at 800 px the two sides stack, and nothing is wider than the window
    await page.setViewportSize({ width: 800, height: 1000 });
    await page.waitForTimeout(100);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(800);
    await page.setViewportSize({ width: 1200, height: 1000 });
  }, 60_000);

  it('generates messages and journeys with the parameters in the address, and sends one to Validate', async () => {
    await open('/?tab=generate&type=ADT%5EA04&gversion=2.5.1&count=2&seed=7');
    await page.click('#generate-run');
    await page.waitForSelector('#generated');
    expect(await page.locator('#generated pre').count()).toBe(2);
    expect(await page.textContent('#generated pre')).toContain('ADT^A04');
    await open('/?tab=generate&scenario=admission&patients=1&seed=3&faults=drop:ORM%5EO01&start=2025-06-15T08:00:00Z');
    expect(await page.textContent('.faults')).toContain('drop ORM^O01');
    await page.click('#generate-run');
    await page.waitForSelector('#generated');
    const journey = await page.locator('#generated pre').allTextContents();
    expect(journey).toHaveLength(3);
    expect(journey.join('\n')).not.toContain('ORM^O01');
    expect(journey[0]).toContain('|20250615080000');
    expect(await seriousViolations(page)).toEqual([]);
    await page.click('#generated li:first-child button:has-text("Validate this")');
    await page.waitForSelector('#validate-message');
    const admission = await page.inputValue('#validate-message');
    expect(admission).toContain('ADT^A01');
    // de-identified: the patient's identifiers are replaced and counted, no value is reported
    await open('/?tab=deidentify');
    await page.fill('#deidentify-message', admission);
    await page.click('#deidentify-run');
    await page.waitForSelector('#deidentified');
    expect(await page.locator('#replacements tbody tr').count()).toBeGreaterThan(0);
    const name = admission.split(/\r|\n/).find((line) => line.startsWith('PID|'))?.split('|')[5]?.split('^')[0] as string;
    expect(name).toBeTruthy();
    expect(await page.inputValue('#deidentified-text')).not.toContain(name);
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it('looks a field up with its codes and follows a child; readable at 800 px', async () => {
    await open('/?tab=lookup&path=PID.8&lversion=2.5.1');
    await page.waitForSelector('#lookup-facts');
    expect(await page.textContent('#lookup-facts')).toContain('Administrative Sex');
    expect(await page.textContent('#lookup-codes')).toContain('Female');
    await open('/?tab=lookup&path=PID.5&lstandard=hl7&lversion=2.5.1');
    await page.click('#lookup-children a:text-is("PID.5.1")');
    await page.waitForSelector('#lookup-result h3:has-text("Family Name")');
    expect(new URL(page.url()).searchParams.get('path')).toBe('PID.5.1');
    expect(await page.inputValue('#lookup-path')).toBe('PID.5.1');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await screenshot(page, 'bridge-lookup')).toBe(true);
    // a path the definitions lack is said so on the page, and is no failed request in the console
    await open('/?tab=lookup&path=PID.99&lstandard=hl7');
    await page.waitForSelector('#lookup-missing');
    expect(await page.textContent('#lookup-missing')).toContain('PID.99');
    await page.setViewportSize({ width: 800, height: 1000 });
    await page.waitForTimeout(100);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(800);
    for (const url of watched.requests) expect(new URL(url).origin).toBe(new URL(wb.urls.bridge).origin);
    expect(watched.problems).toEqual([]);
  }, 60_000);
});
