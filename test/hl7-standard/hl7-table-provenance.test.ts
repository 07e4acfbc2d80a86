/**
 * HL7 table content comes from named, dated sources (`plugins/hl7-standard/definitions/tables/`), and no bundled
 * table is older than the source it declares it follows. Table 0396 gained NCIT in 2025 (HL7 Terminology); that
 * value is accepted through `POST /api/validate`.
 */
import { describe, expect, it } from 'vitest';
import {
  bundledContentDate,
  loadTableProvenance,
  staleTables,
  type Hl7TableProvenance,
} from '../../plugins/hl7-standard/hl7-table-provenance.ts';
import { getHl7TableValues } from '../../plugins/hl7-standard/hl7-definitions.ts';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const ISO_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

describe('provenance of the bundled HL7 tables', () => {
  const provenance = loadTableProvenance();

  it('names, versions, dates and licenses every source and every update', () => {
    expect(provenance.sources.length).toBeGreaterThan(0);
    for (const s of provenance.sources) {
      expect(s.name, s.id).not.toBe('');
      expect(s.version, s.id).not.toBe('');
      expect(s.licence, s.id).not.toBe('');
      for (const date of [s.published, s.contentDate, s.retrieved]) expect(date, s.id).toMatch(ISO_DATE);
    }
    expect(provenance.sources.filter((s) => s.tables === '*')).toHaveLength(1);
    for (const u of provenance.updates) {
      expect(u.source, u.file).toMatch(/\S/);
      expect(u.version, u.file).toMatch(/\S/);
      expect(u.licence, u.file).toMatch(/\S/);
      expect(u.change, u.file).toMatch(/\S/);
      for (const date of [u.published, u.retrieved]) expect(date, u.file).toMatch(ISO_DATE);
      expect(u.add.length, u.file).toBeGreaterThan(0);
    }
    for (const d of provenance.declared) expect(d.date, d.table).toMatch(ISO_DATE);
  });

  it('bundles no table older than its declared source', () => {
    expect(staleTables()).toEqual([]);
  });

  it('finds a table stale when its declared source is newer than its content', () => {
    const newer: Hl7TableProvenance = {
      ...provenance,
      declared: provenance.declared.map((d) => (d.table === '0396' ? { ...d, date: '2099-01-01' } : d)),
    };
    expect(staleTables(newer).map((s) => s.table)).toEqual(['0396']);
    const withoutUpdate: Hl7TableProvenance = { ...provenance, updates: provenance.updates.filter((u) => u.table !== '0396') };
    expect(bundledContentDate('0396', withoutUpdate)).toBe('2019-10-30');
    expect(staleTables(withoutUpdate).map((s) => s.table)).toEqual(['0396']);
  });

  it('declares table 0396 after HL7 Terminology and carries NCIT from its dated update', () => {
    const declared = provenance.declared.find((d) => d.table === '0396');
    expect(declared?.source).toMatch(/HL7 Terminology/);
    const update = provenance.updates.find((u) => u.add.some((v) => v.code === 'NCIT'));
    expect(update).toMatchObject({ table: '0396', published: '2025-03-15' });
    expect(getHl7TableValues('0396')?.values).toContainEqual({ code: 'NCIT', description: 'NCI Thesaurus' });
  });
});

describe('table 0396 through POST /api/validate', () => {
  const wb = useTestWorkbench({}, 180_000);
  // Starting the workbench takes a while on a loaded machine.

  const message = (system: string) =>
    [
      'MSH|^~\\&|A|B|C|D|20250101||ORU^R01^ORU_R01|1|P|2.5.1',
      'PID|1||123^^^X^MR||DOE^JANE||19800101|F',
      'OBR|1||F1|C15220^Diagnosis^NCIT',
      `OBX|1|CWE|C15220^Diagnosis^${system}||C4872^Breast Carcinoma^${system}||||||F`,
    ].join('\r');

  it('accepts NCIT as a coding system and still rejects an unknown one', async () => {
    const call = async (system: string) => {
      const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: message(system), standard: 'hl7', mode: 'strict' } });
      expect(res.status).toBe(200);
      return [...res.json.data.errors, ...res.json.data.warnings] as { code: string; field: string; actual?: string }[];
    };
    expect((await call('NCIT')).filter((i) => i.code === 'VALUE_NOT_IN_TABLE')).toEqual([]);
    const unknown = (await call('NCITX')).filter((i) => i.code === 'VALUE_NOT_IN_TABLE');
    expect(unknown.map((i) => i.field)).toEqual(expect.arrayContaining(['OBX[1].3.3', 'OBX[1].5.3']));
  });
});
