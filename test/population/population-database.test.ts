/**
 * The connected-database flow against real servers (PostgreSQL and MariaDB on this machine; SQL Server when
 * WORKBENCH_TEST_MSSQL_URL is set), each test in a fresh database it creates and drops: a schema with foreign keys, a
 * cycle broken by a nullable column, enums and check lists, and rows that were there before seeding. Connect, schema,
 * learn (k-anonymous), dry-run (changes nothing), seed (exact manifest), cleanup (exactly the seeded rows, leaving
 * earlier rows and rows added since), and the errors of each step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import {
  type FreshDatabase,
  freshMysqlDatabase,
  freshPostgresDatabase,
  freshSqlServerDatabase,
  generateAndWait,
  seedUntilDone,
  cleanUntilDone,
  testMssqlUrl,
  testMysqlUrl,
  testPostgresUrl,
} from './population-test-kit.ts';

/** Makes the database refuse the insert of one patient (a trigger), so a seed fails at a row known in advance. */
async function blockPatient(database: FreshDatabase, id: number): Promise<void> {
  if (database.provider === 'postgres') {
    await database.query(
      `create or replace function block_patient() returns trigger language plpgsql as $$ begin if new.id = ${id} then raise exception 'patient ${id} is blocked'; end if; return new; end $$`,
    );
    await database.query('create trigger block_patient before insert on patients for each row execute function block_patient()');
  } else if (database.provider === 'mysql') {
    await database.query(
      `create trigger block_patient before insert on patients for each row begin if new.id = ${id} then signal sqlstate '45000' set message_text = 'patient ${id} is blocked'; end if; end`,
    );
  } else {
    await database.query(
      `create trigger block_patient on patients after insert as if exists (select 1 from inserted where id = ${id}) throw 50000, 'patient ${id} is blocked', 1`,
    );
  }
}

/** Removes the trigger of {@link blockPatient}. */
async function unblockPatient(database: FreshDatabase): Promise<void> {
  await database.query(database.provider === 'postgres' ? 'drop trigger block_patient on patients' : 'drop trigger block_patient');
}

const POSTGRES_SCHEMA = [
  `create type sex_code as enum ('female', 'male', 'other')`,
  `create table departments (id integer primary key, name varchar(40) not null)`,
  `create table patients (
     id bigint primary key, mrn varchar(20) not null unique, given_name varchar(60) not null, family_name varchar(60) not null,
     sex sex_code not null, birth_date date not null, zip varchar(10), state varchar(2),
     status varchar(10) not null check (status in ('active', 'inactive')), primary_encounter_id bigint null)`,
  `create table encounters (
     id bigserial primary key, patient_id bigint not null references patients (id), class_code varchar(10) not null,
     start_time timestamp not null, end_time timestamp, department_id integer not null references departments (id))`,
  `alter table patients add constraint patients_primary_encounter foreign key (primary_encounter_id) references encounters (id)`,
  `create table observations (
     id bigint primary key, patient_id bigint not null references patients (id), encounter_id bigint not null references encounters (id),
     loinc_code varchar(10) not null, value numeric(12,3), unit varchar(20), effective_time timestamp not null, created_at timestamp not null default now())`,
  `create table audit_notes (id serial primary key, note text not null)`,
  `insert into departments values (1, 'Medicine'), (2, 'Surgery')`,
  `insert into patients values (1, 'REAL0001', 'Ada', 'Lovelace', 'female', '1960-12-10', '94102', 'CA', 'active', null),
     (2, 'REAL0002', 'Alan', 'Turing', 'male', '1954-06-23', '94102', 'CA', 'inactive', null)`,
  `insert into encounters (id, patient_id, class_code, start_time, end_time, department_id) values (1, 1, 'AMB', '2024-01-01 10:00', '2024-01-01 10:30', 1), (2, 2, 'AMB', '2024-02-01 10:00', null, 2)`,
  `select setval(pg_get_serial_sequence('encounters', 'id'), 2)`,
  `update patients set primary_encounter_id = id`,
  `insert into observations values (1, 1, 1, '8867-4', 72, '/min', '2024-01-01 10:05', now())`,
  `insert into audit_notes (note) values ('kept')`,
];

