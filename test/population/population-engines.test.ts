/**
 * The engines under the population routes: insert order with cycles, check-clause lists, connection-string parsing
 * (property-tested: any input gives a parsed target or a 400, never a crash or an echoed password), the seed plan and
 * its SQL Server statements (checked without a server), SQL literals, CSV fields, identity hashes, character
 * patterns, the calendar formatter and the census person source.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { WorkbenchError } from '../../kernel/errors.ts';
import { computeInsertOrder } from '../../plugins/population/seeding/insert-order.ts';
import { valuesOfCheckClause, type SchemaInfo } from '../../plugins/population/database/schema-analysis.ts';
import { parseConnectionString } from '../../plugins/population/database/connection-string.ts';
import { buildSeedPlan, createRowBuilder, fitValue } from '../../plugins/population/seeding/seed-plan.ts';
import { insertSql, quoteIdentifier, sqlLiteral } from '../../plugins/population/output/sql-dialect.ts';
import { csvField } from '../../plugins/population/output/csv-writer.ts';
import { identityHash } from '../../plugins/population/database/identity-hash.ts';
import { characterPattern } from '../../plugins/population/database/profile-learner.ts';
import { isoDateOf, isoInstantOf } from '../../plugins/population/generation/calendar-format.ts';
import { createPatientGenerator } from '../../plugins/population/generation/patient-generator.ts';
import { ComplianceAccumulator, isNeverIssuedSsn } from '../../plugins/population/generation/compliance-checks.ts';
import { createFastRandom } from '../../plugins/synthetic-data/api.ts';
import { createSyntheticRandom } from '../../plugins/synthetic-data/synthetic-random.ts';

const fk = (name: string, columns: string[], refTable: string) => ({ name, columns, refTable });

describe('insert order', () => {
  it('puts parents first and breaks a cycle at its nullable foreign key', () => {
    const result = computeInsertOrder([
      { name: 'observations', foreignKeys: [fk('o_p', ['patient_id'], 'patients'), fk('o_e', ['encounter_id'], 'encounters')], nullable: new Set() },
      { name: 'encounters', foreignKeys: [fk('e_p', ['patient_id'], 'patients')], nullable: new Set() },
      { name: 'patients', foreignKeys: [fk('p_e', ['primary_encounter_id'], 'encounters')], nullable: new Set(['primary_encounter_id']) },
    ]);
    expect(result.order).toEqual(['patients', 'encounters', 'observations']);
    expect(result.cycles).toEqual([{ tables: ['encounters', 'patients'], brokenBy: { table: 'patients', columns: ['primary_encounter_id'], foreignKey: 'p_e' } }]);
  });

  it('reports a cycle without a nullable foreign key as unbreakable and still orders every table', () => {
    const result = computeInsertOrder([
      { name: 'a', foreignKeys: [fk('a_b', ['b_id'], 'b')], nullable: new Set() },
      { name: 'b', foreignKeys: [fk('b_a', ['a_id'], 'a')], nullable: new Set() },
      { name: 'c', foreignKeys: [fk('c_c', ['parent_id'], 'c')], nullable: new Set(['parent_id']) },
    ]);
    expect(result.order.sort()).toEqual(['a', 'b', 'c']);
    expect(result.cycles).toContainEqual({ tables: ['c'], brokenBy: { table: 'c', columns: ['parent_id'], foreignKey: 'c_c' } });
    expect(result.cycles).toContainEqual({ tables: ['a', 'b'], brokenBy: null });
  });

  it('orders any acyclic graph parents first (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(20), { maxLength: 3 }), { minLength: 1, maxLength: 20 }), (parents) => {
        // Table i may only reference tables with a smaller index: acyclic by construction.
        const tables = parents.map((refs, i) => ({
          name: `t${i}`,
          foreignKeys: refs.filter((r) => r < i).map((r) => fk(`f${i}_${r}`, [`c${r}`], `t${r}`)),
          nullable: new Set<string>(),
        }));
        const { order, cycles } = computeInsertOrder(tables);
        expect(cycles).toEqual([]);
        for (const t of tables) for (const f of t.foreignKeys) expect(order.indexOf(f.refTable)).toBeLessThan(order.indexOf(t.name));
      }),
    );
  });
});

describe('check clauses', () => {
  it('reads value lists of PostgreSQL, MySQL and SQL Server check clauses', () => {
    expect(valuesOfCheckClause("CHECK (((status)::text = ANY ((ARRAY['active'::character varying, 'inactive'::character varying])::text[])))")).toEqual({ column: 'status', values: ['active', 'inactive'] });
    expect(valuesOfCheckClause("`status` in ('active','inactive')")).toEqual({ column: 'status', values: ['active', 'inactive'] });
    expect(valuesOfCheckClause("([kind] IN ('a', 'b''c'))")).toEqual({ column: 'kind', values: ['a', "b'c"] });
    expect(valuesOfCheckClause("([sex]='other' OR [sex]='male' OR [sex]='female')")).toEqual({ column: 'sex', values: ['female', 'male', 'other'] });
    expect(valuesOfCheckClause("([a]='x' OR [b]='y')")).toBeUndefined();
    expect(valuesOfCheckClause('(age > 0)')).toBeUndefined();
  });
});

describe('connection strings', () => {
  it('parses URL and ADO forms, keeping the password out of label and key', () => {
    const pg = parseConnectionString('postgres', 'postgresql://app:s%40cret@db.local:6543/clinic?sslmode=require');
    expect(pg).toMatchObject({ host: 'db.local', port: 6543, database: 'clinic', user: 'app', password: 's@cret', label: 'postgres://db.local:6543/clinic' });
    expect(pg.key).toMatch(/^[0-9a-f]{64}$/);
    const ado = parseConnectionString('sqlserver', 'Server=tcp:sql.local,1444;Database=ehr;User Id=sa;Password=Pa55;TrustServerCertificate=true');
    expect(ado).toMatchObject({ host: 'sql.local', port: 1444, database: 'ehr', user: 'sa', password: 'Pa55', label: 'sqlserver://sql.local:1444/ehr' });
    expect(parseConnectionString('mysql', 'mariadb://root@localhost/test').port).toBe(3306);
  });

  it('refuses with 400 naming the problem, never echoing the string (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('postgres', 'mysql', 'sqlserver') as fc.Arbitrary<'postgres' | 'mysql' | 'sqlserver'>, fc.string({ maxLength: 200 }), (provider, text) => {
        const withSecret = `${text}Pw-Zq9x`;
        let label = '';
        let refused: unknown;
        try {
          label = parseConnectionString(provider, withSecret).label;
        } catch (error) {
          refused = error;
        }
        // parsed, or refused with a 400 error; neither the label nor the refusal names the secret
        expect(refused === undefined || (refused instanceof WorkbenchError && refused.status === 400), String(refused)).toBe(true);
        expect(label).not.toContain('Pw-Zq9x');
        expect(refused instanceof Error ? refused.message : '').not.toContain('Pw-Zq9x');
      }),
    );
  });
});

const sqlServerSchema: SchemaInfo = {
  provider: 'sqlserver',
  database: 'ehr',
  analysedAt: '2025-06-15T12:00:00Z',
  tables: [
    {
      name: 'patients',
      columns: [
        { name: 'id', dataType: 'int', nullable: false, default: null, maxLength: null, allowedValues: null, generated: true },
        { name: 'given_name', dataType: 'nvarchar', nullable: false, default: null, maxLength: 4, allowedValues: null, generated: false },
        { name: 'sex', dataType: 'nvarchar', nullable: false, default: null, maxLength: 10, allowedValues: ['Female', 'Male'], generated: false },
        { name: 'ward', dataType: 'nvarchar', nullable: false, default: null, maxLength: 20, allowedValues: null, generated: false },
      ],
      primaryKey: ['id'],
      uniques: [],
      foreignKeys: [],
      checks: [],
      rowCount: 7,
    },
    {
      name: 'encounters',
      columns: [
        { name: 'id', dataType: 'nvarchar', nullable: false, default: null, maxLength: 40, allowedValues: null, generated: false },
        { name: 'patient_id', dataType: 'int', nullable: false, default: null, maxLength: null, allowedValues: null, generated: false },
        { name: 'start_time', dataType: 'datetime2', nullable: false, default: null, maxLength: null, allowedValues: null, generated: false },
      ],
      primaryKey: ['id'],
      uniques: [],
      foreignKeys: [{ name: 'fk_enc_patient', columns: ['patient_id'], refTable: 'patients', refColumns: ['id'] }],
      checks: [],
      rowCount: 0,
    },
  ],
  insertOrder: ['patients', 'encounters'],
  cycles: [],
};

describe('seed plan and SQL Server statements (no server needed)', () => {
  const inputs = { schema: sqlServerSchema, profiles: [], maxKeys: new Map([['patients', 7]]), existingKeys: new Map(), textKeyPrefix: 'syn-run1-' };
  const plan = buildSeedPlan(inputs);

  it('maps generated tables with translated keys, fitted values and placeholders', () => {
    expect(plan.tables.map((t) => [t.table, t.key])).toEqual([
      ['patients', { kind: 'integer', offset: 7 }],
      ['encounters', { kind: 'text', prefix: 'syn-run1-' }],
    ]);
    expect(plan.tables[0].columns).toEqual([
      { column: 'id', source: 'key' },
      { column: 'given_name', source: 'generated', from: 'given_name' },
      { column: 'sex', source: 'generated', from: 'sex' },
      { column: 'ward', source: 'placeholder' },
    ]);
    const random = createFastRandom(createSyntheticRandom(3));
    const patient = createPatientGenerator(random, 'us').next();
    const rowsOf = createRowBuilder(plan, inputs, 3, random.referenceDate.toISOString());
    const [row] = rowsOf(plan.tables[0], patient);
    expect(row[0]).toBe(8);
    expect(String(row[1]).length).toBeLessThanOrEqual(4);
    expect(row[2]).toBe(patient.person.sex === 'F' ? 'Female' : 'Male');
    expect(row[3]).toBe('SYNTHETIC');
    const encounters = rowsOf(plan.tables[1], patient);
    expect(encounters[0][0]).toBe('syn-run1-1');
    expect(encounters[0][1]).toBe(8);
    expect(String(encounters[0][2])).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('writes SQL Server INSERTs with bracketed names and N-strings', () => {
    const statement = insertSql('sqlserver', 'patients', ['id', 'given_name'], [[8, "O'Hara"], [9, null]]);
    expect(statement).toBe("INSERT INTO [patients] ([id], [given_name]) VALUES\n  (8, N'O''Hara'),\n  (9, NULL);");
    expect(quoteIdentifier('sqlserver', 'odd]name')).toBe('[odd]]name]');
    expect(sqlLiteral('mysql', 'a\\b')).toBe("'a\\\\b'");
    expect(sqlLiteral('postgres', "it's")).toBe("'it''s'");
  });

  it('writes SQL Server scripts with IDENTITY_INSERT around explicit identity keys', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { createSqlWriter } = await import('../../plugins/population/output/sql-writer.ts');
    const dir = mkdtempSync(join(tmpdir(), 'wb-sql-'));
    try {
      const random = createFastRandom(createSyntheticRandom(4));
      const rowsOf = createRowBuilder(plan, inputs, 4, random.referenceDate.toISOString());
      const targets = plan.tables.map((t) => ({ table: t.table, columns: t.columns.map((c) => c.column), rowsOf: (p: Parameters<typeof rowsOf>[1]) => rowsOf(t, p), identityInsert: t.keyIsGenerated }));
      const writer = await createSqlWriter(dir, 'sqlserver', 'test', targets, []);
      const generator = createPatientGenerator(random, 'us');
      for (let i = 0; i < 3; i++) await writer.write(generator.next());
      await writer.close();
      const script = readFileSync(join(dir, 'population.sql'), 'utf8');
      expect(script).toContain('BEGIN TRANSACTION;');
      expect(script).toMatch(/SET IDENTITY_INSERT \[patients\] ON;\nINSERT INTO \[patients\] \(\[id\], \[given_name\], \[sex\], \[ward\]\) VALUES\n  \(8, N'/);
      expect(script).toMatch(/SET IDENTITY_INSERT \[patients\] OFF;\nINSERT INTO \[encounters\] \(\[id\], \[patient_id\], \[start_time\]\) VALUES\n  \(N'syn-run1-1', 8, N'\d{4}-/);
      expect(script.trimEnd().endsWith('COMMIT TRANSACTION;')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fits values to enum lists and lengths', () => {
    const column = sqlServerSchema.tables[0].columns[2];
    expect(fitValue(column, 'F')).toBe('Female');
    expect(fitValue(column, 'male')).toBe('Male');
    expect(fitValue(sqlServerSchema.tables[0].columns[1], 'Alexandra')).toBe('Alex');
  });
});

describe('small helpers', () => {
  it('quotes CSV fields only when needed', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
    expect(csvField(3.5)).toBe('3.5');
  });

  it('hashes identities after normalising case, accents and punctuation, and salts them', () => {
    const a = identityHash('salt', 'José', "O'Brien", '1980-02-03', '94102-1234');
    expect(identityHash('salt', 'jose', 'OBRIEN', '1980-02-03T00:00:00Z', '94102')).toBe(a);
    expect(identityHash('other', 'José', "O'Brien", '1980-02-03', '94102')).not.toBe(a);
  });

  it('reduces values to character-class patterns', () => {
    expect(characterPattern('ABC-1234')).toBe('AAA-9999');
    expect(characterPattern('(415) 555-0100')).toBe('(999) 999-9999');
  });

  it('formats instants exactly like Date#toISOString (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2_208_988_800_000, max: 4_102_444_800_000 }), (ms) => {
        const whole = ms - (((ms % 1000) + 1000) % 1000);
        expect(isoInstantOf(whole)).toBe(`${new Date(whole).toISOString().slice(0, 19)}Z`);
        expect(isoDateOf(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
      }),
    );
  });

  it('knows the SSN areas never issued', () => {
    expect(isNeverIssuedSsn('912-34-5678')).toBe(true);
    expect(isNeverIssuedSsn('666-12-3456')).toBe(true);
    expect(isNeverIssuedSsn('123-45-6789')).toBe(false);
    expect(isNeverIssuedSsn('bad')).toBe(false);
  });
});

describe('patient generator', () => {
  it('gives the same patients for the same seed and keeps every date after birth and before the reference date', () => {
    const make = () => createPatientGenerator(createFastRandom(createSyntheticRandom(77)), 'us-tx');
    const a = make();
    const b = make();
    for (let i = 0; i < 300; i++) {
      const p = a.next();
      expect(b.next()).toEqual(p);
      expect(p.person.address.state).toBe('TX');
      for (const e of p.encounters) {
        expect(e.start.slice(0, 10) >= p.person.birthDate).toBe(true);
        expect(e.end <= '2025-06-15T12:00:00Z').toBe(true);
        expect(e.end >= e.start).toBe(true);
      }
      for (const m of p.medications) expect(m.authoredOn.slice(0, 10) >= p.person.birthDate).toBe(true);
      for (const c of p.conditions) expect(c.onsetDate >= p.person.birthDate).toBe(true);
    }
  });
});

describe('file sink', () => {
  it('aborts with writes still queued without an uncaught stream error', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { FileSink } = await import('../../plugins/population/output/file-sink.ts');
    const dir = mkdtempSync(join(tmpdir(), 'wb-sink-'));
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const sink = new FileSink(join(dir, 'out.txt'), 'out.txt', 'text/plain');
      const line = `${'x'.repeat(1023)}\n`;
      let waiting = 0;
      for (let i = 0; i < 4096; i++) {
        const pending = sink.write(line);
        if (pending) {
          waiting++;
          void pending.catch(() => undefined);
        }
      }
      // writes were still queued for the disk when the sink was aborted
      expect(waiting).toBeGreaterThan(0);
      sink.abort();
      // the file closed (a stream reports its errors before it closes): nothing reached the process
      await vi.waitFor(() => expect(sink.closed).toBe(true), { timeout: 10_000, interval: 10 });
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('compliance checks', () => {
  it('pass for generated patients and name the record and the reason of each failure', () => {
    const generator = createPatientGenerator(createFastRandom(createSyntheticRandom(5)), 'us');
    const first = generator.next();
    const second = generator.next();
    const salt = 'abc';
    const checks = new ComplianceAccumulator([
      { profile: 'ehr-copy', salt, hashes: new Set([identityHash(salt, second.person.givenName, second.person.familyName, second.person.birthDate, second.person.address.zip)]) },
    ]);
    checks.add(first);
    checks.add({ ...second, person: { ...second.person, phone: '(415) 867-5309', email: 'pat@gmail.com', ssn: '123-45-6789', mrn: '00012345' } });
    const report = Object.fromEntries(checks.report().map((c) => [c.name, c]));
    for (const name of ['phone-fictional-range', 'email-reserved-domain', 'ssn-never-issued', 'mrn-synthetic-prefix', 'no-match-with-learned-sample']) {
      expect(report[name].passed, name).toBe(false);
      expect(report[name].failed, name).toBe(1);
      expect(report[name].failures[0].patientId, name).toBe(second.id);
    }
    expect(report['no-match-with-learned-sample'].failures[0].reason).toContain('ehr-copy');
    expect(report['phone-fictional-range'].failures[0].reason).toContain('867-5309');
    expect(report['email-reserved-domain'].failures[0].reason).not.toContain('pat@');
    expect(report['names-from-generator-lists'].passed).toBe(true);
    expect(report['addresses-from-generator-lists'].checked).toBe(2);
  });
});
