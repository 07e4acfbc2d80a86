/**
 * The HL7 plugin through the real HTTP interface of the bridge: validation findings as data, bad requests as
 * 400 errors from the plugin's catalogue, profiles applied by name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir } from '../helpers/shared-corpus.ts';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const ADT =
  'MSH|^~\\&|SND|FAC|RCV|RFAC|20250101120000||ADT^A01^ADT_A01|CTRL1|P|2.5.1\rEVN|A01|20250101120000\rPID|1||12345^^^FAC^MR||\rPV1|1|I';

const wb = useTestWorkbench();

function validate(body: Record<string, unknown>) {
  return wb.call('bridge', { method: 'POST', path: '/api/validate', body });
}

describe('POST /api/validate with HL7 v2', () => {
  it('detects HL7 and reports a missing required field as data (success true, isValid false)', async () => {
    const res = await validate({ messageContent: ADT });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data.isValid).toBe(false);
    expect(res.json.data.errors).toEqual([
      {
        field: 'PID.5',
        code: 'REQUIRED_FIELD_MISSING',
        severity: 'error',
        message: 'PID.5 (Patient Name) is required in ADT^A01 v2.5.1 but is empty.',
        expected: 'a value',
        actual: 'empty',
      },
    ]);
  });

  it('applies a shipped profile by name, and refuses an unknown one with 400 PROFILE_NOT_FOUND', async () => {
    const fixed = ADT.replace('12345^^^FAC^MR||', '12345^^^FAC^MR||DOE^JANE');
    const ok = await validate({ messageContent: fixed, mode: 'compatibility', profile: 'ihe-pam-adt-encounter' });
    expect(ok.json.data.errors).toEqual([]);
    expect(ok.json.data.warnings.map((w: { code: string }) => w.code)).toContain('RECOMMENDED_FIELD_EMPTY');
    const missing = await validate({ messageContent: fixed, profile: 'no-such-profile' });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('PROFILE_NOT_FOUND');
  });

  it('refuses an unsupported version with 400 UNSUPPORTED_VERSION', async () => {
    const res = await validate({ messageContent: ADT, standard: 'hl7', version: '3.0' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('UNSUPPORTED_VERSION');
  });

  it.skipIf(!corpusDir('hl7v2'))('reports the OBX-5 defect of the malformed corpus order at OBX[1].5', async () => {
    const dir = corpusDir('hl7v2') as string;
    const content = readFileSync(join(dir, 'MALFORMED_ORM_O01_v2.5.1_OBX5-not-numeric__cdc-ti.hl7'), 'utf8');
    const res = await validate({ messageContent: content, mode: 'compatibility' });
    expect(res.json.data.isValid).toBe(false);
    expect(res.json.data.errors.map((e: { code: string; field: string }) => `${e.code} ${e.field}`)).toContain('INVALID_DATA_TYPE OBX[1].5');
  });
});
