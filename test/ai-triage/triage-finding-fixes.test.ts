/**
 * Triage answers the finding itself (POST /api/monitor/triage, offline engine): a bad code names the codes allowed,
 * an impossible date says it is impossible; neither repeats the value found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';

let wb: TestWorkbench;
beforeAll(async () => {
  wb = await startTestWorkbench();
});
afterAll(async () => {
  await wb?.stop();
});

const triage = async (messageContent: string) => {
  const res = await wb.call('bridge', { method: 'POST', path: '/api/monitor/triage', body: { messageContent } });
  expect(res.status).toBe(200);
  return res.json.data as { category: string; suggestedFixes: Array<{ side: string; field: string; action: string }> };
};

describe('triage fixes from what the finding expected', () => {
  it('names the allowed codes of a bad FHIR code instead of a generic translation', async () => {
    const data = await triage(JSON.stringify({ resourceType: 'Patient', gender: 'mail' }));
    expect(data.category).toBe('wrong-code');
    expect(data.suggestedFixes[0]).toMatchObject({ side: 'sender', field: 'Patient.gender' });
    expect(data.suggestedFixes[0]?.action).toContain('male, female, other, unknown');
    expect(data.suggestedFixes.some((fix) => /Translate the local code/.test(fix.action))).toBe(false);
  });

  it('says an impossible date is impossible, without repeating it', async () => {
    const data = await triage(JSON.stringify({ resourceType: 'Patient', birthDate: '1947-02-30' }));
    expect(data.category).toBe('date-time-format');
    expect(data.suggestedFixes[0]?.field).toBe('Patient.birthDate');
    expect(data.suggestedFixes[0]?.action).toMatch(/impossible date/);
    expect(data.suggestedFixes[0]?.action).toContain('YYYY[-MM[-DD]]');
    expect(JSON.stringify(data)).not.toContain('1947-02-30');
  });
});
