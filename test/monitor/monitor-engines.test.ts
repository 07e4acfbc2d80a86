// Engines under the monitor: MSH-7 times, the latency histogram's p99 bound, file patterns, the ledger's verdicts,
// and property tests: splitting and reading arbitrary content never throws and accounts for every message.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseMessageTime } from '../../plugins/hl7-standard/reading/hl7-message-time.ts';
import { bucketUpperMs, histogramQuantile, latencyBucket } from '../../plugins/monitor/rollups/latency-histogram.ts';
import { compileFilePattern, filePatternProblem } from '../../plugins/monitor/interfaces/file-pattern.ts';
import { commitFiles, judgeByContent, judgeByStat, sha256 } from '../../plugins/monitor/ingest/ledger.ts';
import { splitHl7Messages } from '../../plugins/hl7-standard/api.ts';
import { createHl7MessageReader } from '../../plugins/hl7-standard/reading/hl7-message-reader.ts';
import { createHl7Reading } from '../../plugins/hl7-standard/reading/hl7-message-reading.ts';
import type { StandardAdapter } from '../../kernel/standards-registry.ts';
import { loadHl7Profiles } from '../../plugins/hl7-standard/profiles/hl7-profiles.ts';
import { readContent, type ContentReaders } from '../../plugins/monitor/ingest/message-reading.ts';
import type { FileRow } from '../../plugins/monitor/monitor-tables.ts';
import type { MonitoredInterface } from '../../plugins/monitor/api.ts';
import { testPostgresUrl } from '../helpers/postgres-schema.ts';
import { withMonitorStorage } from './monitor-storage.ts';
import { adtMessage } from './monitor-harness.ts';

describe('MSH-7', () => {
  it('reads every precision, fractions and offsets', () => {
    expect(parseMessageTime('20260101120000+0000')).toBe(Date.UTC(2026, 0, 1, 12, 0, 0));
    expect(parseMessageTime('20260101120000.25-0500')).toBe(Date.UTC(2026, 0, 1, 17, 0, 0, 250));
    expect(parseMessageTime('202601011200+0130')).toBe(Date.UTC(2026, 0, 1, 10, 30));
    expect(parseMessageTime('2026')).toBe(new Date(2026, 0, 1).getTime());
    expect(parseMessageTime('20260101120000')).toBe(new Date(2026, 0, 1, 12, 0, 0).getTime());
  });

  it('gives undefined for impossible or malformed times', () => {
    for (const bad of ['', 'yesterday', '20261301', '20260230', '20260101250000', '20260101120000+2500', '2026010112000']) {
      expect(parseMessageTime(bad), bad).toBeUndefined();
    }
  });

  it('never throws on any text', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      const value = parseMessageTime(text);
      return value === undefined || Number.isFinite(value);
    }));
  });
});

describe('latency histogram', () => {
  it('reports a p99 never below the exact value and at most 5 % above it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 400 }), (latencies) => {
        const counts = new Map<number, number>();
        for (const l of latencies) counts.set(latencyBucket(l), (counts.get(latencyBucket(l)) ?? 0) + 1);
        const sorted = [...latencies].sort((a, b) => a - b);
        const exact = sorted[Math.ceil(0.99 * sorted.length) - 1];
        const p99 = histogramQuantile(counts, 0.99) ?? -1;
        return p99 >= exact && p99 <= Math.max(1, Math.ceil(exact * 1.05));
      }),
    );
  });

  it('puts negative and sub-millisecond latencies in bucket 0, and is empty without values', () => {
    expect(latencyBucket(-50)).toBe(0);
    expect(latencyBucket(0.5)).toBe(0);
    expect(bucketUpperMs(0)).toBe(1);
    expect(histogramQuantile(new Map(), 0.99)).toBeNull();
  });
});

describe('file patterns', () => {
  it('matches relative paths with picomatch, never dot files', () => {
    const match = compileFilePattern('**/*.{hl7,txt}');
    expect(match('a.hl7')).toBe(true);
    expect(match('sub/deep/b.txt')).toBe(true);
    expect(match('c.xml')).toBe(false);
    expect(match('.hidden.hl7')).toBe(false);
    expect(compileFilePattern('*.hl7')('sub/a.hl7')).toBe(false);
  });

  it('names the problem of unusable patterns', () => {
    expect(filePatternProblem('*.hl7')).toBeUndefined();
    expect(filePatternProblem('[abc')).toMatch(/closing/);
    expect(filePatternProblem('../x/*.hl7')).toMatch(/\.\./);
    expect(filePatternProblem('/etc/*.hl7')).toMatch(/relative/);
    expect(filePatternProblem('   ')).toMatch(/empty/);
  });
});

