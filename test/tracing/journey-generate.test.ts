// POST /api/generate with a scenario: patient journeys whose MRN, account and visit agree across the steps, MSH-7
// increasing, MSH-13 counting per feed, and each fault doing what it says; the options validated with 400s naming
// the field.
import { describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';
import { parseMessageTime } from '../../plugins/hl7-standard/reading/hl7-message-time.ts';

/** Field `n` (HL7 numbering) of the first segment named `name`. */
function field(message: string, name: string, n: number): string {
  const segment = message.split('\r').find((s) => s.startsWith(`${name}|`));
  if (!segment) throw new Error(`no ${name} segment`);
  return segment.split('|')[name === 'MSH' ? n - 1 : n] ?? '';
}

const mrn = (m: string) => field(m, 'PID', 3).split('~')[0]!.split('^')[0];
const type = (m: string) => field(m, 'MSH', 9).split('^').slice(0, 2).join('^');
const time = (m: string) => parseMessageTime(field(m, 'MSH', 7))!;

describe('patient journeys from POST /api/generate', () => {
  const wb = useTestWorkbench({ config: { plugins: { analytics: { enabled: false }, deidentify: { enabled: false } } } });
  const generate = (body: unknown) => wb.call('bridge', { method: 'POST', path: '/api/generate', body });

  it('gives each patient the four admission steps with one MRN, account and visit, times going up', async () => {
    const answer = await generate({ scenario: 'admission', patients: 3, seed: 42, hl7Version: '2.5', start: '2026-03-02T08:00:00Z' });
    expect(answer.status).toBe(200);
    const messages: string[] = answer.json.data;
    expect(messages.map(type)).toEqual(Array.from({ length: 3 }, () => ['ADT^A01', 'ORM^O01', 'ORU^R01', 'ADT^A03']).flat());
    for (let p = 0; p < 3; p++) {
      const journey = messages.slice(p * 4, p * 4 + 4);
      expect(new Set(journey.map(mrn)).size).toBe(1);
      expect(new Set(journey.map((m) => field(m, 'PID', 18))).size).toBe(1);
      expect(new Set(journey.map((m) => field(m, 'PV1', 19))).size).toBe(1);
      const times = journey.map(time);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(journey.map((m) => Number(field(m, 'MSH', 13)))).toEqual([p + 1, p + 1, p + 1, p + 1]);
    }
    expect(new Set(messages.map(mrn)).size).toBe(3);
    expect(new Set(messages.map((m) => field(m, 'MSH', 10))).size).toBe(12);
    expect(time(messages[0]!)).toBe(Date.parse('2026-03-02T08:00:00Z'));
    const again = await generate({ scenario: 'admission', patients: 3, seed: 42, hl7Version: '2.5', start: '2026-03-02T08:00:00Z' });
    expect(again.json.data).toEqual(messages);
  });

  it('generates messages the validator accepts', async () => {
    const messages: string[] = (await generate({ scenario: 'admission', seed: 7, hl7Version: '2.5' })).json.data;
    expect(messages).toHaveLength(4);
    for (const message of messages) {
      const verdict = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: message, standard: 'hl7' } });
      expect(verdict.json.data.errors).toEqual([]);
      expect(verdict.json.data.isValid).toBe(true);
    }
  });

  it('drops, delays, duplicates, resends and skips as asked', async () => {
    const messages: string[] = (
      await generate({
        scenario: 'admission',
        patients: 2,
        seed: 5,
        start: '2026-03-02T08:00:00Z',
        faults: [
          { kind: 'drop', step: 'ORM^O01', patient: 1 },
          { kind: 'delay', step: 'ORU^R01', patient: 2, delayMs: -8_100_000 },
          { kind: 'duplicate-control-id', step: 'ADT^A03', patient: 2 },
          { kind: 'resend', step: 'ADT^A01', patient: 2 },
          { kind: 'skip-sequence-number', step: 'ORU^R01', patient: 2 },
        ],
      })
    ).json.data;
    expect(messages.map(type)).toEqual(['ADT^A01', 'ORU^R01', 'ADT^A03', 'ADT^A01', 'ADT^A01', 'ORM^O01', 'ORU^R01', 'ADT^A03', 'ADT^A03']);
    // Patient 2: the result moved 2 h 15 min earlier, before its order (15 min after the admission).
    expect(time(messages[6]!)).toBeLessThan(time(messages[5]!));
    expect(time(messages[6]!) - time(messages[3]!)).toBe(15 * 60_000);
    // The resend is byte for byte; the duplicate shares MSH-10 with other content.
    expect(messages[4]).toBe(messages[3]);
    expect(field(messages[8]!, 'MSH', 10)).toBe(field(messages[7]!, 'MSH', 10));
    expect(messages[8]).not.toBe(messages[7]);
    // MSH-13 per feed: ORM of patient 1 was lost on the way (2 follows nothing), ORU of patient 2 skipped 2.
    expect(Number(field(messages[5]!, 'MSH', 13))).toBe(2);
    expect(Number(field(messages[6]!, 'MSH', 13))).toBe(3);
  });

  it.each([
    [{ scenario: 'discharge' }, 'scenario'],
    [{ scenario: 'admission', patients: 0 }, 'patients'],
    [{ scenario: 'admission', patients: 101 }, 'patients'],
    [{ scenario: 'admission', messageType: 'ADT^A01' }, 'messageType'],
    [{ scenario: 'admission', standard: 'fhir' }, 'standard'],
    [{ scenario: 'admission', faults: [{ kind: 'drop', step: 'SIU^S12' }] }, 'faults.0.step'],
    [{ scenario: 'admission', faults: [{ kind: 'melt', step: 'ADT^A01' }] }, 'faults.0.kind'],
    [{ scenario: 'admission', patients: 2, faults: [{ kind: 'drop', step: 'ADT^A01', patient: 3 }] }, 'faults.0.patient'],
    [{ scenario: 'admission', faults: [{ kind: 'delay', step: 'ADT^A01' }] }, 'faults.0.delayMs'],
    [{ scenario: 'admission', start: 'yesterday' }, 'start'],
    [{ patients: 3 }, 'patients'],
  ])('refuses %j with 400 naming %s', async (body, path) => {
    const answer = await generate(body);
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('VALIDATION_FAILED');
    expect(answer.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});
