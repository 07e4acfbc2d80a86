// POST /api/monitor/triage through the real HTTP interface: the enterprise tier checked in the handler (402 below),
// 400 naming the field for bad bodies, unreadable content triaged as a parse failure, and the optional model that
// sees only structure and the de-identified message (a local chat-completions server records what reaches it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorkbench, useTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { startChatCompletionsRecorder, type ChatCompletionsRecorder } from '../helpers/chat-completions-recorder.ts';

/** A message full of PHI, failing for an empty PV1-2 and a local sex code. */
const PHI_MESSAGE = [
  'MSH|^~\\&|REG|HOSP|LAB|HOSP|20250615120000+0000||ADT^A01^ADT_A01|MSG00077|P|2.5.1',
  'EVN||20250615120000+0000',
  'PID|1||MRN99887766^^^HOSP^MR~123-45-6789^^^USSSA^SS||QUINTANILLA^ROSALIND^M||19470312|F|||8841 WILLOWBROOK LANE^^SPRINGFIELD^IL^62704||(217)555-0142^PRN^PH^rosalind.q@mail.example|||||ACCT44556677|123-45-6789',
  'NK1|1|QUINTANILLA^BARNABY|SPO^SPOUSE|8841 WILLOWBROOK LANE^^SPRINGFIELD^IL^62704|(217)555-0199',
  'PV1|1||2000^2012^01||||004777^HOUSEMAN^GREGORY',
].join('\r');

/** Every PHI value of the message (names, ids, birth date, address, phones, SSN, e-mail). */
const PHI_VALUES = ['QUINTANILLA', 'ROSALIND', 'BARNABY', 'MRN99887766', '123-45-6789', '19470312', '8841', 'WILLOWBROOK', 'SPRINGFIELD', '62704', '555-0142', '555-0199', 'rosalind.q', 'ACCT44556677', 'HOUSEMAN', 'GREGORY'];

const triage = (wb: TestWorkbench, body: unknown) => wb.call('bridge', { method: 'POST', path: '/api/monitor/triage', body });

describe('POST /api/monitor/triage', () => {
  const wb = useTestWorkbench();

  it('explains a failed message: root cause, fixes naming fields and sides, affected fields with meanings', async () => {
    const response = await triage(wb, { messageContent: PHI_MESSAGE, interfaceContext: 'ADT from registration' });
    expect(response.status).toBe(200);
    const data = response.json.data;
    expect(data.engine).toBe('rules');
    expect(data.category).toBe('missing-data');
    expect(data.rootCause).toMatch(/PV1\.2/);
    expect(data.affectedFields).toContainEqual(expect.objectContaining({ path: 'PV1.2', name: 'Patient Class' }));
    expect(data.suggestedFixes[0]).toMatchObject({ order: 1, side: 'sender', field: 'PV1.2' });
    expect(data.confidence).toBeGreaterThan(0.5);
    const text = JSON.stringify(data);
    for (const value of PHI_VALUES) expect(text).not.toContain(value);
  });

  it('triages the findings it is given, and unreadable content as a parse failure (never a 500)', async () => {
    const given = await triage(wb, { messageContent: PHI_MESSAGE, validationErrors: ['PID.8 VALUE_NOT_IN_TABLE: not in table 0001'] });
    expect(given.status).toBe(200);
    expect(given.json.data).toMatchObject({ category: 'wrong-code', knowledgeEntry: 'hl7.value-not-in-table' });
    for (const content of ['', 'this is not a message', '{"resourceType": "Pat', '<<<>>>']) {
      const response = await triage(wb, { messageContent: content });
      expect(response.status, content).toBe(200);
      expect(response.json.data.category, content).toBe('parse-failure');
    }
  });

  it('answers 400 naming the field for a missing or wrong-typed body field', async () => {
    for (const [body, field] of [
      [{}, 'messageContent'],
      [{ messageContent: 5 }, 'messageContent'],
      [{ messageContent: PHI_MESSAGE, validationErrors: 'PID.5' }, 'validationErrors'],
      [{ messageContent: PHI_MESSAGE, interfaceContext: 7 }, 'interfaceContext'],
    ] as const) {
      const response = await triage(wb, body);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.json.error)).toContain(field);
    }
  });
});

