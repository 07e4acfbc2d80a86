/**
 * Screenshots of the pages for the docs: written into `docs/` when WORKBENCH_UPDATE_SCREENSHOT=1 (so a test run
 * leaves the tree as it was), otherwise into a temporary folder that is removed; either way the file is checked to
 * be a PNG.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';

/** Saves the whole page as `docs/<name>.png` (on request) and answers whether a PNG was written. */
export async function screenshot(page: Page, name: string): Promise<boolean> {
  const keep = Boolean(process.env.WORKBENCH_UPDATE_SCREENSHOT);
  const dir = keep ? resolve(import.meta.dirname, '../../docs') : mkdtempSync(join(tmpdir(), 'page-shot-'));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  const isPng = readFileSync(path).subarray(1, 4).toString('latin1') === 'PNG';
  if (!keep) rmSync(dir, { recursive: true, force: true });
  return isPng;
}
