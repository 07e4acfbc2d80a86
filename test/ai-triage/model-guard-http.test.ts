// The model path over real HTTP: a loopback chat-completions server records every request while a PHI corpus (HL7,
// FHIR JSON and XML, NCPDP SCRIPT and D.0; identifiers planted in free text, coded text, Z-segments, extensions,
// notes and in the caller's validation errors) goes through triage, and through patterns and summary of an interface
// that read it.
// Not one planted value (compared normalised) reaches the recorder; a request that would carry one is withheld, with
// a note naming the path (not the value), a log line naming the path, and the withheld-calls metric.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMonitorHarness, waitFor, type MonitorHarness } from '../monitor/monitor-harness.ts';
import { PHI_CORPUS, PLANTED_VALUES, plantedValuesIn } from '../helpers/phi-corpus.ts';
import { startChatCompletionsRecorder, type ChatCompletionsRecorder } from '../helpers/chat-completions-recorder.ts';

/** A message whose identifiers sit in the fields the de-identifier knows only: its request may reach the model. */
const STRUCTURED_ONLY = [
  'MSH|^~\\&|REG|HOSP|LAB|HOSP|20250615120000+0000||ADT^A01^ADT_A01|MSG00077|P|2.5.1',
  'EVN||20250615120000+0000',
  'PID|1||MRN88877766^^^HOSP^MR~321-54-9876^^^USSSA^SS||THISTLEWOOD^ERMENGARDE^Q||19480307|F|||4417 Lantern Hollow Rd^^Bellwether^OH^43210||(614)555-0187^PRN^PH^ermengarde.thistlewood@mail.example|||||ACCT55443322|321-54-9876',
  'PV1|1||2000^2012^01||||004777^QUIMBLEY^OSWIN',
].join('\r');

const MODEL = 'guard-test-model';

