// `workbench generate --scenario admission --split-by-type DIR` through the real CLI entry: one file per message in a
// folder per message type, each readable as one HL7 message; faults and bad flags on the command line.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'wb-journey-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const workbench = (...args: string[]) => runCli(join(dir, 'data'), ...args);

describe('workbench generate --scenario', () => {
  it('writes each message as a file under a folder per message type, in journey order', () => {
    const out = join(dir, 'split');
    const run = workbench('generate', '--scenario', 'admission', '--patients', '5', '--seed', '9', '--split-by-type', out, '--drop', 'ORM^O01:2', '--resend', 'ADT^A01:1');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['ADT_A01', 'ADT_A03', 'ORM_O01', 'ORU_R01']);
    expect(readdirSync(join(out, 'ADT_A01'))).toHaveLength(6);
    expect(readdirSync(join(out, 'ORM_O01'))).toHaveLength(4);
    expect(run.out).toContain(`${join(out, 'ORU_R01')}: 5 files`);
    const files = readdirSync(join(out, 'ORU_R01')).sort();
    const first = readFileSync(join(out, 'ORU_R01', files[0]!), 'utf8');
    expect(first.startsWith('MSH|^~\\&|')).toBe(true);
    expect(first.split('\r')[0]!.split('|')[8]).toBe('ORU^R01');
    expect(first.split('\r')[0]!.split('|')[12]).toBe('1');
    // The resent A01 of patient 1 is the same bytes under another file name.
    const a01 = readdirSync(join(out, 'ADT_A01')).sort();
    expect(readFileSync(join(out, 'ADT_A01', a01[0]!), 'utf8')).toBe(readFileSync(join(out, 'ADT_A01', a01[1]!), 'utf8'));
  });

  it('prints the journeys without --split-by-type, the same for the same seed', () => {
    const once = workbench('generate', '--scenario', 'admission', '--seed', '3', '--start', '2026-03-02T08:00:00Z');
    expect(once.code).toBe(0);
    expect(once.out.match(/^MSH\|/gm)).toHaveLength(4);
    expect(once.out).toContain('|20260302080000+0000||ADT^A01|');
    expect(workbench('generate', '--scenario', 'admission', '--seed', '3', '--start', '2026-03-02T08:00:00Z').out).toBe(once.out);
  });

  it.each([
    [['--scenario', 'discharge'], '--scenario must be one of admission'],
    [['--scenario', 'admission', '--patients', '0'], '--patients must be a whole number'],
    [['--scenario', 'admission', '--type', 'ADT^A01'], 'Give --type or --scenario'],
    [['--scenario', 'admission', '--delay', 'ORU^R01'], '--delay takes STEP:MS'],
    [['--scenario', 'admission', '--drop', 'SIU^S12'], 'faults.0.step: SIU^S12 is not a step of admission'],
    [['--scenario', 'admission', '--start', 'soon'], '--start must be an ISO 8601 instant'],
  ])('refuses %j with exit code 2', (args, message) => {
    const run = workbench('generate', ...args);
    expect(run.code).toBe(2);
    expect(run.err).toContain(message);
  });
});
