import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { detectHl7 } from '../../plugins/hl7-standard/parsing/hl7-detect.ts';
import { encodeHl7Message, escapeHl7Value } from '../../plugins/hl7-standard/parsing/hl7-encoder.ts';
import { decodeHl7Escapes } from '../../plugins/hl7-standard/parsing/hl7-escape.ts';
import { DEFAULT_HL7_DELIMITERS, parseHl7 } from '../../plugins/hl7-standard/parsing/hl7-parser.ts';
import { parseHl7Path } from '../../plugins/hl7-standard/hl7-path.ts';
import { formatHl7Path, getHl7Value, getSegments } from '../helpers/hl7-values.ts';

const ADT = [
  'MSH|^~\\&|SENDER|FAC|RECV|RFAC|20240101120000||ADT^A01^ADT_A01|CTRL1|P|2.5.1',
  'EVN|A01|20240101120000',
  'PID|1||111^^^HOSP^MR~222^^^SSA^SS||DOE^JANE^Q||19800101|F|||1 MAIN ST^^TOWN^OH^44000',
  'PV1|1|I|WARD^101^A',
].join('\r');

function only(input: string | Uint8Array) {
  const result = parseHl7(input);
  expect(result.messages).toHaveLength(1);
  return result.messages[0] as NonNullable<(typeof result.messages)[0]>;
}

describe('parseHl7: delimiters and structure', () => {
  it('splits fields, repetitions, components and subcomponents with 1-based paths', () => {
    const message = only(ADT);
    expect(message.segments.map((s) => s.name)).toEqual(['MSH', 'EVN', 'PID', 'PV1']);
    expect(getHl7Value(message, 'MSH.9')).toBe('ADT^A01^ADT_A01');
    expect(getHl7Value(message, 'MSH.9.2')).toBe('A01');
    expect(getHl7Value(message, 'MSH.1')).toBe('|');
    expect(getHl7Value(message, 'MSH.2')).toBe('^~\\&');
    expect(getHl7Value(message, 'PID.5.1')).toBe('DOE');
    expect(getHl7Value(message, 'PID.3[2].1')).toBe('222');
    expect(getHl7Value(message, 'PID.3[2].5')).toBe('SS');
    expect(getHl7Value(message, 'PID.3')).toBe('111^^^HOSP^MR~222^^^SSA^SS');
    expect(getHl7Value(message, 'PID.99')).toBeUndefined();
    expect(getSegments(message, 'PID')).toHaveLength(1);
  });

  it('reads any delimiters from MSH-1 and MSH-2', () => {
    const text = 'MSH^~|\\&^APP^FAC^^^20120918173931^^ADT~A24^1^T^2.4\rPID^1^^A&B~C|D~E';
    const message = only(text);
    expect(message.delimiters).toEqual({ field: '^', component: '~', repetition: '|', escape: '\\', subcomponent: '&' });
    expect(getHl7Value(message, 'MSH.9.2')).toBe('A24');
    expect(getHl7Value(message, 'PID.3.1.2')).toBe('B');
    expect(getHl7Value(message, 'PID.3[2].2')).toBe('E');
    expect(encodeHl7Message(message)).toBe(text);
  });

  it('keeps the v2.7 truncation character and decodes \\P\\', () => {
    const message = only('MSH|^~\\&#|A|B|||20240101||ADT^A01|1|P|2.7\rNTE|1||50\\P\\ off');
    expect(message.delimiters.truncation).toBe('#');
    expect(getHl7Value(message, 'NTE.3')).toBe('50# off');
    expect(encodeHl7Message(message)).toContain('NTE|1||50\\P\\ off');
  });

  it('accepts CR, LF and CRLF terminators, a BOM, MLLP framing and leading whitespace', () => {
    for (const text of [ADT, ADT.replace(/\r/g, '\n'), ADT.replace(/\r/g, '\r\n'), `\uFEFF${ADT}`, `\u000b${ADT}\u001c\r`, `  \n\t${ADT}\n\n`]) {
      const message = only(text);
      expect(message.segments).toHaveLength(4);
      expect(encodeHl7Message(message)).toBe(ADT);
    }
  });

  it('reports an empty MSH-2 as MSH_INVALID at MSH.2 and falls back to the standard delimiters', () => {
    const result = parseHl7('MSH||APP^X|FAC|||20240101||ADT^A01|1|P|2.5');
    expect(result.problems).toEqual([expect.objectContaining({ code: 'MSH_INVALID', field: 'MSH.2', messageIndex: 0 })]);
    expect(result.messages[0]?.delimiters.component).toBe(DEFAULT_HL7_DELIMITERS.component);
    expect(getHl7Value(result.messages[0] as never, 'MSH.3.2')).toBe('X');
  });

  it('keeps Z-segments and reports lines that are not segments', () => {
    const result = parseHl7(`${ADT}\rZPI|1|VIP\rbroken continuation\rNTE|1||x`);
    expect(result.messages[0]?.segments.map((s) => s.name)).toEqual(['MSH', 'EVN', 'PID', 'PV1', 'ZPI', 'NTE']);
    expect(result.problems).toEqual([expect.objectContaining({ code: 'PARSE_ERROR', line: 6, messageIndex: 0 })]);
  });

  it('treats text between messages (comments) as outside any message', () => {
    const result = parseHl7(`// first\r${ADT}\r// second\r${ADT}\r/* end */`);
    expect(result.messages).toHaveLength(2);
    expect(result.problems.map((p) => [p.line, p.messageIndex])).toEqual([
      [1, undefined],
      [6, undefined],
      [11, undefined],
    ]);
    expect(result.messages.every((m) => m.problems.length === 0)).toBe(true);
  });
});

