// The kernel's CSV writer: RFC 4180 round trip (any text survives a standard reader), formula-safe text cells,
// numbers untouched, and a stream that yields the same bytes as the whole document.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvDocument, csvField, csvQuoted, csvStream, formulaSafe } from '../../kernel/lib/text/csv.ts';

/** A strict RFC 4180 reader (quoted fields, doubled quotes, CRLF records), to read back what the writer wrote. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"') {
      quoted = true;
      i++;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else {
      field += c;
      i++;
    }
  }
  expect(quoted).toBe(false);
  expect(field).toBe('');
  return records;
}

describe('kernel CSV writer', () => {
  it('reads back every text as written, with formula-like cells guarded', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), { maxLength: 5 }), (rows) => {
        const width = Math.max(1, ...rows.map((row) => row.length));
        const padded = rows.map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
        const columns = Array.from({ length: width }, (_, i) => `c${i}`);
        const read = readCsv(csvDocument(columns, padded));
        expect(read[0]).toEqual(columns);
        // every cell reads back as written, with a guard quote before a formula-like start and nothing else changed
        // (a text that already starts with a quote, such as "'@", is not formula-like and stays as it is)
        expect(read.slice(1)).toEqual(padded.map((row) => row.map((cell) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell))));
        for (const row of read.slice(1)) for (const cell of row) expect(/^[=+\-@\t\r]/.test(cell)).toBe(false);
      }),
    );
  });

  it('guards =, +, -, @, tab and CR at the start of text, but writes numbers as numbers', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(formulaSafe(`${lead}cmd`)).toBe(`'${lead}cmd`);
    expect(formulaSafe('plain')).toBe('plain');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(0.25)).toBe('0.25');
    expect(csvField(null)).toBe('');
    expect(csvField(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('a,"b"')).toBe('"a,""b"""');
  });

  it('streams the same bytes as the document, header first, over many chunks', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [`row ${i}`, i, i % 3 === 0 ? '=SUM(A1)' : 'x']);
    const chunks: Buffer[] = [];
    for await (const chunk of csvStream(['name', 'n', 'text'], rows)) chunks.push(Buffer.from(chunk));
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(csvDocument(['name', 'n', 'text'], rows));
  });
});

describe('csvQuoted: data fields without the formula guard', () => {
  it('quotes what RFC 4180 needs, a backslash only when asked, and never prefixes a formula sign', () => {
    expect(csvQuoted('-1')).toBe('-1');
    expect(csvQuoted('=SUM(A1)')).toBe('=SUM(A1)');
    expect(csvQuoted('line\nbreak')).toBe('"line\nbreak"');
    expect(csvQuoted('say "hi"')).toBe('"say ""hi"""');
    expect(csvQuoted('\\.')).toBe('\\.');
    expect(csvQuoted('\\.', true)).toBe('"\\."');
  });
});
