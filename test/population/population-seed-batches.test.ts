/**
 * The parts of a seed that need no server: a batch's rows in the engine's wire form (COPY's CSV, with NULL and the
 * empty string kept apart, and value lists that survive the row builder reusing its row), the row builder's visitor
 * giving the same rows as its array form, and the manifest of batches that committed out of order or with one
 * rolled back between them (key ranges with their holes, and the segments cleanup deletes).
 */
import { describe, expect, it } from 'vitest';
import type { CellValue } from '../../plugins/population/output/default-patient-schema.ts';
import { createPatientGenerator } from '../../plugins/population/generation/patient-generator.ts';
import type { SchemaInfo } from '../../plugins/population/database/schema-analysis.ts';
import { createTableBuffer, loadLanes } from '../../plugins/population/seeding/seed-loaders.ts';
import { keySegments, manifestOf, type TableManifest } from '../../plugins/population/seeding/seed-manifest.ts';
import { buildSeedPlan, createRowBuilder, type TablePlan } from '../../plugins/population/seeding/seed-plan.ts';
import { createFastRandom } from '../../plugins/synthetic-data/api.ts';
import { createSyntheticRandom } from '../../plugins/synthetic-data/synthetic-random.ts';

const column = (name: string, dataType: string, extra: Record<string, unknown> = {}) => ({
  name,
  dataType,
  nullable: false,
  default: null,
  maxLength: null,
  generated: false,
  allowedValues: null,
  ...extra,
});

const schema = {
  provider: 'postgres',
  database: 'clinic',
  cycles: [],
  insertOrder: ['patients', 'encounters'],
  tables: [
    {
      name: 'patients',
      rowCount: 0,
      primaryKey: ['id'],
      uniques: [],
      foreignKeys: [],
      columns: [column('id', 'bigint'), column('given_name', 'character varying', { maxLength: 60 }), column('middle_name', 'character varying', { nullable: true })],
    },
    {
      name: 'encounters',
      rowCount: 0,
      primaryKey: ['id'],
      uniques: [],
      foreignKeys: [{ name: 'e_p', columns: ['patient_id'], refTable: 'patients' }],
      columns: [column('id', 'text'), column('patient_id', 'bigint'), column('start_time', 'timestamp without time zone')],
    },
  ],
} as unknown as SchemaInfo;

const inputs = { schema, profiles: [], maxKeys: new Map([['patients', 100]]), existingKeys: new Map(), textKeyPrefix: 'syn-r1-' };
const plan = buildSeedPlan(inputs);
const [patientsPlan] = plan.tables as [TablePlan, TablePlan];

describe('a batch in the wire form of its engine', () => {
  it('writes COPY CSV: NULL unquoted empty, the empty string quoted, separators, quotes, line breaks and backslashes quoted', () => {
    const buffer = createTableBuffer('postgres', patientsPlan, ['id', 'given_name', 'middle_name']);
    expect(buffer.form).toBe('csv');
    buffer.add([101, 'Ann', null], 1);
    buffer.add([102, '', 'say "hi", twice'], 2);
    buffer.add([103, 'line\nbreak', '\\.'], 3);
    buffer.add([104, 'Zoë', 'a\rb'], 4);
    const text = Buffer.concat(buffer.csv()).toString('utf8');
    expect(text).toBe('101,Ann,\n102,"","say ""hi"", twice"\n103,"line\nbreak","\\."\n104,Zoë,"a\rb"\n');
    expect([buffer.rows, buffer.firstId, buffer.lastId]).toEqual([4, 1, 4]);
  });

  it('cuts long batches into chunks that together hold every row once', () => {
    const buffer = createTableBuffer('postgres', patientsPlan, ['id', 'given_name', 'middle_name']);
    const name = 'x'.repeat(900);
    for (let id = 1; id <= 1000; id++) buffer.add([id, name, null], id);
    const chunks = buffer.csv();
    expect(chunks.length).toBeGreaterThan(1);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(1000);
    expect(lines.every((line, i) => line === `${i + 1},${name},`)).toBe(true);
  });

  it('keeps value lists as copies, so a reused row does not change the rows already added', () => {
    const buffer = createTableBuffer('mysql', patientsPlan, ['id', 'given_name', 'middle_name']);
    expect(buffer.form).toBe('values');
    const scratch: CellValue[] = [101, 'Ann', null];
    buffer.add(scratch, 1);
    scratch[0] = 102;
    scratch[1] = 'Bo';
    buffer.add(scratch, 2);
    expect(buffer.values()).toEqual([
      [101, 'Ann', null],
      [102, 'Bo', null],
    ]);
  });

  it('refuses generated ids that are not consecutive, since the manifest records ranges', () => {
    const buffer = createTableBuffer('postgres', patientsPlan, ['id']);
    buffer.add([1], 1);
    expect(() => buffer.add([3], 3)).toThrow(/not consecutive/);
  });

  it('loads PostgreSQL on two connections side by side and the other engines on one', () => {
    expect([loadLanes('postgres'), loadLanes('mysql'), loadLanes('sqlserver')]).toEqual([2, 1, 1]);
  });
});

