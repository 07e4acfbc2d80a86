/**
 * SCRIPT versions this plugin does not claim: one UNSUPPORTED_VERSION error, then, for a version close to a
 * supported one, a best-effort check against it whose findings are labelled warnings; through the engine and HTTP.
 */
import { describe, expect, it } from 'vitest';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { validateNcpdp } from '../../plugins/ncpdp-standard/ncpdp-validator.ts';
import { closestScriptVersion } from '../../plugins/ncpdp-standard/script/script-rules.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
const newRx = adapter.generate({ messageType: 'NewRx', count: 1, seed: 7 })[0] as string;

/** The generated 2017071 NewRx declaring another version in `version` (the six attributes kept). */
function declaring(version: string): string {
  return newRx.replace('<Message xmlns="http://www.ncpdp.org/schema/SCRIPT"', `<Message xmlns="http://www.ncpdp.org/schema/SCRIPT" version="${version}"`);
}

describe('closestScriptVersion', () => {
  it('maps 10.x to 10.6 and dated versions to the nearest supported one within three years', () => {
    expect(closestScriptVersion('10.5')).toBe('10.6');
    expect(closestScriptVersion('10.11')).toBe('10.6');
    expect(closestScriptVersion('2018041')).toBe('2017071');
    expect(closestScriptVersion('2021071')).toBe('2023011');
    expect(closestScriptVersion('2024071')).toBe('2023011');
    for (const far of ['5.0', '8.1', '2030011', '2010011', 'abc', '']) expect(closestScriptVersion(far), far).toBeUndefined();
  });
});

describe('validating a SCRIPT version not claimed', () => {
  it('the generated message is clean as 2017071', () => {
    expect(validateNcpdp(newRx, { mode: 'strict' }).errors).toEqual([]);
  });

  it('a close version: one UNSUPPORTED_VERSION error, the best-effort findings are labelled warnings', () => {
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = validateNcpdp(declaring('2018041'), { mode });
      expect(result.isValid).toBe(false);
      expect(result.errors).toEqual([
        {
          field: 'Message@version',
          code: 'UNSUPPORTED_VERSION',
          severity: 'error',
          message:
            'Message declares SCRIPT version "2018041", which is not one of 10.6, 2017071, 2023011; it was checked best-effort against the closest supported version, 2017071, whose findings follow as warnings.',
        },
      ]);
      expect(result.summary).toMatchObject({ declaredVersion: '2018041', bestEffortAgainst: '2017071', version: '2017071' });
      // The content is a clean 2017071 NewRx: the best-effort check finds nothing.
      expect(result.warnings).toEqual([]);
    }
  });

  it('what the best-effort check finds is a warning that says so', () => {
    const broken = declaring('2021071').replace(/<MessageID>[^<]*<\/MessageID>/, '');
    const result = validateNcpdp(broken, { mode: 'strict' });
    expect(result.errors.map((e) => e.code)).toEqual(['UNSUPPORTED_VERSION']);
    expect(result.warnings.length).toBeGreaterThan(0);
    for (const warning of result.warnings) {
      expect(warning.message).toMatch(/^Best-effort check against SCRIPT 2023011 \(the message declares 2021071\): /);
    }
    expect(result.warnings.map((w) => `${w.code} ${w.field}`)).toContain('REQUIRED_FIELD_MISSING Header.MessageID');
  });

  it('a version close to none: the one finding, nothing checked', () => {
    const result = validateNcpdp(declaring('5.0').replace(/<MessageID>[^<]*<\/MessageID>/, ''), { mode: 'strict' });
    expect(result.errors.map((e) => `${e.code} ${e.field}`)).toEqual(['UNSUPPORTED_VERSION Message@version']);
    expect(result.errors[0]?.message).toContain('nor close to one; its content was not checked');
    expect(result.warnings).toEqual([]);
  });

  it('a requested version validates as asked, after the one finding', () => {
    const result = adapter.validate(declaring('2021071'), { mode: 'strict', version: '2017071' });
    expect(result.errors.map((e) => e.code)).toEqual(['UNSUPPORTED_VERSION']);
    expect(result.errors[0]?.message).toContain('validated as 2017071, as asked');
  });
});

describe('POST /api/validate with an unclaimed SCRIPT version', () => {
  const wb = useTestWorkbench();

  it('answers the single error and the labelled best-effort summary', async () => {
    const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: declaring('10.5'), mode: 'compatibility' } });
    expect(res.status).toBe(200);
    expect(res.json.data.standard).toBe('ncpdp');
    expect(res.json.data.errors.map((e: { code: string }) => e.code)).toEqual(['UNSUPPORTED_VERSION']);
    expect(res.json.data.summary.bestEffortAgainst).toBe('10.6');
    for (const warning of res.json.data.warnings) expect(warning.message).toMatch(/^Best-effort check against SCRIPT 10\.6 /);
  });
});
