// The outgoing guard and the needles of the caller's texts as engines: which tokens of validation errors are needles
// (values) and which are structure (paths, codes, words of the knowledge base), where in a request body a needle is
// found (by JSON path, member names included), and that the gateway is the only code of the plugin that sends.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../kernel/project-root.ts';
import { findNeedles } from '../../plugins/deidentify/replacement/needles.ts';
import { callerNeedles, MAX_CALLER_TOKENS, structureVocabulary } from '../../plugins/ai-triage/model/caller-needles.ts';
import { ModelGateway } from '../../plugins/ai-triage/model/llm-client.ts';
import { SYSTEM_PROMPT } from '../../plugins/ai-triage/model/llm-prompt.ts';
import { needleCarriers } from '../../plugins/ai-triage/model/outgoing-guard.ts';
import { createTriage } from './triage-helpers.ts';

const { standards, base } = createTriage();
const vocabulary = structureVocabulary(base, SYSTEM_PROMPT);

function needlesOf(standard: string, texts: string[]): string[] {
  const adapter = standards.get(standard)!;
  const needles = callerNeedles(texts, { vocabulary, describe: (path) => adapter.describe(path) ?? undefined, declared: [...adapter.versions, 'ADT^A01'] });
  if (needles === undefined) throw new Error('too many tokens');
  return needles;
}

describe('needles of the caller\'s texts', () => {
  it('takes values (identifiers, e-mail addresses, names, dates) and leaves paths, codes and words', () => {
    const needles = needlesOf('hl7', [
      'MRN88877766.PID unknown identifier',
      'contact jane.roe@mail.example bounced',
      'PID.5 ROE, JANE written in the wrong order',
      'PID.7 1948-03-07 is not a valid date',
    ]);
    expect(needles).toEqual(expect.arrayContaining(['MRN88877766.PID', 'MRN88877766', 'jane.roe@mail.example', 'jane.roe', 'ROE', 'JANE', '1948-03-07']));
    for (const structure of ['PID', 'PID.5', 'PID.7', 'unknown', 'identifier', 'wrong', 'order', 'valid', 'date']) expect(needles).not.toContain(structure);
  });

  it('finds no needle in findings made only of structure', () => {
    expect(needlesOf('hl7', ['PV1.2 REQUIRED_FIELD_MISSING: patient class is empty', 'PID.8 VALUE_NOT_IN_TABLE: not in table 0001', 'MSH.12 UNSUPPORTED_VERSION 2.5.1', 'ADT^A01 rejected'])).toEqual([]);
    expect(needlesOf('fhir', ['Patient.birthDate INVALID_DATE', 'Observation.status REQUIRED_FIELD_MISSING: element is missing'])).toEqual([]);
  });

  it('gives up (the call is withheld) beyond MAX_CALLER_TOKENS distinct tokens, and dedupes repeated findings', () => {
    const adapter = standards.get('hl7')!;
    const structure = { vocabulary, describe: (path: string) => adapter.describe(path) ?? undefined, declared: [] };
    const repeated = Array.from({ length: 1_000 }, () => 'PV1.2 REQUIRED_FIELD_MISSING: patient class is empty MSG00077');
    expect(callerNeedles(repeated, structure)).toEqual(['MSG00077']);
    let next = 0;
    const distinct = Array.from({ length: 1_000 }, () => Array.from({ length: 200 }, () => `Q9${(next++).toString(36)}`).join(' '));
    expect(callerNeedles(distinct, structure)).toBeUndefined();
    expect(callerNeedles(distinct.slice(0, Math.floor(MAX_CALLER_TOKENS / 200)), structure)).toHaveLength(Math.floor(MAX_CALLER_TOKENS / 200) * 200);
  });

  it('never takes a word of the caller for structure only because it looks like a path', () => {
    const needles = needlesOf('fhir', ['Featherstonehaugh.Patient not found']);
    expect(needles).toContain('Featherstonehaugh');
    expect(needles).not.toContain('Patient');
  });
});

