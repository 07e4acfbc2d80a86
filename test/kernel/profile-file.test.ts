// The one profile-file reader of the kernel: JSON or YAML by extension, a byte-order mark removed, schema problems
// formatted once.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ProfileFileError, readProfileData, readProfileFile } from '../../kernel/standards/profile-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'wb-profile-file-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const schema = z.object({ name: z.string(), fields: z.record(z.string(), z.object({ usage: z.enum(['R', 'RE', 'X']) })) }).strict();

describe('profile files', () => {
  it('reads JSON and YAML alike, with or without a byte-order mark', () => {
    const expected = { name: 'p', fields: { 'PID.5': { usage: 'R' } } };
    expect(readProfileData(file('a.json', JSON.stringify(expected)))).toEqual(expected);
    expect(readProfileData(file('b.json', `\ufeff${JSON.stringify(expected)}`))).toEqual(expected);
    expect(readProfileData(file('c.yaml', 'name: p\nfields:\n  PID.5: { usage: R }\n'))).toEqual(expected);
    expect(readProfileData(file('d.YML', '\ufeffname: p\nfields:\n  PID.5: { usage: R }\n'))).toEqual(expected);
  });

  it('names the format and the reason when a file does not parse', () => {
    expect(() => readProfileData(file('e.json', '{ "name": '))).toThrow(/^cannot be read as JSON: /);
    expect(() => readProfileData(file('f.yaml', 'name: [unclosed'))).toThrow(/^cannot be read as YAML: /);
    expect(() => readProfileData(join(dir, 'missing.json'))).toThrow(ProfileFileError);
  });

  it('lists every schema problem by path in one sentence', () => {
    const bad = file('g.json', JSON.stringify({ fields: { 'PID.5': { usage: 'MAYBE' } }, colour: 'blue' }));
    let error: ProfileFileError | undefined;
    try {
      readProfileFile(bad, schema, 'test profile');
    } catch (thrown) {
      error = thrown as ProfileFileError;
    }
    expect(error).toBeInstanceOf(ProfileFileError);
    expect(error?.file).toBe(bad);
    expect(error?.message).toMatch(/^is not a valid test profile: /);
    expect(error?.message).toContain('name: ');
    expect(error?.message).toContain('fields.PID.5.usage: ');
    expect(error?.message).toContain('(root): ');
  });
});
