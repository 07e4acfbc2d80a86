// Bounded results through real HTTP: a validation lists at most plugins.message-bridge.maxIssues findings (errors
// before warnings) with exact totals by severity and code, a diff at most maxDifferences differences with exact
// totals; no listed finding or difference repeats more than an excerpt of the input.
import { describe, expect, it } from 'vitest';
import { startTestWorkbench, useTestWorkbench } from '../helpers/test-workbench.ts';

const MAX = 7;
const wb = useTestWorkbench({ config: { plugins: { 'message-bridge': { maxIssues: MAX, maxDifferences: MAX } } } });
const post = (path: string, body: unknown) => wb.call('bridge', { path, body });

const HL7_HEAD = 'MSH|^~\\&|LAB|HOSP|ELR|DOH|20250615120000||ADT^A08^ADT_A01|MSG1|P|2.5.1\rEVN|A08|20250615120000\rPID|1||P1^^^HOSP^MR||DOE^JANE||19610615|F\rPV1|1|O';
const scriptWithHeader = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Message xmlns="http://www.ncpdp.org/schema/SCRIPT"><Header>${inner}</Header><Body><Status/></Body></Message>`;

interface Result {
  isValid: boolean;
  errors: Array<{ code: string; severity: string; field: string; message: string }>;
  warnings: Array<{ code: string; severity: string; field: string; message: string }>;
  totals: { errors: number; warnings: number; byCode: Record<string, number> };
  truncated: boolean;
}

/** The invariants of every bounded result: lists within the bound, totals consistent with each other and the lists. */
function expectBounded(result: Result, max: number): void {
  expect(result.errors.length + result.warnings.length).toBeLessThanOrEqual(max);
  const sum = Object.values(result.totals.byCode).reduce((a, b) => a + b, 0);
  expect(sum).toBe(result.totals.errors + result.totals.warnings);
  expect(result.truncated).toBe(result.errors.length + result.warnings.length < sum);
  expect(result.isValid).toBe(result.totals.errors === 0);
  for (const issue of [...result.errors, ...result.warnings]) {
    expect(issue.field.length).toBeLessThan(260);
    expect(issue.message.length).toBeLessThanOrEqual(1_100);
  }
}

describe('validation results', () => {
  it('list at most maxIssues findings with exact totals, for every standard', async () => {
    const cases = [
      { standard: 'hl7', messageContent: `${HL7_HEAD}\r${Array.from({ length: 40 }, (_, i) => `ZZZ|${i}`).join('\r')}`, code: 'SEGMENT_UNEXPECTED', count: 40 },
      {
        standard: 'fhir',
        messageContent: JSON.stringify({ resourceType: 'Patient', ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`unknown${i}`, true])) }),
        code: 'UNKNOWN_ELEMENT',
        count: 30,
      },
      { standard: 'ncpdp', messageContent: scriptWithHeader('<Stray>1</Stray>'.repeat(25)), code: 'UNKNOWN_ELEMENT', count: 25 },
    ];
    for (const { standard, messageContent, code, count } of cases) {
      const res = await post('/api/validate', { messageContent, standard });
      expect(res.status, standard).toBe(200);
      const result = res.json.data as Result;
      expectBounded(result, MAX);
      expect(result.truncated, standard).toBe(true);
      expect(result.errors.length + result.warnings.length, standard).toBe(MAX);
      expect(result.totals.byCode[code], standard).toBeGreaterThanOrEqual(count);
    }
  });

  it('list errors before warnings when not all fit', async () => {
    // Compatibility mode: the Z-segments are warnings found first, the bad dates errors found after them.
    const content = `${HL7_HEAD.replace('19610615', '1961-06-15')}\r${Array.from({ length: 20 }, (_, i) => `ZZZ|${i}`).join('\r')}\rOBX|1|DT|X^Y^L||not a date||||||F`;
    const res = await post('/api/validate', { messageContent: content, standard: 'hl7', mode: 'compatibility' });
    const result = res.json.data as Result;
    expectBounded(result, MAX);
    expect(result.totals.warnings).toBeGreaterThanOrEqual(20);
    expect(result.totals.errors).toBeGreaterThanOrEqual(2);
    expect(result.errors).toHaveLength(result.totals.errors);
    expect(result.isValid).toBe(false);
  });

  it('bound per-message results of a multi-message input and keep every count exact', async () => {
    const messages = Array.from({ length: 30 }, (_, i) => HL7_HEAD.replace('MSG1', `MSG${i}`).replace('|P1^', '|^'));
    const res = await post('/api/validate', { messageContent: messages.join('\r'), standard: 'hl7' });
    const result = res.json.data as Result & { messages: unknown[]; summary: { messageCount: number } };
    expectBounded(result, MAX);
    expect(result.messages.length).toBeLessThanOrEqual(MAX);
    expect(result.summary.messageCount).toBe(30);
    expect(result.totals.byCode.REQUIRED_FIELD_MISSING).toBeGreaterThanOrEqual(30);
  });
});

describe('excerpts', () => {
  it('never quote more than 200 characters of a value, a name or a path, in any standard', async () => {
    const huge = 'Q'.repeat(100_000);
    const cases = [
      { standard: 'hl7', messageContent: HL7_HEAD.replace('19610615', huge).replace('ADT^A08^ADT_A01', `ADT^${huge}`) },
      { standard: 'fhir', messageContent: JSON.stringify({ resourceType: 'Patient', birthDate: huge, [huge.toLowerCase()]: 1, gender: huge }) },
      { standard: 'ncpdp', messageContent: scriptWithHeader(`<MessageID>${huge}</MessageID><SentTime>${huge}</SentTime>`) },
      { standard: 'ncpdp', messageContent: scriptWithHeader(`<${huge}>1</${huge}>`) },
    ];
    for (const { standard, messageContent } of cases) {
      const res = await post('/api/validate', { messageContent, standard, mode: 'strict' });
      expect(res.status, standard).toBe(200);
      const result = res.json.data as Result;
      expectBounded(result, MAX);
      expect(result.errors.length, standard).toBeGreaterThan(0);
      for (const issue of [...result.errors, ...result.warnings]) {
        for (const letter of ['Q', 'q']) {
          expect(issue.message, `${standard} ${issue.code}`).not.toContain(letter.repeat(201));
          expect(issue.field, `${standard} ${issue.code}`).not.toContain(letter.repeat(201));
        }
      }
      // The result as a whole (summary facts included) stays small.
      expect(res.text.length, standard).toBeLessThan(20_000);
    }
  });
});

describe('the reproduction of issue 8', () => {
  it('answers 350,000 bare MSH lines with a small, bounded result', async () => {
    // A generous time budget: this test is about the size of the answer; its speed is measured by the bench.
    const big = await startTestWorkbench({ config: { work: { timeBudgetMs: 120_000 } } });
    try {
      const body = 'MSH|^~\\&|\r\n'.repeat(350_000);
      const res = await big.call('bridge', { path: '/api/validate?standard=hl7', rawBody: body, headers: { 'content-type': 'text/plain' } });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(res.text.length).toBeLessThan(1_000_000);
      const result = res.json.data as Result & { messages: unknown[]; summary: { messageCount: number } };
      expectBounded(result, 1_000);
      expect(result.errors).toHaveLength(1_000);
      expect(result.truncated).toBe(true);
      expect(result.summary.messageCount).toBe(350_000);
      expect(result.messages).toHaveLength(1_000);
      // Four required fields of MSH are empty in each of them.
      expect(result.totals.errors).toBe(4 * 350_000);
    } finally {
      await big.stop();
    }
  });
});

describe('diff results', () => {
  it('list at most maxDifferences differences with exact totals by change type', async () => {
    const left = `${HL7_HEAD}\r${Array.from({ length: 20 }, (_, i) => `NTE|${i + 1}||left ${i}`).join('\r')}`;
    const right = `${HL7_HEAD}\r${Array.from({ length: 25 }, (_, i) => `NTE|${i + 1}||right ${i}`).join('\r')}`;
    const res = await post('/api/diff', { leftMessage: left, rightMessage: right });
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.differences).toHaveLength(MAX);
    expect(data.totalDifferences).toBe(25);
    expect(data.totals).toEqual({ modified: 20, added: 5, removed: 0 });
    expect(data.truncated).toBe(true);
    const small = await post('/api/diff', { leftMessage: HL7_HEAD, rightMessage: HL7_HEAD.replace('DOE^JANE', 'DOE^JOAN') });
    expect(small.json.data).toMatchObject({ totalDifferences: 1, totals: { modified: 1, added: 0, removed: 0 }, truncated: false });
  });

  it('shows long values as an excerpt saying how much was left out', async () => {
    // Short enough to stay on the event loop (work.inlineBelowBytes), long enough to be cut.
    const long = 'A'.repeat(10_000);
    const res = await post('/api/diff', { leftMessage: HL7_HEAD, rightMessage: HL7_HEAD.replace('DOE^JANE', `DOE^${long}`) });
    const [difference] = res.json.data.differences;
    expect(difference.field).toBe('PID.5.2');
    expect(difference.rightValue).toBe(`${'A'.repeat(200)}… (9800 more characters)`);
  });
});
