// Messages of IHE and public-health guides through POST /api/validate: QPD fields after QPD-2 belong to each query's
// own definition (PDQ repeats QPD-3 and uses QPD-8, PIX uses QPD-4), PHIN VADS value-set names in CWE.3 are readable
// in compatibility mode (strict keeps them errors), and an observation value with no value type is an error in both.
import { describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const wb = useTestWorkbench({ onlyPlugins: new Set(['message-bridge', 'hl7-standard']) });

const PDQ = [
  'MSH|^~\\&|APP|FAC|PDS|FAC|20250101120000||QBP^Q22^QBP_Q21|Q1|P|2.5',
  'QPD|IHE PDQ Query|QRY123|@PID.5.1^SMITH~@PID.8^F|||||^^^HOSP&1.2.3&ISO',
  'RCP|I|10^RD',
].join('\r');
const PIX = [
  'MSH|^~\\&|APP|FAC|PIX|FAC|20250101120000||QBP^Q23^QBP_Q21|Q2|P|2.5',
  'QPD|IHE PIX Query|QRY124|123^^^HOSP&1.2.3&ISO^MR|^^^OTHER&1.2.4&ISO~^^^THIRD&1.2.5&ISO',
  'RCP|I',
].join('\r');
const CASE_REPORT = [
  'MSH|^~\\&|APP|FAC|CDC|FAC|20250101120000||ORU^R01^ORU_R01|P1|P|2.5.1',
  'PID|1||123^^^HOSP^MR||DOE^JANE||19800101|F',
  'OBR|1||F1|68991-9^Epidemiologically important information^LN',
  'OBX|1|CWE|INV169^Condition^PHINQUESTION||10110^Hepatitis A, acute^PH_NotifiableEvent_Disease_Condition_CDC_NNDSS||||||F',
  'OBX|2|CWE|DEM113^Sex^PHINQUESTION||F^Female^PH_SexOfPatient_HL7_2x||||||F',
].join('\r');

const validate = (messageContent: string, mode: 'strict' | 'compatibility') =>
  wb.call('bridge', { path: '/api/validate', body: { messageContent, mode } });

describe('query parameters after QPD-2', () => {
  it('accepts a PDQ query (QPD-3 repeated, QPD-8 used) and a PIX query (QPD-4) in both modes', async () => {
    for (const message of [PDQ, PIX]) {
      for (const mode of ['strict', 'compatibility'] as const) {
        const res = await validate(message, mode);
        expect(res.status).toBe(200);
        const codes = [...res.json.data.errors, ...res.json.data.warnings].map((i: { code: string }) => i.code);
        expect(codes, `${mode}: ${JSON.stringify(res.json.data.errors)}`).not.toContain('TOO_MANY_REPETITIONS');
        expect(codes).not.toContain('UNKNOWN_ELEMENT');
        expect(res.json.data.isValid).toBe(true);
      }
    }
  });
});

describe('public-health coding-system names', () => {
  it('are readable in compatibility mode and errors in strict mode', async () => {
    const lenient = await validate(CASE_REPORT, 'compatibility');
    expect(lenient.json.data).toMatchObject({ isValid: true, errors: [], warnings: [] });
    const strict = await validate(CASE_REPORT, 'strict');
    expect(strict.json.data.isValid).toBe(false);
    expect(strict.json.data.errors.map((i: { field: string }) => i.field)).toEqual(['OBX[1].5.3', 'OBX[2].5.3']);
  });

  it('keeps coded-element tables checked: a value outside an HL7 table still counts', async () => {
    const badStatus = CASE_REPORT.replace('PH_SexOfPatient_HL7_2x||||||F', 'PH_SexOfPatient_HL7_2x||||||Z');
    for (const mode of ['strict', 'compatibility'] as const) {
      const res = await validate(badStatus, mode);
      const found = [...res.json.data.errors, ...res.json.data.warnings].map((i: { code: string; field: string }) => `${i.field} ${i.code}`);
      expect(found, mode).toContain('OBX[2].11 VALUE_NOT_IN_TABLE');
    }
  });
});

describe('an observation value without a value type', () => {
  it('is an error in both modes', async () => {
    const untyped = `${CASE_REPORT}\rOBX|3||8867-4^Heart rate^LN||72||||||F`;
    for (const mode of ['strict', 'compatibility'] as const) {
      const res = await validate(untyped, mode);
      expect(res.json.data.isValid, mode).toBe(false);
      expect(res.json.data.errors).toContainEqual(expect.objectContaining({ field: 'OBX[3].2', code: 'REQUIRED_FIELD_MISSING', severity: 'error' }));
    }
  });
});
