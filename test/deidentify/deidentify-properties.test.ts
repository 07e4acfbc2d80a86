// Property tests of the de-identification parsers of untrusted content: any HL7-like text keeps its lines, segment
// ids and field counts; any JSON object either comes back as JSON or is refused with a 400 error; any SCRIPT-like or
// D.0-like text keeps its tags and separators. None of them throws anything else or hangs.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WorkbenchError } from '../../kernel/errors.ts';
import { createStandards, createTestDeidentifier } from './deid-helpers.ts';

const service = createTestDeidentifier(createStandards());

/** Runs `call`: its value, or what it was refused with (a WorkbenchError's status, any other error as thrown). */
function attempt<T>(call: () => T): { value?: T; refused?: unknown } {
  try {
    return { value: call() };
  } catch (error) {
    return { refused: error instanceof WorkbenchError ? error.status : error };
  }
}

const SEGMENTS = ['PID', 'NK1', 'PV1', 'GT1', 'IN1', 'IN2', 'OBX', 'NTE', 'PD1', 'EVN', 'ZPI', 'OBR'];
const fieldText = fc.stringMatching(/^[A-Za-z0-9 ^~&\\.@()\-]{0,20}$/);
const segmentArb = fc.tuple(fc.constantFrom(...SEGMENTS), fc.array(fieldText, { maxLength: 25 })).map(([id, fields]) => [id, ...fields].join('|'));
const messageArb = fc
  .tuple(fc.constantFrom('2.3', '2.5.1', '2.8', '9.9', ''), fc.array(segmentArb, { minLength: 1, maxLength: 12 }), fc.constantFrom('\r', '\n', '\r\n'))
  .map(([version, segments, end]) => [`MSH|^~\\&|A|B|C|D|20250101120000||ADT^A01|1|P|${version}`, ...segments].join(end));

describe('de-identification of untrusted content (property tests)', () => {
  it('keeps every HL7 line, segment id and field count', () => {
    fc.assert(
      fc.property(messageArb, (message) => {
        const output = service.deidentify(message, 'hl7').messageContent;
        const lines = (text: string) => text.split(/\r\n|\r|\n/);
        expect(lines(output).length).toBe(lines(message).length);
        lines(message).forEach((line, index) => {
          const out = lines(output)[index]!;
          expect(out.slice(0, 3)).toBe(line.slice(0, 3));
          expect(out.split('|').length).toBe(line.split('|').length);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary text sent as HL7 or NCPDP', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2_000 }), fc.constantFrom('hl7', 'ncpdp'), (text, standard) => {
        const result = service.deidentify(text, standard);
        expect(typeof result.messageContent).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('returns JSON for any JSON object sent as FHIR, and refuses anything else with a 400 error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 6 }), fc.string({ maxLength: 200 })), (text) => {
        const { value, refused } = attempt(() => service.deidentify(text, 'fhir').messageContent);
        // refused with a 400 error, or JSON
        expect(refused ?? 400).toBe(400);
        expect(() => JSON.parse(value ?? '{}')).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the element names of any FHIR-like XML, or refuses it with a 400 error, and never leaves a value of a name', () => {
    const elements = ['family', 'given', 'city', 'line', 'value', 'system', 'birthDate', 'gender', 'display', 'reference', 'code', 'photo'];
    const leaf = fc.tuple(fc.constantFrom(...elements), fc.stringMatching(/^[A-Za-z0-9 &<>'"-]{0,12}$/));
    const groupArb = fc.tuple(fc.constantFrom('name', 'address', 'telecom', 'identifier', 'contact', 'extension'), fc.array(leaf, { maxLength: 6 }));
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    fc.assert(
      fc.property(fc.array(groupArb, { maxLength: 8 }), fc.constantFrom('Patient', 'Practitioner', 'Observation', 'patient'), (groups, root) => {
        const xml = `<${root} xmlns="http://hl7.org/fhir">${groups
          .map(([group, leaves]) => `<${group}>${leaves.map(([tag, text]) => `<${tag} value="${escape(text)}"/>`).join('')}</${group}>`)
          .join('')}</${root}>`;
        const { value: output, refused } = attempt(() => service.deidentify(xml, 'fhir').messageContent);
        expect(refused ?? 400).toBe(400);
        // what is not refused keeps its element names and no family name of four letters or more
        const names = (text: string) => [...text.matchAll(/<([A-Za-z]+)/g)].map((match) => match[1]).filter((name) => name !== 'photo' && name !== 'contentType');
        expect(names(output ?? xml)).toEqual(names(xml));
        const families = groups
          .filter(([group]) => group === 'name')
          .flatMap(([, leaves]) => leaves.filter(([tag, text]) => tag === 'family' && /^[A-Za-z]{4,}$/.test(text)).map(([, text]) => `<family value="${text}"/>`));
        expect(families.filter((family) => (output ?? '').includes(family))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the tags of SCRIPT-like XML and the separators of D.0-like text', () => {
    const leaf = fc.tuple(fc.constantFrom('LastName', 'FirstName', 'City', 'NPI', 'Number', 'Date', 'Other'), fc.stringMatching(/^[A-Za-z0-9 -]{0,12}$/));
    fc.assert(
      fc.property(fc.array(leaf, { maxLength: 15 }), (leaves) => {
        const xml = `<Message><Body><NewRx><Patient>${leaves.map(([tag, text]) => `<${tag}>${text}</${tag}>`).join('')}</Patient></NewRx></Body></Message>`;
        const output = service.deidentify(xml, 'ncpdp').messageContent;
        expect(output.replace(/>[^<]*</g, '><')).toBe(xml.replace(/>[^<]*</g, '><'));
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('CA', 'CB', 'C4', 'CP', 'CQ', 'D2', 'XX'), fc.stringMatching(/^[A-Z0-9]{0,10}$/)), { maxLength: 15 }), (fields) => {
        const text = `999999D0B1PCN00000001011234567890     20260629SW00000000AM01${fields.map(([id, value]) => `\x1c${id}${value}`).join('')}\x1eAM07\x1cEM1`;
        const output = service.deidentify(text, 'ncpdp').messageContent;
        expect(output.split(/[\x1c\x1d\x1e]/).map((field) => field.slice(0, 2))).toEqual(text.split(/[\x1c\x1d\x1e]/).map((field) => field.slice(0, 2)));
      }),
      { numRuns: 200 },
    );
  });
});

describe('keyed hash', () => {
  it('computes HMAC-SHA-256 exactly as node:crypto does, for any text and key', async () => {
    const { createHmac } = await import('node:crypto');
    const { Pseudonymizer } = await import('../../plugins/deidentify/replacement/pseudonyms.ts');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 100 }), fc.string({ maxLength: 300 }), (key, text) => {
        const expected = createHmac('sha256', Buffer.from(key)).update(text).digest();
        expect(new Pseudonymizer(Buffer.from(key)).hmac(text).equals(expected)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
