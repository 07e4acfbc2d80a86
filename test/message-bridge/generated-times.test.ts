// Generated data is stamped near now, so the workbench's own monitor does not read it as stale, late or from the
// future: POST /api/generate and `workbench generate` put MSH-7 in the minute before now (seeded or not; a seed keeps
// everything else the same, and an explicit referenceTime makes the output the same byte for byte); journeys end
// now, each step's EVN-2 and EVN-6 agreeing with its MSH-7; an A01 is an inpatient admission at its event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { runCli } from '../helpers/cli-process.ts';
import { parseMessageTime } from '../../plugins/hl7-standard/reading/hl7-message-time.ts';

/** Field `n` (HL7 numbering) of the first segment named `name`. */
function field(message: string, name: string, n: number): string {
  const segment = message.split('\r').find((s) => s.startsWith(`${name}|`));
  if (!segment) throw new Error(`no ${name} segment`);
  return segment.split('|')[name === 'MSH' ? n - 1 : n] ?? '';
}
const at = (value: string) => parseMessageTime(value)!;
/** A message without the fields that carry the time (MSH-7, MSH-10 built from it, every TS value). */
const timeless = (message: string) => message.replace(/\|\d{14}[^|^~\r]*/g, '|T').replace(/\^\d{14}[^|^~\r]*/g, '^T');

describe('generated times', () => {
  let wb: TestWorkbench;
  const generate = (body: unknown) => wb.call('bridge', { method: 'POST', path: '/api/generate', body });
  const dir = mkdtempSync(join(tmpdir(), 'wb-generated-times-'));
  beforeAll(async () => {
    wb = await startTestWorkbench({ config: { plugins: { analytics: { enabled: false }, deidentify: { enabled: false } } } });
  });
  afterAll(async () => {
    await wb?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stamps seeded and unseeded messages in the minute before now; an A01 is an inpatient admission at its event', async () => {
    for (const body of [{ messageType: 'ADT^A01', count: 5, seed: 7 }, { messageType: 'ADT^A01', count: 5 }]) {
      const before = Date.now();
      const answer = await generate(body);
      const after = Date.now();
      expect(answer.status).toBe(200);
      for (const message of answer.json.data as string[]) {
        const sent = at(field(message, 'MSH', 7));
        expect(sent).toBeGreaterThan(before - 61_000);
        expect(sent).toBeLessThanOrEqual(after);
        expect(at(field(message, 'EVN', 2))).toBe(sent);
        expect(at(field(message, 'EVN', 6))).toBeLessThanOrEqual(sent);
        expect(field(message, 'PV1', 2)).toBe('I');
        expect(field(message, 'PV1', 44)).toBe(field(message, 'EVN', 6));
      }
    }
  });

  it('keeps everything but the times the same for a seed, and the same byte for byte with a referenceTime', async () => {
    const first = (await generate({ messageType: 'ADT^A08', count: 3, seed: 11 })).json.data as string[];
    const second = (await generate({ messageType: 'ADT^A08', count: 3, seed: 11 })).json.data as string[];
    expect(second.map(timeless)).toEqual(first.map(timeless));
    const fixed = { messageType: 'ADT^A08', count: 3, seed: 11, referenceTime: '2026-03-02T08:00:00Z' };
    const one = (await generate(fixed)).json.data as string[];
    expect((await generate(fixed)).json.data).toEqual(one);
    for (const message of one) {
      const sent = at(field(message, 'MSH', 7));
      expect(sent).toBeLessThanOrEqual(Date.parse('2026-03-02T08:00:00Z'));
      expect(sent).toBeGreaterThan(Date.parse('2026-03-02T07:59:00Z'));
    }
    expect((await generate({ scenario: 'admission', referenceTime: '2026-03-02T08:00:00Z' })).status).toBe(400);
  });

  it('starts a journey in the past so that its last step is now, EVN agreeing with MSH-7, the stay inpatient', async () => {
    const before = Date.now();
    const answer = await generate({ scenario: 'admission', patients: 2, seed: 5 });
    expect(answer.status).toBe(200);
    const messages = answer.json.data as string[];
    const times = messages.map((m) => at(field(m, 'MSH', 7)));
    expect(Math.max(...times)).toBeLessThanOrEqual(Date.now());
    expect(Math.max(...times)).toBeGreaterThan(before - 61_000);
    const has = (message: string, name: string) => message.split('\r').some((s) => s.startsWith(`${name}|`));
    const withEvn = messages.filter((m) => has(m, 'EVN'));
    const withPv1 = messages.filter((m) => has(m, 'PV1'));
    expect(withEvn.length).toBeGreaterThanOrEqual(4);
    expect(withPv1.length).toBeGreaterThanOrEqual(1);
    expect(withEvn.map((m) => at(field(m, 'EVN', 2)))).toEqual(withEvn.map((m) => at(field(m, 'MSH', 7))));
    expect(new Set(withPv1.map((m) => field(m, 'PV1', 2)))).toEqual(new Set(['I']));
  });

  it('stamps `workbench generate` output near now too, and at --reference-time when given', () => {
    const before = Date.now();
    const now = runCli(join(dir, 'data'), 'generate', '--seed', '3', '--count', '2');
    expect(now.code).toBe(0);
    for (const message of now.out.split(/(?=MSH\|)/)) expect(at(field(message, 'MSH', 7))).toBeGreaterThan(before - 61_000);
    const fixed = runCli(join(dir, 'data'), 'generate', '--seed', '3', '--reference-time', '2026-03-02T08:00:00Z');
    expect(at(field(fixed.out, 'MSH', 7))).toBeLessThanOrEqual(Date.parse('2026-03-02T08:00:00Z'));
    expect(runCli(join(dir, 'data'), 'generate', '--reference-time', 'soon').code).toBe(2);
  });
});
