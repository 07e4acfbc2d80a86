import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { container } from 'tsyringe';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ErrorRegistry } from '../../kernel/errors.ts';
import type { PluginContext } from '../../kernel/plugin-api.ts';
import { StandardsRegistry } from '../../kernel/standards-registry.ts';
import { fhirErrors } from '../../plugins/fhir-standard/errors.ts';
import { FHIR_ISSUE_CODES } from '../../plugins/fhir-standard/fhir-issues.ts';
import { plugin } from '../../plugins/fhir-standard/index.ts';
import { SYNTHETIC_DATA } from '../../plugins/synthetic-data/api.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';

describe('fhir-standard plugin', () => {
  it('validates without the synthetic-data service; generating then answers GENERATION_UNAVAILABLE', async () => {
    const standards = new StandardsRegistry();
    const context = {
      container: container.createChildContainer(),
      standards,
      profiles: [],
      registerErrors: () => undefined,
      logger: { warn: () => undefined, info: () => undefined },
    } as unknown as PluginContext;
    await plugin.register(context);
    const adapter = standards.get('fhir')!;
    expect(adapter.validate('{"resourceType":"Patient","gender":"male"}', { mode: 'strict' }).isValid).toBe(true);
    expect(() => adapter.generate({ messageType: 'Patient', count: 1, seed: 1 })).toThrow(
      expect.objectContaining({ code: 'GENERATION_UNAVAILABLE' }),
    );
  });

  it('registers the fhir adapter and its error catalogue, and logs broken profile files by name', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'fhir-plugin-'));
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    const broken = join(directory, 'broken.json');
    writeFileSync(broken, '{');
    const child = container.createChildContainer();
    child.registerInstance(SYNTHETIC_DATA, createSyntheticDataService());
    const standards = new StandardsRegistry();
    const errors = new ErrorRegistry();
    const warnings: string[] = [];
    const context = {
      container: child,
      standards,
      profiles: [{ manifest: { id: 'bad', version: '1', description: 'bad', standard: 'fhir' }, directory, files: [broken] }],
      registerErrors: (catalogue: Record<string, { status: number; message: string }>) => errors.register('fhir-standard', catalogue),
      logger: { warn: (_: unknown, message: string) => warnings.push(message), info: () => undefined },
    } as unknown as PluginContext;
    await plugin.register(context);
    const adapter = standards.get('fhir');
    expect(adapter?.versions).toEqual(['4.0.1']);
    expect(standards.detect('{"resourceType":"Patient"}')?.id).toBe('fhir');
    expect(errors.list().filter((e) => e.owner === 'fhir-standard').map((e) => e.code)).toEqual([
      'UNKNOWN_MESSAGE_TYPE',
      'UNSUPPORTED_VERSION',
      'PROFILE_NOT_FOUND',
      'MESSAGE_UNPARSEABLE',
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(broken);
    expect(JSON.parse(adapter?.generate({ messageType: 'Patient', count: 1, seed: 3 })[0] ?? '{}').resourceType).toBe('Patient');
  });

  it('documents every issue code and error code in its README', () => {
    const readme = readFileSync(new URL('../../plugins/fhir-standard/README.md', import.meta.url), 'utf8');
    for (const code of [...Object.keys(FHIR_ISSUE_CODES), ...Object.keys(fhirErrors.catalogue)]) {
      expect(readme, code).toContain(`| \`${code}\` |`);
    }
  });
});