const MYSQL_SCHEMA = [
  `create table departments (id integer primary key, name varchar(40) not null) engine=InnoDB`,
  `create table patients (
     id bigint primary key, mrn varchar(20) not null unique, given_name varchar(60) not null, family_name varchar(60) not null,
     sex enum('female', 'male', 'other') not null, birth_date date not null, zip varchar(10), state varchar(2),
     status varchar(10) not null check (status in ('active', 'inactive')), primary_encounter_id bigint null) engine=InnoDB`,
  `create table encounters (
     id bigint auto_increment primary key, patient_id bigint not null, class_code varchar(10) not null,
     start_time datetime not null, end_time datetime, department_id integer not null,
     foreign key (patient_id) references patients (id), foreign key (department_id) references departments (id)) engine=InnoDB`,
  `alter table patients add constraint patients_primary_encounter foreign key (primary_encounter_id) references encounters (id)`,
  `create table observations (
     id bigint primary key, patient_id bigint not null, encounter_id bigint not null,
     loinc_code varchar(10) not null, value decimal(12,3), unit varchar(20), effective_time datetime not null, created_at timestamp not null default current_timestamp,
     foreign key (patient_id) references patients (id), foreign key (encounter_id) references encounters (id)) engine=InnoDB`,
  `create table audit_notes (id integer auto_increment primary key, note text not null) engine=InnoDB`,
  `insert into departments values (1, 'Medicine'), (2, 'Surgery')`,
  `insert into patients values (1, 'REAL0001', 'Ada', 'Lovelace', 'female', '1960-12-10', '94102', 'CA', 'active', null),
     (2, 'REAL0002', 'Alan', 'Turing', 'male', '1954-06-23', '94102', 'CA', 'inactive', null)`,
  `insert into encounters (id, patient_id, class_code, start_time, end_time, department_id) values (1, 1, 'AMB', '2024-01-01 10:00', '2024-01-01 10:30', 1), (2, 2, 'AMB', '2024-02-01 10:00', null, 2)`,
  `update patients set primary_encounter_id = id`,
  `insert into observations (id, patient_id, encounter_id, loinc_code, value, unit, effective_time) values (1, 1, 1, '8867-4', 72, '/min', '2024-01-01 10:05')`,
  `insert into audit_notes (note) values ('kept')`,
];

const SQL_SERVER_SCHEMA = [
  `create table departments (id int primary key, name nvarchar(40) not null)`,
  `create table patients (
     id bigint primary key, mrn nvarchar(20) not null unique, given_name nvarchar(60) not null, family_name nvarchar(60) not null,
     sex nvarchar(10) not null check (sex in ('female', 'male', 'other')), birth_date date not null, zip nvarchar(10), state nvarchar(2),
     status nvarchar(10) not null check (status in ('active', 'inactive')), primary_encounter_id bigint null)`,
  `create table encounters (
     id bigint identity(1,1) primary key, patient_id bigint not null references patients (id), class_code nvarchar(10) not null,
     start_time datetime2 not null, end_time datetime2, department_id int not null references departments (id))`,
  `alter table patients add constraint patients_primary_encounter foreign key (primary_encounter_id) references encounters (id)`,
  `create table observations (
     id bigint primary key, patient_id bigint not null references patients (id), encounter_id bigint not null references encounters (id),
     loinc_code nvarchar(10) not null, value decimal(12,3), unit nvarchar(20), effective_time datetime2 not null, created_at datetime2 not null default sysdatetime())`,
  `create table audit_notes (id int identity(1,1) primary key, note nvarchar(max) not null)`,
  `insert into departments values (1, 'Medicine'), (2, 'Surgery')`,
  `insert into patients values (1, 'REAL0001', 'Ada', 'Lovelace', 'female', '1960-12-10', '94102', 'CA', 'active', null),
     (2, 'REAL0002', 'Alan', 'Turing', 'male', '1954-06-23', '94102', 'CA', 'inactive', null)`,
  `set identity_insert encounters on; insert into encounters (id, patient_id, class_code, start_time, end_time, department_id) values (1, 1, 'AMB', '2024-01-01 10:00', '2024-01-01 10:30', 1), (2, 2, 'AMB', '2024-02-01 10:00', null, 2); set identity_insert encounters off`,
  `update patients set primary_encounter_id = id`,
  `insert into observations (id, patient_id, encounter_id, loinc_code, value, unit, effective_time) values (1, 1, 1, '8867-4', 72, '/min', '2024-01-01 10:05')`,
  `insert into audit_notes (note) values ('kept')`,
];

