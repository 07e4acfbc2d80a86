// The standards' reading capabilities the monitor stands on (kernel MessageReading), as units: HL7, FHIR and NCPDP
// content of any shape (fast-check) never throws and never yields more messages than it counts; the facts each gives;
// NDJSON and batch files split per message with `firstIndex` skipping what an appended file already had stored; and
// the monitor's declared facts map any record to well-typed values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageReading, ReadContentResult } from '../../kernel/standards-registry.ts';
import { createFhirReading } from '../../plugins/fhir-standard/fhir-message-reading.ts';
import { createHl7MessageReader } from '../../plugins/hl7-standard/reading/hl7-message-reader.ts';
import { createHl7Reading } from '../../plugins/hl7-standard/reading/hl7-message-reading.ts';
import { loadHl7Profiles } from '../../plugins/hl7-standard/profiles/hl7-profiles.ts';
import { readFacts } from '../../plugins/monitor/messages/message-facts.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { writeNcpdpBatch } from '../../plugins/ncpdp-standard/telecom/ncpdp-batch.ts';
import { createNcpdpReading } from '../../plugins/ncpdp-standard/ncpdp-message-reading.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';

const hl7 = createHl7Reading(createHl7MessageReader(loadHl7Profiles([])));
const ncpdpAdapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
const ncpdp = createNcpdpReading((content, options) => ncpdpAdapter.validate(content, options));
// facts only: validation of FHIR needs its definitions, which the plugin tests cover
const fhir = createFhirReading(() => ({ isValid: true, errors: [], warnings: [] }));

function read(reading: MessageReading, text: string, firstIndex = 0): ReadContentResult {
  return reading.readMessages(Buffer.from(text, 'utf8'), { mode: 'compatibility', firstIndex });
}

/** Holds for every reading and any content: no throw, indexes from firstIndex on, never more messages than counted. */
function wellFormed(result: ReadContentResult, firstIndex: number): boolean {
  if (result.messages.length > Math.max(0, result.messageCount - firstIndex)) return false;
  for (const message of result.messages) {
    if (message.index < firstIndex || typeof message.raw !== 'string') return false;
    const facts = readFacts(message.facts);
    if (!Array.isArray(facts.patientIds) || !Array.isArray(facts.segmentIds)) return false;
    if (facts.messageTime !== null && Number.isNaN(Date.parse(facts.messageTime))) return false;
  }
  return true;
}

const fragments = fc.constantFrom(
  '{', '}', '[', ']', '"resourceType":"Patient"', '"resourceType":"Bundle"', '"entry":[', '"identifier":[{"value":"X"}]', ',', ':',
  '\n', '\r\n', 'null', '"x"', '<Message>', '</Message>', '<Header><MessageID>1</MessageID></Header>', '<Body><NewRx/></Body>',
  '\u0002', '\u0003', '00T', 'G1REF0000001', '99', '\u001c', '\u001d', '\u001e', 'MSH|^~\\&|A|B|C|D|2026||ADT^A01|1|P|2.5\r', 'SFT|V|1', 'MSA|AA|9',
  '\ufeff', 'AM01', 'CY123', 'ZZZ|1',
);
const content = fc.oneof(fc.array(fragments, { maxLength: 40 }).map((parts) => parts.join('')), fc.string({ maxLength: 400 }));

describe('reading content of any shape', () => {
  for (const [name, reading] of [['hl7', hl7], ['fhir', fhir], ['ncpdp', ncpdp]] as const) {
    it(`${name}: never throws, never more messages than counted, facts well typed`, () => {
      fc.assert(
        fc.property(content, fc.nat({ max: 3 }), (text, firstIndex) => wellFormed(read(reading, text, firstIndex), firstIndex)),
        { numRuns: 400 },
      );
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => wellFormed(reading.readMessages(bytes, { mode: 'strict' }), 0)),
        { numRuns: 200 },
      );
    });
  }

  it('maps any facts record to the declared facts, dropping what has the wrong shape', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('messageTime', 'controlId', 'sequenceNumber', 'software', 'segmentIds', 'patientIds', 'other'), fc.anything()), (record) => {
        const facts = readFacts(record);
        return (
          (facts.controlId === null || typeof facts.controlId === 'string') &&
          (facts.sequenceNumber === null || Number.isSafeInteger(facts.sequenceNumber)) &&
          facts.segmentIds.every((id) => typeof id === 'string') &&
          facts.patientIds.every((p) => typeof p.id === 'string')
        );
      }),
    );
    expect(readFacts({ messageTime: 'not a time', sequenceNumber: 1.5, segmentIds: ['MSH', 7, 'PID'], patientIds: [{ id: 'A' }, { nope: 1 }] })).toMatchObject({
      messageTime: null,
      sequenceNumber: null,
      segmentIds: ['MSH', 'PID'],
      patientIds: [{ id: 'A', assigningAuthority: null }],
    });
  });
});

