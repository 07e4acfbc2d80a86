import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PluginContext } from '../../kernel/plugin-api.ts';
import { discoverProfilePacks } from '../../kernel/standards/profile-packs.ts';
import { StandardsRegistry } from '../../kernel/standards-registry.ts';
import { WorkbenchError } from '../../kernel/errors.ts';
import { SYNTHETIC_DATA } from '../../plugins/synthetic-data/api.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { HL7_MESSAGE_READER, type Hl7MessageReader } from '../../plugins/hl7-standard/api.ts';
import { hl7Errors } from '../../plugins/hl7-standard/errors.ts';
import { createHl7Adapter } from '../../plugins/hl7-standard/hl7-adapter.ts';
import { loadHl7Profiles } from '../../plugins/hl7-standard/profiles/hl7-profiles.ts';
import { plugin } from '../../plugins/hl7-standard/index.ts';

const shippedRoot = resolve(import.meta.dirname, '..', '..', 'profiles');
const profiles = loadHl7Profiles(discoverProfilePacks([shippedRoot]).packs);
const adapter = createHl7Adapter({ synthetic: createSyntheticDataService(), profiles });

const ADT = 'MSH|^~\\&|A|B|C|D|20240101120000||ADT^A01^ADT_A01|1|P|2.5.1\rEVN|A01|20240101\rPID|1||1^^^H^MR||DOE^J||19800101|F\rPV1|1|I';

function thrown(fn: () => unknown): WorkbenchError {
  try {
    fn();
  } catch (error) {
    if (error instanceof WorkbenchError) return error;
    throw error;
  }
  throw new Error('expected a WorkbenchError');
}

describe('createHl7Adapter', () => {
  it('describes itself', () => {
    expect(adapter.id).toBe('hl7');
    expect(adapter.defaultVersion).toBe('2.3');
    expect(adapter.versions).toEqual(['2.3', '2.3.1', '2.4', '2.5', '2.5.1', '2.6', '2.7', '2.7.1', '2.8']);
    expect(adapter.messageTypes[0]).toBe('ADT^A01');
    expect(adapter.detect(ADT)).toBeGreaterThan(0.9);
  });

  it('validates content and never throws for bad content', () => {
    expect(adapter.validate(ADT, { mode: 'strict' }).isValid).toBe(true);
    const bad = adapter.validate('\u0000garbage', { mode: 'strict' });
    expect(bad.isValid).toBe(false);
    expect(bad.errors[0]?.code).toBe('PARSE_ERROR');
  });

  it('throws 400 errors from its catalogue for bad requests', () => {
    const profile = thrown(() => adapter.validate(ADT, { mode: 'strict', profile: 'no-such-profile' }));
    expect(profile).toMatchObject({ code: 'PROFILE_NOT_FOUND', status: 400 });
    expect(profile.message).toMatch(/no-such-profile.*acme-adt/);
    expect(thrown(() => adapter.validate(ADT, { mode: 'strict', version: '9.9' }))).toMatchObject({ code: 'UNSUPPORTED_VERSION', status: 400 });
    expect(thrown(() => adapter.generate({ messageType: 'XYZ^Q99', count: 1 }))).toMatchObject({ code: 'UNKNOWN_MESSAGE_TYPE', status: 400 });
    expect(Object.values(hl7Errors.catalogue).every((d) => d.status === 400)).toBe(true);
  });

  it('applies a named profile', () => {
    const result = adapter.validate(ADT, { mode: 'compatibility', profile: 'acme-adt' });
    expect(result.errors.map((e) => e.code)).toContain('CONSTRAINT_FAILED');
    expect(result.summary?.profile).toBe('acme-adt');
  });

  it('describes paths from the definitions of a version', () => {
    // The default version is 2.3: PID-5 repeats there (definitions/corrections.json), PID-7 does not.
    expect(adapter.describe('PID.5')).toMatchObject({ name: 'Patient Name', dataType: 'XPN', optionality: 'required', repeatable: true });
    expect(adapter.describe('PID.7')).toMatchObject({ name: 'Date of Birth', dataType: 'TS', repeatable: false });
    expect(adapter.describe('PID.5', { version: '2.5.1' })).toMatchObject({ repeatable: true, maxLength: 250 });
    expect(adapter.describe('PID.5.1', { version: '2.5.1' })).toMatchObject({ name: 'Patient Name - Family Name', dataType: 'FN' });
    expect(adapter.describe('OBX.11', { version: '2.8' })).toMatchObject({ name: 'Observation Result Status', table: '0085' });
    expect(adapter.describe('PID.999')).toBeUndefined();
    expect(adapter.describe('not a path')).toBeUndefined();
  });

  it('generates messages that it validates, and diffs them', () => {
    const [first, second] = adapter.generate({ messageType: 'ADT^A01', version: '2.5.1', count: 2, seed: 7 });
    expect(adapter.validate(first as string, { mode: 'compatibility' }).errors).toEqual([]);
    expect(adapter.diff(first as string, second as string, { ignoredFields: [] }).totalDifferences).toBeGreaterThan(0);
    expect(adapter.diff(first as string, first as string, { ignoredFields: [] }).totalDifferences).toBe(0);
  });

  it('lists the loaded profiles', () => {
    expect(adapter.profiles().map((p) => p.name)).toContain('cdc-elr-oru-r01');
  });
});