const COUNTED = ['departments', 'patients', 'encounters', 'observations', 'audit_notes'];

async function counts(database: FreshDatabase): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of COUNTED) out[table] = Number((await database.query(`select count(*) as n from ${table}`))[0].n);
  return out;
}

const servers: Array<{
  name: string;
  variable: string;
  url: string | undefined;
  provider: 'postgres' | 'mysql' | 'sqlserver';
  fresh: (url: string) => Promise<FreshDatabase>;
  schema: string[];
}> = [
  { name: 'PostgreSQL', variable: 'WORKBENCH_TEST_POSTGRES_URL', url: testPostgresUrl, provider: 'postgres', fresh: freshPostgresDatabase, schema: POSTGRES_SCHEMA },
  { name: 'MariaDB', variable: 'WORKBENCH_TEST_MYSQL_URL', url: testMysqlUrl, provider: 'mysql', fresh: freshMysqlDatabase, schema: MYSQL_SCHEMA },
  { name: 'SQL Server', variable: 'WORKBENCH_TEST_MSSQL_URL', url: testMssqlUrl, provider: 'sqlserver', fresh: freshSqlServerDatabase, schema: SQL_SERVER_SCHEMA },
];

for (const server of servers) {
  if (!server.url) {
    describe.skip(`population on ${server.name} (set ${server.variable} to run)`, () => {
      it.todo('skipped');
    });
    console.warn(`population database tests on ${server.name} skipped: ${server.variable} is not set${server.provider === 'sqlserver' ? ' (the SQL Server seed statements are checked in population-engines.test.ts)' : ''}`);
    continue;
  }
  const serverUrl = server.url;

  describe(`population on ${server.name}`, () => {
    let wb: TestWorkbench;
    let database: FreshDatabase;

    beforeAll(async () => {
      wb = await startTestWorkbench({ onlyPlugins: new Set(['population']) });
      database = await server.fresh(serverUrl);
      for (const statement of server.schema) await database.query(statement);
    });

    afterAll(async () => {
      await wb?.stop();
      await database?.drop();
    });

    const connect = () => wb.call('population', { path: '/api/population/connect', body: { provider: server.provider, connectionString: database.url } });

    it('refuses a bad connection string (400) and names host and reason when the server cannot be reached', async () => {
      const bad = await wb.call('population', { path: '/api/population/connect', body: { provider: server.provider, connectionString: 'not a url' } });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe('CONNECTION_STRING_INVALID');
      const wrongScheme = await wb.call('population', { path: '/api/population/connect', body: { provider: server.provider, connectionString: 'sqlserver://a@h/db' } });
      expect(wrongScheme.status).toBe(400);
      const closedPort = new URL(database.url);
      closedPort.port = '1';
      const unreachable = await wb.call('population', { path: '/api/population/connect', body: { provider: server.provider, connectionString: closedPort.toString() } });
      expect(unreachable.status).toBe(502);
      expect(unreachable.json.error.code).toBe('DATABASE_UNREACHABLE');
      expect(unreachable.json.error.message).toContain('127.0.0.1:1');
      expect(unreachable.json.error.message).toMatch(/refused/);
      const wrongDatabase = new URL(database.url);
      wrongDatabase.pathname = '/wb_pop_no_such_database';
      wrongDatabase.password = 'S3cret-Passw0rd';
      const refused = await wb.call('population', { path: '/api/population/connect', body: { provider: server.provider, connectionString: wrongDatabase.toString() } });
      expect(refused.status).toBe(502);
      expect(refused.text).not.toContain('S3cret-Passw0rd');
      expect(refused.json.error.message).toMatch(/credentials|does not exist|refused/);
    });

    it('connects and analyses the schema: keys, enums, checks, counts, insert order and the broken cycle', async () => {
      const connected = await connect();
      expect(connected.status).toBe(200);
      expect(connected.text).not.toContain(database.url);
      const schema = (await wb.call('population', { path: '/api/population/schema' })).json.data;
      const table = (name: string) => schema.tables.find((t: { name: string }) => t.name === name);
      expect(table('patients').primaryKey).toEqual(['id']);
      expect(table('patients').uniques).toEqual([['mrn']]);
      expect(table('patients').rowCount).toBe(2);
      const sex = table('patients').columns.find((c: { name: string }) => c.name === 'sex');
      expect([...sex.allowedValues].sort()).toEqual(['female', 'male', 'other']);
      const status = table('patients').columns.find((c: { name: string }) => c.name === 'status');
      expect([...status.allowedValues].sort()).toEqual(['active', 'inactive']);
      expect(table('encounters').foreignKeys.map((f: { refTable: string }) => f.refTable).sort()).toEqual(['departments', 'patients']);
      const order: string[] = schema.insertOrder;
      expect(order.indexOf('departments')).toBeLessThan(order.indexOf('encounters'));
      expect(order.indexOf('patients')).toBeLessThan(order.indexOf('encounters'));
      expect(order.indexOf('encounters')).toBeLessThan(order.indexOf('observations'));
      expect(schema.cycles).toEqual([
        { tables: expect.arrayContaining(['patients', 'encounters']), brokenBy: { table: 'patients', columns: ['primary_encounter_id'], foreignKey: expect.any(String) } },
      ]);
    });

    it('learns aggregates only, keeping no value seen fewer than k times', async () => {
      const bad = await wb.call('population', { path: '/api/population/learn', body: { tables: ['nope'] } });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe('UNKNOWN_TABLES');
      const learned = await wb.call('population', { path: '/api/population/learn', body: { tables: ['patients', 'encounters'], sampleSize: 100, name: `learned-${server.provider}`, k: 2 } });
      expect(learned.status).toBe(200);
      const profile = learned.json.data;
      const patients = profile.tables.find((t: { table: string }) => t.table === 'patients');
      const column = (name: string) => patients.columns.find((c: { name: string }) => c.name === name);
      // Each name occurs once in two rows: below k = 2, so no name and no pattern of one is kept.
      expect(column('given_name').frequencies.values).toEqual([]);
      expect(column('zip').frequencies.values).toEqual([{ value: '94102', count: 2, fraction: 1 }]);
      expect(column('primary_encounter_id').nullFraction).toBe(0);
      expect(profile.identities).toEqual({ tables: ['patients'], count: 2 });
      expect(JSON.stringify(profile)).not.toMatch(/Lovelace|Turing|REAL0001/);
      // two rows with k = 2: the kept extremes come from the middle, never a minimum above the maximum
      for (const table of profile.tables) {
        for (const c of table.columns) {
          expect(!c.range || c.range.min <= c.range.max, `${table.table}.${c.name} range`).toBe(true);
          expect(!c.strings || c.strings.minLength <= c.strings.maxLength, `${table.table}.${c.name} lengths`).toBe(true);
        }
      }
      const encounters = profile.tables.find((t: { table: string }) => t.table === 'encounters');
      expect(encounters.fanOut.find((f: { refTable: string }) => f.refTable === 'patients')).toMatchObject({ parents: 2, mean: 1, min: 1, max: 1 });
      const list = (await wb.call('population', { path: '/api/population/profiles' })).json.data;
      expect(list.map((p: { name: string }) => p.name)).toContain(`learned-${server.provider}`);
      const one = await wb.call('population', { path: `/api/population/profiles/learned-${server.provider}` });
      expect(one.status).toBe(200);
      expect(one.json.data.identities.count).toBe(2);
      const unknown = await wb.call('population', { path: '/api/population/profiles/nope' });
      expect(unknown.status).toBe(404);
    });

    it('dry-runs a seed (plan, statements, first rows) and changes nothing', async () => {
      const job = await generateAndWait(wb, { count: 30, format: 'csv', seed: 9 });
      const before = await counts(database);
      const plan = await wb.call('population', { path: '/api/population/seed/dry-run', body: { jobId: job.jobId } });
      expect(plan.status).toBe(200);
      const steps = plan.json.data.steps;
      expect(steps.map((s: { table: string }) => s.table)).toEqual(['patients', 'encounters', 'observations']);
      expect(steps[0].rowCount).toBe(30);
      expect(steps[0].keys).toBe('3 to 32');
      expect(steps[0].firstRows).toHaveLength(3);
      expect(['female', 'male']).toContain(steps[0].firstRows[0].sex);
      expect(steps[0].firstRows[0].primary_encounter_id).toBeNull();
      expect(steps[0].firstRows[0].status).toBe('active');
      expect([1, 2]).toContain(steps[1].firstRows[0].department_id);
      expect(steps[0].statement).toMatch({ postgres: /^COPY "patients"/, mysql: /^INSERT INTO `patients`/, sqlserver: /^BULK INSERT \(mssql Table\) \[patients\]/ }[server.provider]);
      expect(plan.json.data.cycleBreakers).toEqual([{ table: 'patients', columns: ['primary_encounter_id'] }]);
      expect(plan.json.data.untouched.map((u: { table: string }) => u.table).sort()).toEqual(['audit_notes', 'departments']);
      expect(await counts(database)).toEqual(before);
    });

    it('seeds in foreign-key order with a manifest, then cleanup deletes exactly those rows', async () => {
      const job = await generateAndWait(wb, { count: 120, format: 'csv', seed: 10 });
      const before = await counts(database);
      const run = await seedUntilDone(wb, job.jobId);
      expect(run.error).toBeNull();
      expect(run.state).toBe('completed');
      const after = await counts(database);
      expect(after.patients - before.patients).toBe(120);
      expect(after.encounters - before.encounters).toBe(job.counts.encounters);
      expect(after.observations - before.observations).toBe(job.counts.observations);
      expect(after.departments).toBe(before.departments);
      expect(after.audit_notes).toBe(before.audit_notes);
      const patientsEntry = run.tables.find((t: { table: string }) => t.table === 'patients');
      expect(patientsEntry).toMatchObject({ kind: 'integer', from: 3, to: 122, rows: 120 });
      expect(run.inserted).toBe(120 + job.counts.encounters + job.counts.observations);
      expect(run.progress).toEqual({ inserted: run.inserted, expected: run.inserted, percent: 100 });
      const seeded = await database.query(`select sex, status, primary_encounter_id, mrn from patients where id = 3`);
      expect(['female', 'male']).toContain(seeded[0].sex);
      expect(seeded[0].primary_encounter_id).toBeNull();
      expect(seeded[0].mrn).toMatch(/^SYN/);

      // Someone else adds rows after seeding; cleanup must leave them.
      await database.query(`insert into patients values (9000000, 'OTHER1', 'Grace', 'Hopper', 'female', '1906-12-09', '10001', 'NY', 'active', null)`);
      await database.query(`insert into encounters (patient_id, class_code, start_time, department_id) values (9000000, 'AMB', '2024-03-01 09:00', 1)`);

      const cleaned = await cleanUntilDone(wb, `?provider=${server.provider}&connectionString=${encodeURIComponent(database.url)}`);
      expect(cleaned.status).toBe(200);
      expect(cleaned.json.data).toMatchObject({ state: 'completed', total: cleaned.json.data.expected });
      expect(cleaned.json.data.deleted).toEqual({ observations: job.counts.observations, encounters: job.counts.encounters, patients: 120 });
      const final = await counts(database);
      expect(final).toEqual({ ...before, patients: before.patients + 1, encounters: before.encounters + 1 });
      const kept = await database.query(`select mrn from patients order by id`);
      expect(kept.map((r: { mrn: string }) => r.mrn)).toEqual(['REAL0001', 'REAL0002', 'OTHER1']);

      const again = await cleanUntilDone(wb);
      expect(again.status).toBe(404);
      expect(again.json.error.code).toBe('NOTHING_TO_CLEAN');
    });

    it('rolls back a failing batch, names the table and row, and records only committed keys', async () => {
      const job = await generateAndWait(wb, { count: 1500, format: 'csv', seed: 12 });
      const before = await counts(database);
      // A row of the second batch the database refuses: the 1,200th patient (unique values never collide any more).
      const maxId = Number((await database.query('select max(id) as m from patients'))[0].m);
      await blockPatient(database, maxId + 1200);
      const run = await seedUntilDone(wb, job.jobId);
      expect(run.state).toBe('failed');
      expect(run.error).toContain('table patients');
      expect(run.error).toContain(`id = ${maxId + 1200}`);
      const after = await counts(database);
      expect(after.patients - before.patients).toBe(1000);
      expect(run.tables.find((t: { table: string }) => t.table === 'patients')).toMatchObject({ from: maxId + 1, to: maxId + 1000, rows: 1000 });
      const cleaned = await cleanUntilDone(wb);
      expect(cleaned.status).toBe(200);
      expect(cleaned.json.data.deleted.patients).toBe(1000);
      expect((await counts(database)).patients).toBe(before.patients);
      await unblockPatient(database);
    });

    it('stops at a failing first batch while later batches load beside it, and records exactly what is there', async () => {
      const job = await generateAndWait(wb, { count: 2500, format: 'csv', seed: 13 });
      const before = await counts(database);
      const maxId = Number((await database.query('select max(id) as m from patients'))[0].m);
      const maxEncounter = Number((await database.query('select max(id) as m from encounters'))[0].m);
      // The 500th patient is refused, in the first batch; the second batch loads meanwhile where the engine loads side by side.
      await blockPatient(database, maxId + 500);
      const run = await seedUntilDone(wb, job.jobId);
      expect(run.state).toBe('failed');
      expect(run.error).toContain('table patients');
      expect(run.error).toContain(`id = ${maxId + 500}`);
      // Later batches roll back unless they committed first: whichever it was, the record is what the tables hold.
      const seededPatients = Number((await database.query(`select count(*) as n from patients where id > ${maxId}`))[0].n);
      const seededEncounters = Number((await database.query(`select count(*) as n from encounters where id > ${maxEncounter}`))[0].n);
      const recorded = (table: string) => run.tables.find((t: { table: string }) => t.table === table)?.rows ?? 0;
      expect(recorded('patients')).toBe(seededPatients);
      expect(recorded('encounters')).toBe(seededEncounters);
      expect(seededPatients % 1000).toBe(0);
      expect(run.inserted).toBe(run.tables.reduce((n: number, t: { rows: number }) => n + t.rows, 0));
      const after = await counts(database);
      expect(after.patients - before.patients + after.encounters - before.encounters + after.observations - before.observations).toBe(run.inserted);
      const cleaned = await cleanUntilDone(wb);
      expect(cleaned.status).toBe(run.inserted > 0 ? 200 : 404);
      expect(await counts(database)).toEqual(before);
      await unblockPatient(database);
    });

    it('writes a sql script for the connected schema that the database runs as is', async () => {
      const before = await counts(database);
      const job = await generateAndWait(wb, { count: 25, format: 'sql', seed: 31 });
      expect(job.params.schemaTarget).toBe('connected');
      expect(job.params.sqlDialect).toBe(server.provider);
      const script = (await wb.call('population', { path: `/api/population/generate/${job.jobId}/files/population.sql` })).text;
      expect(script).not.toContain('CREATE TABLE');
      expect(script).toContain(
        { postgres: 'INSERT INTO "patients" ("id", "mrn", "given_name", "family_name", "sex"', mysql: 'INSERT INTO `patients` (`id`, `mrn`, `given_name`, `family_name`, `sex`', sqlserver: 'INSERT INTO [patients] ([id], [mrn], [given_name], [family_name], [sex]' }[server.provider],
      );
      expect(script).not.toContain('conditions');
      if (server.provider !== 'mysql') {
        await database.query(script);
      } else {
        for (const statement of script.split(/;\n/).map((s) => s.replace(/^(--[^\n]*\n)+/, '').trim()).filter((s) => s.length > 0)) await database.query(statement);
      }
      const after = await counts(database);
      expect(after.patients - before.patients).toBe(25);
      expect(after.encounters - before.encounters).toBe(job.counts.encounters);
      const defaultScript = await generateAndWait(wb, { count: 2, format: 'sql', seed: 31, schemaTarget: 'default' });
      expect(defaultScript.params.schemaTarget).toBe('default');
    });

    it('attests a population that matches a person of a learned sample as not synthetic-only, naming the record', async () => {
      const job = await generateAndWait(wb, { count: 5, format: 'csv', seed: 77 });
      const csv = (await wb.call('population', { path: `/api/population/generate/${job.jobId}/files/patients.csv` })).text.split('\r\n');
      const header = csv[0].split(',');
      const third = csv[3].split(',');
      const field = (name: string) => third[header.indexOf(name)];
      // A real person who happens to share name, birth date and ZIP with the third generated patient.
      await database.query(
        `insert into patients values (-9, 'REAL0009', '${field('given_name')}', '${field('family_name').replace(/'/g, "''")}', 'other', '${field('birth_date')}', '${field('zip')}', 'CA', 'active', null)`,
      );
      const learned = await wb.call('population', { path: '/api/population/learn', body: { tables: ['patients'], sampleSize: 100000, name: `match-${server.provider}` } });
      expect(learned.status).toBe(200);
      const again = await generateAndWait(wb, { count: 5, format: 'csv', seed: 77 });
      const attestation = (await wb.call('population', { path: `/api/population/compliance/${again.jobId}` })).json.data;
      expect(attestation.syntheticOnly).toBe(false);
      expect(attestation.phiDetected).toBe(true);
      const match = attestation.checks.find((c: { name: string }) => c.name === 'no-match-with-learned-sample');
      expect(match.failures).toEqual([{ patientId: 3, mrn: 'SYN00000003', reason: `matches a person of learned sample "match-${server.provider}" on name, birth date and ZIP` }]);
      await database.query('delete from patients where id = -9');
    });

    it('refuses to seed hl7 populations and unknown jobs', async () => {
      const job = await generateAndWait(wb, { count: 1, format: 'hl7', seed: 1 });
      const hl7 = await wb.call('population', { path: '/api/population/seed', body: { jobId: job.jobId } });
      expect(hl7.status).toBe(409);
      expect(hl7.json.error.code).toBe('SEED_FORMAT_UNSUPPORTED');
      const unknown = await wb.call('population', { path: '/api/population/seed/dry-run', body: { jobId: 'nope' } });
      expect(unknown.status).toBe(404);
    });
  });
}