describe('ledger verdicts', () => {
  const content = Buffer.from(`${adtMessage('L1')}\r`);
  const row = {
    id: 7,
    interface_id: 'i',
    path: 'a.hl7',
    size: content.length,
    mtime_ms: 1000,
    content_hash: sha256(content),
    message_count: 1,
    failed_count: 0,
    state: 'ingested',
    error: null,
    first_read_at: '',
    last_read_at: '',
  } satisfies FileRow;

  it('tells new, unchanged, touched, appended and rewritten files apart', async () => {
    expect(judgeByStat(undefined, 10, 1)).toEqual({ kind: 'new' });
    expect(judgeByStat(row, content.length, 1000)?.kind).toBe('unchanged');
    expect(judgeByStat(row, content.length, 2000)).toBeUndefined();
    expect((await judgeByContent(row, content, sha256(content))).kind).toBe('touched');
    const appended = Buffer.concat([content, Buffer.from(adtMessage('L2'))]);
    expect((await judgeByContent(row, appended, sha256(appended))).kind).toBe('appended');
    const rewritten = Buffer.from(adtMessage('OTHER'));
    expect((await judgeByContent(row, rewritten, sha256(rewritten))).kind).toBe('rewritten');
    const longerButDifferent = Buffer.concat([Buffer.from('X'), content]);
    expect((await judgeByContent(row, longerButDifferent, sha256(longerButDifferent))).kind).toBe('rewritten');
    // a row committed in part is never unchanged: its content is read again from the stored count
    const partial = { ...row, state: 'partial' };
    expect(judgeByStat(partial, content.length, 1000)).toBeUndefined();
    expect((await judgeByContent(partial, content, sha256(content))).kind).toBe('appended');
  });
});

/** The HL7 reader without profiles; messages of `pooledFrom` characters or more go to `validate` instead. */
function contentReaders(pooledFrom = Number.POSITIVE_INFINITY): ContentReaders & { validated: string[] } {
  const validated: string[] = [];
  const hl7 = { id: 'hl7', displayName: 'HL7 v2', detect: () => 1, reading: createHl7Reading(createHl7MessageReader(loadHl7Profiles([]))) };
  return {
    adapters: () => [hl7 as unknown as StandardAdapter],
    read: (adapter, content, options) => adapter.reading!.readMessages(content, options),
    validateHere: (length) => length < pooledFrom,
    validate(_adapter, content) {
      validated.push(content);
      return { isValid: false, errors: [{ field: 'MSH', code: 'POOLED', severity: 'error', message: 'validated apart' }], warnings: [] };
    },
    validated,
  };
}

describe('reading untrusted content', () => {
  const monitored = { standard: 'hl7', validationMode: 'compatibility', profileName: null } as MonitoredInterface;
  const readers = contentReaders();
  const messages = fc.array(fc.constantFrom(...['A', 'B', 'C'].map((id) => adtMessage(id))), { maxLength: 5 });
  const separators = fc.constantFrom('\r', '\n', '\r\n');

  it('splits any mix of messages, separators, framing and noise without throwing, one message per MSH', () => {
    fc.assert(
      fc.property(messages, separators, fc.boolean(), fc.boolean(), (list, separator, bom, mllp) => {
        let text = list.map((m) => m.replaceAll('\r', separator)).join(separator);
        if (mllp) text = `\u000b${text}\u001c\r`;
        if (bom) text = `\ufeff${text}`;
        return splitHl7Messages(text).messages.length === list.length;
      }),
    );
  });

  it('turns arbitrary bytes into messages or one parse error, never an exception', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        const reading = await readContent(Buffer.from(bytes), { readers, monitored, receivedAtMs: 0, skip: 0 });
        if (reading.unparsable) return reading.messages.length === 1 && reading.messages[0].errors[0].code === 'PARSE_ERROR';
        return reading.messages.length === splitHl7Messages(Buffer.from(bytes)).messages.length;
      }),
      { numRuns: 300 },
    );
  });

  it('returns only the messages after those already counted', async () => {
    const content = Buffer.from([adtMessage('S1'), adtMessage('S2'), adtMessage('S3')].join('\r'));
    const reading = await readContent(content, { readers, monitored, receivedAtMs: 0, skip: 2 });
    expect(reading.messages.map((m) => [m.indexInFile, m.controlId])).toEqual([[2, 'S3']]);
  });

  it('validates each message of a batch from the one parse, and hands a message long enough for the pool to the runner', async () => {
    const long = `${adtMessage('LONG')}\rNTE|1||${'x'.repeat(3000)}`;
    const content = Buffer.from([adtMessage('S1'), long, 'MSH|^~\\&|broken'].join('\r'));
    const apart = contentReaders(2000);
    const reading = await readContent(content, { readers: apart, monitored, receivedAtMs: 0, skip: 0 });
    expect(reading.messages.map((m) => m.controlId)).toEqual(['S1', 'LONG', null]);
    expect(apart.validated).toEqual([long]);
    expect(reading.messages[0].isValid).toBe(true);
    expect(reading.messages[1].errors.map((e) => e.code)).toEqual(['POOLED']);
    expect(reading.messages[2].isValid).toBe(false);
  });

  it('stores on the message itself that its bytes could not be decoded', async () => {
    const [head, tail] = adtMessage('ENC').split('PID|');
    const content = Buffer.concat([Buffer.from(`${head}PID|`), Buffer.from([0xff, 0xfe]), Buffer.from(tail)]);
    const strict = { standard: 'hl7', validationMode: 'strict', profileName: null } as MonitoredInterface;
    const [message] = (await readContent(content, { readers, monitored: strict, receivedAtMs: 0, skip: 0 })).messages;
    expect(message.controlId).toBe('ENC');
    expect(message.isValid).toBe(false);
    expect(message.errors.map((e) => e.code)).toContain('INVALID_ENCODING');
  });

  it('validates against the standard alone, with a warning on each message, when the profile is not loaded', async () => {
    const content = Buffer.from([adtMessage('P1'), adtMessage('P2')].join('\r'));
    const withProfile = { standard: 'hl7', validationMode: 'compatibility', profileName: 'gone' } as MonitoredInterface;
    const reading = await readContent(content, { readers, monitored: withProfile, receivedAtMs: 0, skip: 0 });
    expect(reading.messages.map((m) => [m.isValid, m.warnings[0]?.code])).toEqual([
      [true, 'PROFILE_NOT_LOADED'],
      [true, 'PROFILE_NOT_LOADED'],
    ]);
  });
});

