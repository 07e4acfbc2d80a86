// Received files read in one pass (kernel received-files.ts), as a worker of the pool runs them: each file read once,
// bounded by its expected size plus one byte, hashed, given to the reading adapter the standard names or the most
// confident one, and its messages read; a missing file, an empty one, content no adapter is sure of and an unknown
// profile each answer as data, never as a thrown error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseReadingAdapter, readReceivedFiles, readSettledContent, type ReceivedFile } from '../../kernel/lib/input/received-files.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import type { StandardAdapter } from '../../kernel/standards-registry.ts';
import { startRegisteredAdapters, type RegisteredAdapters } from '../helpers/registered-adapters.ts';

const MESSAGE = 'MSH|^~\\&|APP|FAC|RAPP|RFAC|20260101120000||ADT^A01^ADT_A01|CTRL1|P|2.5\rEVN|A01|20260101120000\rPID|1||P1^^^HOSP^MR||DOE^JANE';

describe('received files', () => {
  let registered: RegisteredAdapters;
  let adapters: StandardAdapter[];
  let dir: string;
  beforeAll(async () => {
    registered = await startRegisteredAdapters('workbench-received-');
    ({ adapters, dir } = registered);
  });
  afterAll(() => registered.stop());

  const write = (name: string, content: string): { path: string; expectedSize: number } => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return { path, expectedSize: Buffer.byteLength(content) };
  };
  const ok = (file: ReceivedFile | undefined) => {
    if (!file?.ok) throw new Error(`not read: ${JSON.stringify(file)}`);
    return file;
  };

  it('reads a file once, with its hash, the adapter chosen by content and its messages with facts and verdicts', () => {
    const file = write('one.hl7', MESSAGE);
    const [read] = readReceivedFiles(adapters, [file], { standard: 'auto', read: { mode: 'compatibility' } });
    const done = ok(read);
    expect(Buffer.from(done.content).toString('utf8')).toBe(MESSAGE);
    expect(done.sha256).toBe(createHash('sha256').update(MESSAGE).digest('hex'));
    expect(done.after).toEqual({ size: MESSAGE.length, mtimeMs: statSync(file.path).mtimeMs });
    expect(done.reader).toBe('hl7');
    expect(done.read?.messageCount).toBe(1);
    expect(done.read?.messages[0].facts.controlId).toBe('CTRL1');
    expect(done.read?.messages[0].verdict).toBeDefined();
  });

  it('reads at most one byte past the expected size, so a file that grew shows it', () => {
    const file = write('grew.hl7', `${MESSAGE}\rPV1|1|I`);
    const { content, after } = readSettledContent(file.path, MESSAGE.length);
    expect(content.length).toBe(MESSAGE.length + 1);
    expect(after.size).toBe(MESSAGE.length + '\rPV1|1|I'.length);
  });

  it('answers a missing file with its error code, and reads the others of the batch', () => {
    const present = write('present.hl7', MESSAGE);
    const results = readReceivedFiles(adapters, [{ path: join(dir, 'gone.hl7'), expectedSize: 10 }, present], {
      standard: 'hl7',
      read: { mode: 'compatibility' },
    });
    expect(results[0]).toEqual({ ok: false, code: 'ENOENT' });
    expect(ok(results[1]).read?.messageCount).toBe(1);
  });

  it('leaves an empty file and content no adapter is sure of unread, for the caller to judge', () => {
    const empty = write('empty.hl7', '');
    const noise = write('noise.hl7', 'just some words, of no standard at all');
    const [emptyRead, noiseRead] = readReceivedFiles(adapters, [empty, noise], { standard: 'auto', read: { mode: 'compatibility' } });
    expect(ok(emptyRead)).toMatchObject({ content: new Uint8Array(0) });
    expect(ok(emptyRead).reader).toBeUndefined();
    expect(ok(noiseRead).reader).toBeUndefined();
    expect(ok(noiseRead).read).toBeUndefined();
    // nothing resembles it at all: no standard is named for it (the caller keeps its own default)
    expect(chooseReadingAdapter(adapters, 'auto', Buffer.from('just some words'))).toEqual({ adapter: undefined, fallback: undefined });
  });

  it('answers an unknown profile as the reading error, per file', () => {
    const file = write('profiled.hl7', MESSAGE);
    const [read] = readReceivedFiles(adapters, [file], { standard: 'hl7', read: { mode: 'compatibility', profile: 'no-such-profile' } });
    expect(ok(read).readError?.code).toBe('PROFILE_NOT_FOUND');
    expect(ok(read).read).toBeUndefined();
  });

  it('runs a batch in the worker pool with the same answers as in the thread', async () => {
    const files = Array.from({ length: 20 }, (_, i) => write(`pooled-${i}.hl7`, MESSAGE.replace('CTRL1', `CTRL${i}`)));
    const options = { standard: 'auto', read: { mode: 'compatibility' as const } };
    const runner = resolveService(registered.wb.workbench.container, TOKENS.StandardsRunner);
    const pooled = await runner.readFiles(files, options);
    expect(pooled).toBeDefined();
    const here = readReceivedFiles(adapters, files, options);
    expect(pooled!.map((f) => ok(f).read?.messages[0].facts.controlId)).toEqual(here.map((f) => ok(f).read?.messages[0].facts.controlId));
    expect(pooled!.map((f) => ok(f).sha256)).toEqual(here.map((f) => ok(f).sha256));
  });
});