describe('facts of each standard', () => {
  it('HL7: receiving application and facility, sequence number, acknowledged control id, software and segment ids', () => {
    const ack = [
      'MSH|^~\\&|LAB|EAST|EHR|MAIN|20260301101500+0000||ACK^R01^ACK|A77|P|2.5.1|4411',
      'SFT|Acme Labs^L|7.2.1|LabSuite|B19||20250115',
      'MSA|AA|ORIG-9',
      'ZPD|custom',
    ].join('\r');
    const [message] = read(hl7, ack).messages;
    expect(readFacts(message.facts)).toMatchObject({
      messageTime: '2026-03-01T10:15:00.000Z',
      messageType: 'ACK',
      triggerEvent: 'R01',
      controlId: 'A77',
      receivingApplication: 'EHR',
      receivingFacility: 'MAIN',
      sequenceNumber: 4411,
      acknowledgedControlId: 'ORIG-9',
      software: { vendor: 'Acme Labs', version: '7.2.1', product: 'LabSuite' },
      segmentIds: ['MSH', 'SFT', 'MSA', 'ZPD'],
    });
  });

  it('FHIR: NDJSON is one message per line, a bad line is a failed message, and an appended file skips what was read', () => {
    const lines = ['{"resourceType":"Patient","id":"a"}', '{"resourceType":', '{"resourceType":"Encounter","id":"c","identifier":[{"value":"V1"}]}'];
    const all = read(fhir, lines.join('\n'));
    expect(all.messageCount).toBe(3);
    expect(all.messages.map((m) => [m.index, m.verdict?.isValid])).toEqual([[0, true], [1, false], [2, true]]);
    expect(all.messages[1].verdict?.errors[0].code).toBe('PARSE_ERROR');
    expect(readFacts(all.messages[2].facts)).toMatchObject({ messageType: 'Encounter', visitNumber: 'V1' });
    expect(read(fhir, lines.join('\n'), 2).messages.map((m) => m.index)).toEqual([2]);
    // a pretty-printed resource that is not JSON is one failed message, not one per line
    const broken = read(fhir, '{\n  "resourceType": "Patient",\n  "id": \n}');
    expect(broken.messages).toHaveLength(1);
    expect(broken.messages[0].verdict?.isValid).toBe(false);
  });

  it('NCPDP: a batch file is one message per detail record, with its reference and the batch creation time', () => {
    const claims = ncpdpAdapter.generate({ messageType: 'B1', count: 3, seed: 5 });
    const batch = writeNcpdpBatch({
      senderId: 'S',
      receiverId: 'R',
      batchNumber: 1,
      creationDate: '20260301',
      creationTime: '0815',
      fileType: 'T',
      transactions: claims.map((transaction, i) => ({ reference: `R${i}`, transaction })),
    });
    const result = read(ncpdp, batch);
    expect(result.messageCount).toBe(3);
    expect(result.messages.map((m) => [m.index, readFacts(m.facts).controlId, readFacts(m.facts).messageTime, m.verdict?.isValid])).toEqual([
      [0, 'R0', '2026-03-01T08:15:00.000Z', true],
      [1, 'R1', '2026-03-01T08:15:00.000Z', true],
      [2, 'R2', '2026-03-01T08:15:00.000Z', true],
    ]);
    expect(read(ncpdp, batch, 1).messages.map((m) => m.index)).toEqual([1, 2]);
    const single = read(ncpdp, claims[0]).messages[0];
    expect(readFacts(single.facts)).toMatchObject({ messageType: 'B1', version: 'D0' });
  });
});