describe('the outgoing guard', () => {
  const body = { model: 'm', messages: [{ role: 'system', content: 'Rephrase.' }, { role: 'user', content: 'PID|1||X^^^H^MR||THISTLEWOOD^ERMENGARDE' }] };

  it('names the JSON path of the string that carries a needle, never the value', () => {
    const carriers = needleCarriers(body, JSON.stringify(body), ['Ermengarde Thistlewood', 'Thistlewood'], findNeedles);
    expect(carriers).toEqual(['$.messages[1].content']);
    expect(needleCarriers(body, JSON.stringify(body), ['Featherstonehaugh'], findNeedles)).toEqual([]);
    expect(needleCarriers(body, JSON.stringify(body), [], findNeedles)).toEqual([]);
  });

  it('searches member names too, naming them by length only', () => {
    const named = { messages: [{ 'Thistlewood family': 'x' }] };
    expect(needleCarriers(named, JSON.stringify(named), ['Thistlewood'], findNeedles)).toEqual(['$.messages[0][<name of 18 characters>] (member name)']);
  });

  it('withholds the call in the gateway: nothing is fetched, the event names paths only', async () => {
    const events: unknown[] = [];
    const warnings: unknown[] = [];
    let fetched = 0;
    const gateway = new ModelGateway(
      { enabled: true, baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 1_000, allowRemote: false },
      {
        findNeedles,
        logger: { warn: (...args: unknown[]) => void warnings.push(args) } as never,
        events: { emit: (name: string, payload: unknown) => void events.push([name, payload]) } as never,
        env: {},
        fetchImpl: (async () => {
          fetched++;
          return new Response(JSON.stringify({ choices: [{ message: { content: '{}' } }] }));
        }) as typeof fetch,
      },
    );
    const outcome = await gateway.complete('triage', [{ role: 'user', content: 'Patient MRN88877766 called' }], ['MRN88877766']);
    expect(outcome).toEqual({ ok: false, note: expect.stringMatching(/withheld.*\$\.messages\[0\]\.content/) });
    expect(fetched).toBe(0);
    expect(events).toEqual([['ai-triage.model.withheld', { use: 'triage', reason: 'identifier', paths: ['$.messages[0].content'] }]]);
    expect(JSON.stringify([outcome, events, warnings])).not.toContain('MRN88877766');
    const clean = await gateway.complete('triage', [{ role: 'user', content: 'PV1.2 is empty' }], ['MRN88877766']);
    expect(clean.ok).toBe(true);
    expect(fetched).toBe(1);
  });

  it('is the only way out: no other file of the plugin calls fetch or opens a connection', () => {
    const dir = join(projectRoot, 'plugins', 'ai-triage');
    const senders = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .filter((name) => /\bfetch\b(?!Impl)|node:https?['"]|node:net['"]|undici/.test(readFileSync(join(dir, name), 'utf8')))
      .map((name) => name.split('\\').join('/'));
    expect(senders).toEqual(['model/llm-client.ts']);
  });
});

describe('the caller\'s findings as field paths', () => {
  it('a finding becomes a field path only when the standard describes it', async () => {
    const { engine } = createTriage();
    const message = 'MSH|^~\\&|REG|HOSP|LAB|HOSP|20250615120000+0000||ADT^A01^ADT_A01|MSG1|P|2.5.1\rEVN||20250615120000+0000\rPID|1||X1^^^H^MR||ROE^JANE\rPV1|1|';
    const result = await engine.triage({ content: message, validationErrors: ['MRN88877766.PID unknown', 'jane.roe@mail.example REQUIRED_FIELD_MISSING', 'PV1.2 REQUIRED_FIELD_MISSING'] });
    expect(result.affectedFields.map((field) => field.path)).toEqual(['PV1.2']);
    const text = JSON.stringify(result);
    for (const value of ['MRN88877766', 'jane.roe', 'mail.example']) expect(text).not.toContain(value);
    expect(result.notes.join(' ')).toMatch(/2 finding\(s\) named no path the standard defines/);
  });
});