describe('the row builder', () => {
  it('hands a sink the same rows, keys and generated ids as its array form', () => {
    const a = createFastRandom(createSyntheticRandom(5));
    const b = createFastRandom(createSyntheticRandom(5));
    const arrays = createRowBuilder(plan, inputs, 5, a.referenceDate.toISOString());
    const visiting = createRowBuilder(plan, inputs, 5, b.referenceDate.toISOString());
    const first = createPatientGenerator(a, 'us');
    const second = createPatientGenerator(b, 'us');
    for (let i = 0; i < 20; i++) {
      const p = first.next();
      const q = second.next();
      for (const table of plan.tables) {
        const seen: Array<{ values: CellValue[]; id: number }> = [];
        visiting.visit(table, q, { add: (values, id) => void seen.push({ values: [...values], id }) });
        expect(seen.map((s) => s.values)).toEqual(arrays(table, p));
        // the key is the generated id translated: moved past the largest key, or given the run's prefix
        expect(seen.map((s) => s.values[0])).toEqual(seen.map((s) => (table === patientsPlan ? 100 + s.id : `syn-r1-${s.id}`)));
      }
    }
  });
});

describe('the seed manifest', () => {
  const batch = (patients: [number, number], encounters: [number, number]) => [
    { table: 'patients', first: patients[0], last: patients[1] },
    { table: 'encounters', first: encounters[0], last: encounters[1] },
  ];

  it('merges batches that committed out of order into one range per table, in foreign-key order', () => {
    const manifest = manifestOf(plan, [batch([3, 4], [7, 9]), batch([1, 2], [1, 6])]);
    expect(manifest).toEqual([
      { table: 'patients', keyColumn: 'id', rows: 4, kind: 'integer', from: 101, to: 104 },
      { table: 'encounters', keyColumn: 'id', rows: 9, kind: 'text', prefix: 'syn-r1-', from: 1, to: 9 },
    ]);
    expect(keySegments(manifest[0])).toEqual([{ from: 101, to: 104 }]);
  });

  it('lists the keys of a batch rolled back between committed ones as a gap, which cleanup leaves alone', () => {
    const manifest = manifestOf(plan, [batch([1, 2], [1, 6]), batch([5, 6], [12, 13])]);
    expect(manifest[0]).toEqual({ table: 'patients', keyColumn: 'id', rows: 4, kind: 'integer', from: 101, to: 106, gaps: [{ from: 103, to: 104 }] });
    expect(manifest[1]).toMatchObject({ rows: 8, from: 1, to: 13, gaps: [{ from: 7, to: 11 }] });
    expect(keySegments(manifest[0])).toEqual([
      { from: 101, to: 102 },
      { from: 105, to: 106 },
    ]);
    expect(keySegments(manifest[1])).toEqual([
      { from: 1, to: 6 },
      { from: 12, to: 13 },
    ]);
  });

  it('leaves out tables no committed batch wrote to, and reads manifests recorded without gaps', () => {
    expect(manifestOf(plan, [[{ table: 'patients', first: 1, last: 1 }]]).map((m) => m.table)).toEqual(['patients']);
    expect(manifestOf(plan, [])).toEqual([]);
    const recorded: TableManifest = { table: 'patients', keyColumn: 'id', rows: 3, kind: 'integer', from: 5, to: 7 };
    expect(keySegments(recorded)).toEqual([{ from: 5, to: 7 }]);
  });
});
