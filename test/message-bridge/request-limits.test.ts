// Limits of the bridge's requests through real HTTP: ignoredFields patterns (count, length, and wildcards that
// used to backtrack), and the seed range of generation.
import { describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const wb = useTestWorkbench();
const post = (path: string, body: unknown) => wb.call('bridge', { path, body });

const scriptHeader = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Message xmlns="http://www.ncpdp.org/schema/SCRIPT"><Header>${inner}</Header><Body><Status/></Body></Message>`;

function nestedPatient(family: string): string {
  let nested: Record<string, unknown> = { url: 'http://example.org/leaf', valueString: 'x' };
  for (let depth = 0; depth < 40; depth++) nested = { url: `http://example.org/level-${depth}`, extension: [nested] };
  return JSON.stringify({ resourceType: 'Patient', id: 'p1', name: [{ family }], extension: [nested] });
}

const hl7 = (control: string) => `MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08|${control}|P|2.5\rPID|||123^^^MRN||DOE^JANE`;

describe('ignoredFields', () => {
  it('matches wildcards that would make a regular expression backtrack, and answers', async () => {
    const ncpdp = await post('/api/diff', {
      leftMessage: scriptHeader('<a>1</a>'.repeat(3_000)),
      rightMessage: scriptHeader('<a>2</a>'.repeat(3_000)),
      standard: 'ncpdp',
      ignoredFields: ['Header.*a*a*a*a!'],
    });
    expect(ncpdp.status).toBe(200);
    expect(ncpdp.json.data.totalDifferences).toBe(3_000);
    const ignoredAll = await post('/api/diff', {
      leftMessage: scriptHeader('<a>1</a>'.repeat(3_000)),
      rightMessage: scriptHeader('<a>2</a>'.repeat(3_000)),
      ignoredFields: ['Header.*a*'],
    });
    expect(ignoredAll.json.data.totalDifferences).toBe(0);

    const fhir = await post('/api/diff', {
      leftMessage: nestedPatient('Left'),
      rightMessage: nestedPatient('Right'),
      standard: 'fhir',
      ignoredFields: ['**.**.**.**.**.nomatch'],
    });
    expect(fhir.status).toBe(200);
    expect(fhir.json.data.differences).toEqual([
      { field: 'Patient.name[0].family', leftValue: 'Left', rightValue: 'Right', changeType: 'modified' },
    ]);
    const deepest = await post('/api/diff', {
      leftMessage: nestedPatient('Left').replace('"valueString":"x"', '"valueString":"y"'),
      rightMessage: nestedPatient('Left'),
      ignoredFields: ['**.extension[*].**.valueString'],
    });
    expect(deepest.json.data.totalDifferences).toBe(0);
  });

  it('refuses a pattern over 256 characters with 400 naming its entry, for every standard', async () => {
    const cases = [
      { leftMessage: scriptHeader('<a>1</a>'), rightMessage: scriptHeader('<a>2</a>'), pattern: Array.from({ length: 8_000 }, () => '*').join('.') },
      { leftMessage: nestedPatient('Left'), rightMessage: nestedPatient('Right'), pattern: Array.from({ length: 100_000 }, () => '**').join('.') },
      { leftMessage: hl7('1'), rightMessage: hl7('2'), pattern: `PID.${'9'.repeat(300)}` },
    ];
    for (const { pattern, ...messages } of cases) {
      const res = await post('/api/diff', { ...messages, ignoredFields: ['MSH.7', 'Header.MessageID', 'meta', pattern] });
      expect(res.status).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.json.error.code).toBe('PATTERN_TOO_LONG');
      expect(res.json.error.message).toBe(`ignoredFields[3] is ${pattern.length} characters long; a pattern may have at most 256.`);
      expect(res.json.error.details).toEqual({ field: 'ignoredFields[3]', length: pattern.length, max: 256 });
    }
  });

  it('refuses more than 100 patterns with 400 naming the field', async () => {
    const ok = await post('/api/diff', { leftMessage: hl7('1'), rightMessage: hl7('2'), ignoredFields: Array.from({ length: 100 }, () => 'MSH.10') });
    expect(ok.status).toBe(200);
    expect(ok.json.data.totalDifferences).toBe(0);
    const res = await post('/api/diff', { leftMessage: hl7('1'), rightMessage: hl7('2'), ignoredFields: Array.from({ length: 101 }, () => 'MSH.10') });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: 'TOO_MANY_PATTERNS',
      message: 'ignoredFields holds 101 patterns; at most 100 are accepted.',
      details: { field: 'ignoredFields', count: 101, max: 100 },
    });
  });
});

describe('seed', () => {
  it('accepts 0 to 4294967295, each seed its own output', async () => {
    const answers = [];
    for (const seed of [0, 1, 4_294_967_295]) {
      const res = await post('/api/generate', { seed });
      expect(res.status, String(seed)).toBe(200);
      answers.push(res.json.data[0]);
    }
    expect(new Set(answers).size).toBe(3);
  });

  it('refuses seeds outside the range or not whole with 400 naming seed', async () => {
    for (const seed of [-1, 4_294_967_296, 2 ** 53, 1.5]) {
      const res = await post('/api/generate', { seed });
      expect(res.status, String(seed)).toBe(400);
      expect(res.json.error.code).toBe('VALIDATION_FAILED');
      expect(res.json.error.details.length, String(seed)).toBeGreaterThan(0);
      for (const detail of res.json.error.details) {
        expect(detail, String(seed)).toMatchObject({ location: 'body', path: 'seed', message: expect.stringMatching(/^seed must be/) });
      }
    }
    const text = await post('/api/generate', { seed: '42' });
    expect(text.status).toBe(400);
    expect(text.json.error.details[0].path).toBe('seed');
  });
});