describe('raw text retention', () => {
  it('removes the raw text of messages older than the cut-off and keeps their facts', async () => {
    const { pruneRawContent } = await import('../../plugins/monitor/messages/raw-retention.ts');
    await withMonitorStorage('sqlite', async (storage) => {
      const readers = contentReaders();
      const monitored = { standard: 'hl7', validationMode: 'compatibility', profileName: null } as MonitoredInterface;
      for (const [path, day] of [['old.hl7', '2026-01-01'], ['new.hl7', '2026-01-20']] as const) {
        const content = Buffer.from(adtMessage(path));
        const reading = await readContent(content, { readers, monitored, receivedAtMs: Date.parse(`${day}T00:00:00Z`), skip: 0 });
        await commitFiles(
          storage,
          [{ interfaceId: 'i', path, size: content.length, mtimeMs: 1, hash: sha256(content), receivedAt: `${day}T00:00:00.000Z`, verdict: { kind: 'new' }, state: 'ingested', error: null, messages: reading.messages }],
          true,
        );
      }
      expect(await pruneRawContent(storage.db, Date.parse('2026-01-13T00:00:00Z'))).toBe(1);
      const rows = await storage.db.selectFrom('monitor_messages').select(['control_id', 'raw']).orderBy('control_id').execute();
      expect(rows.map((r: { control_id: string; raw: string | null }) => [r.control_id, r.raw === null])).toEqual([
        ['new.hl7', false],
        ['old.hl7', true],
      ]);
      expect(await pruneRawContent(storage.db, Date.parse('2026-01-13T00:00:00Z'))).toBe(0);
    });
  });
});

describe('ledger commits', () => {
  const stores = testPostgresUrl ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
  if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: ledger commits are tested on SQLite only.');

  for (const name of stores) {
    it(`store a batch whole or not at all, and leave the database usable after a refused batch (${name})`, async () => {
      await withMonitorStorage(name, async (storage) => {
        const readers = contentReaders();
        const monitored = { standard: 'hl7', validationMode: 'compatibility', profileName: null } as MonitoredInterface;
        const fileOf = async (path: string, ids: string[]) => {
          const content = Buffer.from(ids.map((id) => adtMessage(id)).join('\r'));
          const reading = await readContent(content, { readers, monitored, receivedAtMs: Date.now(), skip: 0 });
          return { interfaceId: 'i', path, size: content.length, mtimeMs: 1, hash: sha256(content), receivedAt: new Date().toISOString(), verdict: { kind: 'new' as const }, state: 'ingested' as const, error: null, messages: reading.messages };
        };
        const good = await fileOf('a.hl7', ['A1', 'A2']);
        const committed = await commitFiles(storage, [good, await fileOf('b.hl7', ['B1'])], true);
        expect(committed.map((c) => c.file.path)).toEqual(['a.hl7', 'b.hl7']);
        // a file whose two messages claim the same place in it: the database refuses the batch, nothing of it stays
        const broken = await fileOf('c.hl7', ['C1', 'C2']);
        broken.messages[1] = { ...broken.messages[1], indexInFile: 0 };
        await expect(commitFiles(storage, [await fileOf('d.hl7', ['D1']), broken], true)).rejects.toThrow();
        const files = await storage.db.selectFrom('monitor_files').select('path').orderBy('path').execute();
        expect(files.map((f: { path: string }) => f.path)).toEqual(['a.hl7', 'b.hl7']);
        const minutes = await storage.db.selectFrom('monitor_minutes').select('messages').execute();
        expect(minutes.reduce((sum: number, m: { messages: number }) => sum + Number(m.messages), 0)).toBe(3);
        // no transaction was left open: the next batch and plain queries go through
        await commitFiles(storage, [await fileOf('e.hl7', ['E1'])], true);
        const messages = await storage.db.selectFrom('monitor_messages').select('control_id').orderBy('control_id').execute();
        expect(messages.map((m: { control_id: string }) => m.control_id)).toEqual(['A1', 'A2', 'B1', 'E1']);
        expect(storage.sqlite?.inTransaction ?? false).toBe(false);
      });
    });
  }
});
