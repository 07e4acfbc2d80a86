/**
 * A second seed into a database whose `mrn` (and another column) is unique: every seed numbers the values of unique
 * columns past those already there, so neither rows that were there nor earlier seed runs collide. Also: a failing
 * row is named without a slice off by one, and `mariadb` is accepted as a provider. PostgreSQL and MariaDB, each test
 * in a fresh database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';
import {
  type FreshDatabase,
  freshMysqlDatabase,
  freshPostgresDatabase,
  generateAndWait,
  seedUntilDone,
  cleanUntilDone,
  testMysqlUrl,
  testPostgresUrl,
} from './population-test-kit.ts';

/** patients with a unique MRN, a unique integer badge and a unique text column the generator does not make. */
const patientsTable = (extra: string) => `create table patients (
  id bigint primary key, mrn varchar(20) not null unique, badge integer not null unique, portal_login varchar(40) not null unique,
  given_name varchar(60) not null, family_name varchar(60) not null ${extra})`;

const servers = [
  { provider: 'postgres', alias: 'postgresql', url: testPostgresUrl, fresh: freshPostgresDatabase, engine: '' },
  { provider: 'mysql', alias: 'mariadb', url: testMysqlUrl, fresh: freshMysqlDatabase, engine: ' engine=InnoDB' },
] as const;

const wb = useTestWorkbench({ onlyPlugins: new Set(['population']) });

for (const server of servers) {
  describe.skipIf(!server.url)(`second seed on ${server.provider}`, () => {
    let database: FreshDatabase;
    beforeAll(async () => {
      if (!server.url) console.warn(`population second-seed tests on ${server.provider} skipped: no test database URL`);
    });
    afterAll(async () => {
      await database?.drop();
    });

    it(`seeds twice into unique columns without a collision, connected as "${server.alias}"`, async () => {
      database = await server.fresh(server.url as string);
      await database.query(patientsTable('') + server.engine);
      await database.query(`insert into patients values (7, 'SYN00000050', 90, 'kept', 'Ada', 'Lovelace')`);
      const connected = await wb.call('population', { path: '/api/population/connect', body: { provider: server.alias, connectionString: database.url } });
      expect(connected.status, connected.text).toBe(200);
      const job = await generateAndWait(wb, { count: 30, format: 'csv', seed: 5 });
      const first = await seedUntilDone(wb, job.jobId);
      expect(first.state, first.error).toBe('completed');
      const second = await seedUntilDone(wb, job.jobId);
      expect(second.state, second.error).toBe('completed');
      const rows = await database.query('select id, mrn, badge, portal_login from patients order by id');
      expect(rows).toHaveLength(61);
      for (const column of ['mrn', 'badge', 'portal_login']) {
        expect(new Set(rows.map((r: Record<string, unknown>) => String(r[column]))).size, column).toBe(61);
      }
      // Numbered past the largest MRN of the seed's shape (50), then past the first run's.
      const mrns = rows.map((r: { mrn: string }) => r.mrn).filter((m: string) => m !== 'SYN00000050').sort();
      expect(mrns[0]).toBe('SYN00000051');
      expect(mrns.at(-1)).toBe('SYN00000110');
      expect(Math.min(...rows.filter((r: { id: number }) => Number(r.id) !== 7).map((r: { badge: number }) => Number(r.badge)))).toBe(91);
      const cleaned = await cleanUntilDone(wb);
      expect(cleaned.status).toBe(200);
      expect(cleaned.json.data).toMatchObject({ state: 'completed', total: 60, deleted: { patients: 60 } });
      expect(await database.query('select mrn from patients')).toEqual([{ mrn: 'SYN00000050' }]);
    });

    it('names the failing row of the batch whole (table patients, row 1 of the batch)', async () => {
      const failing = await server.fresh(server.url as string);
      try {
        await failing.query(patientsTable(`, check (char_length(family_name) < 2)`) + server.engine);
        const connected = await wb.call('population', { path: '/api/population/connect', body: { provider: server.provider, connectionString: failing.url } });
        expect(connected.status, connected.text).toBe(200);
        const job = await generateAndWait(wb, { count: 3, format: 'csv', seed: 6 });
        const run = await seedUntilDone(wb, job.jobId);
        expect(run.state).toBe('failed');
        expect(run.error).toMatch(/^Seeding stopped at table patients, row 1 of the batch: /);
      } finally {
        await failing.drop();
      }
    });
  });
}