describe('tier', () => {
  it('answers 402 TIER_REQUIRED below enterprise on every triage route, after the body is checked', async () => {
    const wb = await startTestWorkbench({ config: { tier: 'professional' } });
    try {
      const response = await triage(wb, { messageContent: PHI_MESSAGE });
      expect(response.status).toBe(402);
      expect(response.json.error.code).toBe('TIER_REQUIRED');
      for (const path of ['/api/monitor/patterns', '/api/monitor/summary', '/api/monitor/upgrade-check']) {
        const other = await wb.call('bridge', { method: 'POST', path, body: { interfaceId: 'x' } });
        expect(other.status, path).toBe(402);
      }
    } finally {
      await wb.stop();
    }
  });
});

describe('optional model', () => {
  let recorder: ChatCompletionsRecorder;
  let baseUrl: string;
  const received: string[] = [];
  let mode: 'answer' | 'slow' | 'garbage' = 'answer';
  // A fixed de-identification key: the pseudonyms, and so this test's outcome, are the same on every run (a random
  // key could, once in a while, make a pseudonym that happens to contain an original digit run).
  const keyDir = mkdtempSync(join(tmpdir(), 'triage-key-'));
  const keyFile = join(keyDir, 'deidentify.key');
  writeFileSync(keyFile, '5a'.repeat(32) + '\n', { mode: 0o600 });
  const llmConfig = (llm: Record<string, unknown>) => ({ plugins: { deidentify: { keyFile }, 'ai-triage': { llm } } });
  beforeAll(async () => {
    recorder = await startChatCompletionsRecorder((body) => {
      received.push(body);
      if (mode === 'slow') return undefined;
      return mode === 'garbage'
        ? 'I cannot answer in JSON today.'
        : JSON.stringify({ rootCause: 'The admission arrived without a patient class.', explanation: 'PV1-2 tells the receiver whether the patient is an inpatient.', additionalFixes: [{ side: 'receiver', field: 'PV1.2', action: 'Default nothing: ask the sender.' }] });
    });
    baseUrl = recorder.baseUrl;
  });
  afterAll(async () => {
    await recorder.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('rephrases the offline answer, and no value of any PHI field reaches the model', async () => {
    const wb = await startTestWorkbench({ config: llmConfig({ enabled: true, baseUrl, model: 'local-test-model', timeoutMs: 1_000 }) });
    try {
      mode = 'answer';
      received.length = 0;
      const response = await triage(wb, { messageContent: PHI_MESSAGE, interfaceContext: 'patient QUINTANILLA complained' });
      expect(response.status).toBe(200);
      expect(response.json.data).toMatchObject({ engine: 'local-test-model', rootCause: 'The admission arrived without a patient class.', category: 'missing-data' });
      expect(response.json.data.suggestedFixes.at(-1)).toMatchObject({ side: 'receiver', field: 'PV1.2' });
      expect(received).toHaveLength(1);
      const sent = received[0]!;
      expect(JSON.parse(sent).model).toBe('local-test-model');
      expect(sent).toContain('PV1.2');
      expect(sent).toContain('MSH|');
      for (const value of PHI_VALUES) expect(sent, value).not.toContain(value);
    } finally {
      await wb.stop();
    }
  });

  it('falls back to the offline answer with a note on a timeout or an unusable answer', async () => {
    const wb = await startTestWorkbench({ config: llmConfig({ enabled: true, baseUrl, model: 'local-test-model', timeoutMs: 300 }) });
    try {
      mode = 'slow';
      const slow = await triage(wb, { messageContent: PHI_MESSAGE });
      expect(slow.json.data.engine).toBe('rules');
      expect(slow.json.data.notes.join(' ')).toMatch(/did not answer within 300 ms/);
      mode = 'garbage';
      const garbage = await triage(wb, { messageContent: PHI_MESSAGE });
      expect(garbage.json.data.engine).toBe('rules');
      expect(garbage.json.data.notes.join(' ')).toMatch(/JSON/);
    } finally {
      await wb.stop();
    }
  });

  it('refuses a non-loopback baseUrl without allowRemote (offline answer, with a note; nothing sent)', async () => {
    const wb = await startTestWorkbench({ config: llmConfig({ enabled: true, baseUrl: 'https://models.example.com/v1' }) });
    try {
      const response = await triage(wb, { messageContent: PHI_MESSAGE });
      expect(response.json.data.engine).toBe('rules');
      expect(response.json.data.notes.join(' ')).toMatch(/not a loopback address.*allowRemote/);
    } finally {
      await wb.stop();
    }
  });
});