describe('the model path: nothing planted reaches the model', () => {
  let h: MonitorHarness;
  let recorder: ChatCompletionsRecorder;
  let log = '';

  const triage = (body: unknown) => h.wb.call('bridge', { method: 'POST', path: '/api/monitor/triage', body });
  const recordedLeaks = () => recorder.received.flatMap((body) => plantedValuesIn(body));

  beforeAll(async () => {
    recorder = await startChatCompletionsRecorder(() =>
      JSON.stringify({ rootCause: 'The admission arrived without a patient class.', explanation: 'PV1-2 is empty.', additionalFixes: [] }),
    );
    const baseUrl = recorder.baseUrl;
    h = await startMonitorHarness({
      logDestination: new Writable({
        write(chunk, _encoding, callback) {
          log += chunk.toString();
          callback();
        },
      }),
      config: { logging: { level: 'warn' } },
      plugins: {
        'ai-triage': { llm: { enabled: true, baseUrl, model: MODEL, timeoutMs: 5_000 } },
        admin: { metrics: { public: true } },
      },
    });
  });
  afterAll(async () => {
    await h?.stop();
    await recorder?.close();
  });

  it('sends a message whose identifiers are all in known fields, de-identified, with no planted value', async () => {
    recorder.received.length = 0;
    const response = await triage({ messageContent: STRUCTURED_ONLY, validationErrors: ['PV1.2 REQUIRED_FIELD_MISSING: patient class is empty'] });
    expect(response.status).toBe(200);
    expect(response.json.data.engine, JSON.stringify(response.json.data.notes)).toBe(MODEL);
    expect(recorder.received).toHaveLength(1);
    expect(recorder.received[0]).toContain('MSH|');
    expect(recorder.received[0]).toContain('PV1.2');
    expect(recordedLeaks()).toEqual([]);
  });

  it('triage of every corpus message, with and without the caller\'s findings and context, leaks no planted value', async () => {
    recorder.received.length = 0;
    for (const sample of PHI_CORPUS) {
      for (const body of [
        { messageContent: sample.content },
        { messageContent: sample.content, validationErrors: sample.validationErrors, interfaceContext: `feed of ${PLANTED_VALUES[0]} ${PLANTED_VALUES[2]}` },
      ]) {
        const response = await triage(body);
        expect(response.status, sample.name).toBe(200);
        const data = response.json.data;
        // Either the model answered (and saw nothing planted), or the call was withheld with a note saying so.
        expect(data.engine === 'rules' ? /model call was withheld/.test(data.notes.join(' ')) : data.engine === MODEL, `${sample.name}: ${data.engine} ${data.notes}`).toBe(true);
        // The caller's words never become a field path of the answer, unless they name a path of the standard (the
        // findings sent along replace the validation, whose own paths may name the sender's unknown elements).
        const paths = 'validationErrors' in body ? JSON.stringify([data.affectedFields, data.suggestedFixes.map((fix: { field: string }) => fix.field), data.rootCause]) : '';
        expect(plantedValuesIn(paths), sample.name).toEqual([]);
        // No note names a value.
        expect(plantedValuesIn(data.notes.join(' ')), sample.name).toEqual([]);
      }
    }
    expect(recordedLeaks()).toEqual([]);
  });

  it('patterns and summary of an interface that read the corpus leak no planted value', async () => {
    const dir = h.folder('phi-feed');
    PHI_CORPUS.forEach((sample, index) => {
      writeFileSync(join(dir, `m${index}.${sample.extension}`), sample.content);
    });
    writeFileSync(join(dir, 'm9.hl7'), STRUCTURED_ONLY);
    const created = await h.post('/api/monitor/interfaces', { name: 'PHI feed', directoryPath: dir });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    const bridge = (path: string) => h.wb.call('bridge', { method: 'POST', path, body: { interfaceId: id, sinceHours: 24 } });
    recorder.received.length = 0;
    const patterns = await waitFor(async () => {
      const data = (await bridge('/api/monitor/patterns')).json.data;
      return data && data.failedMessages >= 2 ? data : undefined;
    }, 60_000, 'the corpus read by the interface');
    expect(patterns.patterns.length).toBeGreaterThan(0);
    const summary = await bridge('/api/monitor/summary');
    expect(summary.status).toBe(200);
    expect(plantedValuesIn(JSON.stringify(patterns))).toEqual([]);
    expect(plantedValuesIn(JSON.stringify(summary.json.data))).toEqual([]);
    expect(recordedLeaks()).toEqual([]);
  });

  it('a request that would carry a planted value is withheld: noted and logged by path, never by value, and counted', async () => {
    recorder.received.length = 0;
    log = '';
    // The control id stays in the de-identified message; the caller quoted it, so it is a needle of the caller's text.
    const response = await triage({ messageContent: STRUCTURED_ONLY, validationErrors: ['PV1.2 REQUIRED_FIELD_MISSING', 'MSH.10 MSG00077 was sent twice'] });
    expect(response.status).toBe(200);
    const data = response.json.data;
    expect(data.engine).toBe('rules');
    const note = data.notes.find((text: string) => /model call was withheld/.test(text));
    expect(note).toMatch(/at \$\.messages\[1\]\.content/);
    expect(note).not.toContain('MSG00077');
    expect(recorder.received).toHaveLength(0);
    await waitFor(() => /withheld/.test(log), 5_000, 'the withheld log line');
    const line = log.split('\n').find((text) => /withheld/.test(text))!;
    expect(JSON.parse(line)).toMatchObject({ use: 'triage', paths: ['$.messages[1].content'] });
    expect(line).not.toContain('MSG00077');
    for (const value of PLANTED_VALUES) expect(log).not.toContain(value);
    const metrics = await h.wb.call('monitor', { method: 'GET', path: '/metrics' });
    expect(metrics.status).toBe(200);
    const withheld = /^workbench_model_calls_withheld_total\{use="triage",reason="identifier"\} (\d+)$/m.exec(metrics.text);
    expect(Number(withheld?.[1])).toBeGreaterThanOrEqual(1);
  });
});