describe('hl7-standard plugin registration', () => {
  const temp = mkdtempSync(join(tmpdir(), 'hl7-plugin-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('registers the adapter and its errors, and logs broken profile files by name', async () => {
    const dir = join(temp, 'vendor-x');
    mkdirSync(dir);
    writeFileSync(join(dir, 'profile-pack.json'), JSON.stringify({ id: 'vendor-x', version: '1', description: 'x', standard: 'hl7' }));
    writeFileSync(join(dir, 'broken.json'), '{');
    writeFileSync(join(dir, 'fine.json'), JSON.stringify({ name: 'vendor-x-adt', messageTypes: ['ADT^A01'] }));
    const warnings: string[] = [];
    const registered: Record<string, unknown>[] = [];
    const standards = new StandardsRegistry();
    const synthetic = createSyntheticDataService();
    const services = new Map<unknown, unknown>();
    const context = {
      profiles: discoverProfilePacks([temp]).packs,
      logger: { warn: (_meta: unknown, message: string) => warnings.push(message) },
      registerErrors: (catalogue: Record<string, unknown>) => registered.push(catalogue),
      container: {
        resolve: (token: unknown) => (token === SYNTHETIC_DATA ? synthetic : undefined),
        registerInstance: (token: unknown, value: unknown) => services.set(token, value),
      },
      standards,
    } as unknown as PluginContext;
    await plugin.register(context);
    expect(registered).toEqual([hl7Errors.catalogue]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/broken\.json was skipped: it cannot be read as JSON/);
    expect(standards.get('hl7')?.profiles().map((p) => p.name)).toEqual(['vendor-x-adt']);
    expect(standards.detect(ADT)?.id).toBe('hl7');
    // the message reader splits and validates each message as the adapter validates it alone, with the same profiles
    const reader = services.get(HL7_MESSAGE_READER) as Hl7MessageReader;
    const options = { mode: 'strict', profile: 'vendor-x-adt' } as const;
    const alone = standards.get('hl7')?.validate(ADT, options);
    const read = reader.read(`${ADT}\r${ADT.replace('|1|P|', '|2|P|')}`, options);
    expect(read.messages.map((m) => m.controlId)).toEqual(['1', '2']);
    expect(read.messages[0].verdict).toEqual({ isValid: alone?.isValid, errors: alone?.errors, warnings: alone?.warnings });
    expect(() => reader.read(ADT, { mode: 'compatibility', profile: 'nope' })).toThrow(/vendor-x-adt/);
  });
});
