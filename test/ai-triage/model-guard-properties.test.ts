// Properties of the model path (fast-check): an identifier the message carries in a known field, written again in any
// case and punctuation at a random free-text or coded-text position (OBX-5 text, a CWE text component, NTE, a
// Z-segment, the caller's findings or context), never reaches the model, even when the de-identifier misses it; and
// any identifier-shaped token a caller writes among structure words in a finding is a needle the guard searches for.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findNeedles } from '../../plugins/deidentify/replacement/needles.ts';
import { callerNeedles, structureVocabulary } from '../../plugins/ai-triage/model/caller-needles.ts';
import { ModelGateway } from '../../plugins/ai-triage/model/llm-client.ts';
import { SYSTEM_PROMPT } from '../../plugins/ai-triage/model/llm-prompt.ts';
import { triageWithModel } from '../../plugins/ai-triage/model/model-triage.ts';
import { createTestDeidentifier } from '../deidentify/deid-helpers.ts';
import { normalisedText } from '../helpers/phi-corpus.ts';
import { createTriage } from './triage-helpers.ts';

const { engine, standards, base } = createTriage();
const deidentify = createTestDeidentifier(standards);
const vocabulary = structureVocabulary(base, SYSTEM_PROMPT);

/** The identifiers of the message's known fields, each as several writings a person or a system might use. */
const WRITINGS: Record<string, string[]> = {
  surname: ['Thistlewood', 'THISTLEWOOD', 'thistlewood'],
  fullName: ['Ermengarde Thistlewood', 'THISTLEWOOD, ERMENGARDE', 'thistlewood ermengarde'],
  mrn: ['MRN88877766', 'mrn 88877766', 'MRN-88877766'],
  phone: ['(614) 555-0187', '614.555.0187', '614-555-0187', '6145550187'],
  ssn: ['321-54-9876', '321 54 9876', '321549876'],
  account: ['ACCT55443322', 'acct55443322'],
};

/** Which words each identifier is made of, as the recorder's normalised text would show them. */
const NORMALISED: Record<string, string[]> = {
  surname: ['thistlewood'],
  fullName: ['thistlewood', 'ermengarde'],
  mrn: ['88877766'],
  phone: ['555 0187', '5550187', '6145550187'],
  ssn: ['321 54 9876', '321549876'],
  account: ['55443322'],
};

type Slot = 'obx-st' | 'cwe-text' | 'nte' | 'z-segment' | 'finding' | 'context';

function message(slot: Slot, value: string): string {
  return [
    'MSH|^~\\&|REG|HOSP|LAB|HOSP|20250615120000+0000||ADT^A01^ADT_A01|MSG00077|P|2.5.1',
    'EVN||20250615120000+0000',
    'PID|1||MRN88877766^^^HOSP^MR~321-54-9876^^^USSSA^SS||THISTLEWOOD^ERMENGARDE^Q||19480307|F|||4417 Lantern Hollow Rd^^Bellwether^OH^43210||(614)555-0187^PRN^PH|||||ACCT55443322|321-54-9876',
    'PV1|1||2000^2012^01',
    `OBX|1|ST|8867-4^Heart rate^LN||${slot === 'obx-st' ? `Spoke with ${value} today` : '72'}||||||F`,
    `OBX|2|CWE|56799-0^Finding^LN||X^${slot === 'cwe-text' ? value : 'Normal'}^L||||||F`,
    `NTE|1||${slot === 'nte' ? `Call from ${value}` : 'No remarks'}`,
    `ZPI|1|${slot === 'z-segment' ? value : 'PORTAL'}`,
  ].join('\r');
}

function gatewayRecording(sent: string[]): ModelGateway {
  return new ModelGateway(
    { enabled: true, baseUrl: 'http://127.0.0.1:9/v1', model: 'property-model', timeoutMs: 1_000, allowRemote: false },
    {
      findNeedles,
      logger: { warn: () => undefined } as never,
      events: { emit: () => undefined } as never,
      env: {},
      fetchImpl: (async (_url: string, init: { body: string }) => {
        sent.push(init.body);
        return new Response(JSON.stringify({ choices: [{ message: { content: '{"rootCause": "Rephrased."}' } }] }));
      }) as unknown as typeof fetch,
    },
  );
}

describe('the model path, for any position of a known identifier', () => {
  it('never sends an identifier of a known field, wherever else and however it is written', async () => {
    const kinds = Object.keys(WRITINGS);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...kinds),
        fc.nat(),
        fc.constantFrom<Slot>('obx-st', 'cwe-text', 'nte', 'z-segment', 'finding', 'context'),
        fc.boolean(),
        async (kind, pick, slot, leaky) => {
          const writings = WRITINGS[kind]!;
          const value = writings[pick % writings.length]!;
          const input = {
            content: message(slot, value),
            validationErrors: ['PV1.2 REQUIRED_FIELD_MISSING', ...(slot === 'finding' ? [`PID.5 ${value} is wrong`] : [])],
            ...(slot === 'context' ? { interfaceContext: `registration feed, patient ${value}` } : {}),
          };
          const sent: string[] = [];
          const result = await triageWithModel(await engine.triage(input), input, {
            gateway: gatewayRecording(sent),
            // A leaky de-identifier (it reports its needles but replaces nothing) stands for any value it misses: the
            // guard alone must then keep the value from the model.
            deidentify: leaky ? { deidentify: (content, standard) => ({ ...deidentify.deidentify(content, standard), messageContent: content }) } : deidentify,
            adapterOf: (id) => standards.get(id),
            vocabulary,
          });
          const body = normalisedText(sent.join(' '));
          for (const words of NORMALISED[kind]!) expect(body, `${kind} "${value}" in ${slot}`).not.toContain(` ${words} `);
          // Either the model was asked (and saw none of it) or the call was withheld with a note.
          expect(sent.length === 1 || result.notes.some((note) => /model call was withheld/.test(note))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('needles of a caller\'s findings, for any identifier-shaped token among structure words', () => {
  it('makes the token a needle the guard finds', () => {
    const adapter = standards.get('hl7')!;
    const structure = { vocabulary, describe: (path: string) => adapter.describe(path) ?? undefined, declared: [...adapter.versions] };
    const identifier = fc.oneof(
      fc.stringMatching(/^[A-Z]{0,4}\d{5,10}$/),
      fc.stringMatching(/^[a-z]{3,8}\.[a-z]{3,8}@[a-z]{3,8}\.example$/),
      fc.stringMatching(/^[A-Z][a-z]{2,3}(?:q|x|z)[a-z]{3,6}$/),
    );
    const words = fc.array(fc.constantFrom('PID.5', 'PV1.2', 'REQUIRED_FIELD_MISSING', 'is', 'missing', 'value', 'not', 'in', 'table', 'wrong'), { maxLength: 6 });
    fc.assert(
      fc.property(identifier, words, words, fc.constantFrom(' ', ': ', ', ', ' (', '.'), (token, before, after, glue) => {
        const text = [...before, `${token}${glue === '.' ? '.PID' : ''}`, ...after].join(glue === '.' ? ' ' : glue);
        const needles = callerNeedles([text], structure) ?? [];
        expect(findNeedles(`${token} `, needles).length, text).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