describe('parseHl7: escapes', () => {
  it('decodes delimiter, hex and line-break escapes on read and encodes them again on write', () => {
    const text = 'MSH|^~\\&|A|B|||20240101||ADT^A01|1|P|2.5\rNTE|1||a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f\\.br\\g\\X41\\h\\H\\bold\\N\\';
    const message = only(text);
    expect(getHl7Value(message, 'NTE.3')).toBe('a|b^c&d~e\\f\ngAh\\H\\bold\\N\\');
    const again = encodeHl7Message(message);
    // \X41\ is written back as the character it stands for; everything else round-trips exactly.
    expect(again).toBe(text.replace('\\X41\\', 'A'));
    expect(getHl7Value(only(again), 'NTE.3')).toBe(getHl7Value(message, 'NTE.3'));
  });

  it('escapes every delimiter when writing a value', () => {
    expect(escapeHl7Value('A|B^C~D\\E&F', DEFAULT_HL7_DELIMITERS)).toBe('A\\F\\B\\S\\C\\R\\D\\E\\E\\T\\F');
    expect(decodeHl7Escapes('no escapes', DEFAULT_HL7_DELIMITERS)).toBe('no escapes');
    expect(decodeHl7Escapes('unterminated \\F', DEFAULT_HL7_DELIMITERS)).toBe('unterminated \\F');
  });
});

describe('parseHl7: many messages and batches', () => {
  it('splits concatenated messages and keeps FHS/BHS/BTS/FTS', () => {
    const second = ADT.replace('CTRL1', 'CTRL2');
    const text = ['FHS|^~\\&|APP', 'BHS|^~\\&|APP', ADT, second, 'BTS|2', 'FTS|1'].join('\r');
    const result = parseHl7(text);
    expect(result.problems).toEqual([]);
    expect(result.messages.map((m) => getHl7Value(m, 'MSH.10'))).toEqual(['CTRL1', 'CTRL2']);
    expect(result.envelope.fileHeader?.name).toBe('FHS');
    expect(result.envelope.fileTrailer?.fields[1]).toEqual([[['1']]]);
    expect(result.envelope.batches).toHaveLength(1);
    expect(result.envelope.batches[0]?.messageIndexes).toEqual([0, 1]);
    expect(result.envelope.batches[0]?.trailer?.name).toBe('BTS');
    expect(result.messages[1]?.raw).toBe(second);
    expect(result.messages[1]?.startLine).toBe(7);
  });
});

describe('parseHl7: streaming messages to a caller', () => {
  it('hands each message over once it is complete, with its raw text and problems, and keeps no segments', () => {
    const second = ADT.replace('CTRL1', 'CTRL2');
    const text = ['FHS|^~\\&|APP', 'BHS|^~\\&|APP', ADT, 'not a segment', 'ZZZ|1', second, 'BTS|2', 'FTS|1', ADT.replace('CTRL1', 'CTRL3')].join('\r');
    const whole = parseHl7(text);
    const seen: { index: number; control: string | undefined; raw: string; problems: number; segments: number }[] = [];
    const streamed = parseHl7(text, {
      onMessage: (m) =>
        seen.push({ index: m.index, control: getHl7Value(m, 'MSH.10'), raw: m.raw, problems: m.problems.length, segments: m.segments.length }),
    });
    expect(seen.map((m) => m.control)).toEqual(['CTRL1', 'CTRL2', 'CTRL3']);
    expect(seen.map((m) => m.index)).toEqual([0, 1, 2]);
    expect(seen.map((m) => m.raw)).toEqual(whole.messages.map((m) => m.raw));
    // the line that is not a segment belongs to the first message (a segment of it follows): final when handed over
    expect(seen.map((m) => m.problems)).toEqual(whole.messages.map((m) => m.problems.length));
    expect(seen[0]?.problems).toBe(1);
    expect(seen.map((m) => m.segments)).toEqual(whole.messages.map((m) => m.segments.length));
    expect(streamed.messages.map((m) => m.segments.length)).toEqual([0, 0, 0]);
    expect(streamed.problems).toEqual(whole.problems);
    expect(streamed.envelope.batches[0]?.messageIndexes).toEqual([0, 1]);
  });

  it('hands over the same messages as a whole parse, for any mix of messages, envelopes and noise', () => {
    const line = fc.constantFrom(ADT, ADT.replace('CTRL1', 'OTHER'), 'FHS|^~\\&|A', 'BHS|^~\\&|A', 'BTS|1', 'FTS|1', 'junk line', 'ZZ1|x', '');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('\r', '\n', '\r\n'), (lines, ending) => {
        const text = lines.join(ending);
        const whole = parseHl7(text);
        const seen: string[] = [];
        const streamed = parseHl7(text, { onMessage: (m) => seen.push(JSON.stringify({ ...m, segments: m.segments.length })) });
        expect(seen).toEqual(whole.messages.map((m) => JSON.stringify({ ...m, segments: m.segments.length })));
        expect(streamed.problems).toEqual(whole.problems);
      }),
    );
  });
});

describe('parseHl7: byte input and character sets', () => {
  it('decodes UTF-8 by default and ISO-8859-1 when MSH-18 says 8859/1', () => {
    const utf8 = new TextEncoder().encode(`${ADT.replace('DOE', 'MÜLLER')}`);
    expect(getHl7Value(only(utf8), 'PID.5.1')).toBe('MÜLLER');
    const latin = `MSH|^~\\&|A|B|||20240101||ADT^A01|1|P|2.5||||||8859/1\rPID|1||1||M\u00dcLLER`;
    const bytes = Uint8Array.from([...latin].map((c) => c.charCodeAt(0)));
    const result = parseHl7(bytes);
    expect(result.charset).toBe('ISO-8859-1');
    expect(getHl7Value(result.messages[0] as never, 'PID.5.1')).toBe('MÜLLER');
  });

  it('reports invalid UTF-8 without throwing', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(ADT), 0xff, 0xfe]);
    const result = parseHl7(bytes);
    expect(result.messages).toHaveLength(1);
    expect(result.problems.some((p) => p.code === 'PARSE_ERROR' && /UTF-8/.test(p.message))).toBe(true);
  });
});

describe('parseHl7: hostile input', () => {
  it('reports empty input and non-HL7 content as PARSE_ERROR', () => {
    expect(parseHl7('').problems[0]).toMatchObject({ code: 'PARSE_ERROR', message: 'The content is empty.' });
    expect(parseHl7('{"resourceType":"Patient"}').problems[0]?.code).toBe('PARSE_ERROR');
    expect(parseHl7(new Uint8Array([0, 1, 2, 255, 254, 0x0b])).messages).toEqual([]);
  });

  it('copes with a 10 MB field, 100k segments and deep repetition', () => {
    const big = only(`${ADT}\rOBX|1|TX|X||${'A'.repeat(10 * 1024 * 1024)}`);
    expect(getHl7Value(big, 'OBX.5')?.length).toBe(10 * 1024 * 1024);
    const many = only(`${ADT}\r${'NTE|1||x\r'.repeat(100_000)}`);
    expect(many.segments).toHaveLength(100_004);
    const deep = only(`${ADT}\rNTE|1||${'a~'.repeat(200_000)}`);
    expect(deep.segments[4]?.fields[3]).toHaveLength(200_001);
  });
});

describe('paths', () => {
  it('parses and formats 1-based paths', () => {
    expect(parseHl7Path('OBX[3].5')).toEqual({ segment: 'OBX', segmentIndex: 3, field: 5 });
    expect(parseHl7Path('PID.3[2].4.2')).toEqual({ segment: 'PID', field: 3, repetition: 2, component: 4, subcomponent: 2 });
    expect(parseHl7Path('PID-5')).toEqual({ segment: 'PID', field: 5 });
    expect(parseHl7Path('pid.5')).toBeUndefined();
    expect(parseHl7Path('PID.3[0]')).toBeUndefined();
    expect(formatHl7Path({ segment: 'OBX', segmentIndex: 2, field: 5, repetition: 1, component: 1 })).toBe('OBX[2].5.1');
  });
});

describe('detectHl7', () => {
  it('is confident for MSH, FHS and BHS after noise, and not for other content', () => {
    expect(detectHl7(ADT)).toBeGreaterThan(0.9);
    expect(detectHl7(`\uFEFF\u000b  ${ADT}`)).toBeGreaterThan(0.9);
    expect(detectHl7('FHS|^~\\&|APP')).toBeGreaterThan(0.9);
    expect(detectHl7('MSH||broken')).toBeGreaterThan(0.5);
    expect(detectHl7('{"resourceType":"Patient"}')).toBe(0);
    expect(detectHl7('<NewRx/>')).toBe(0);
  });
});
