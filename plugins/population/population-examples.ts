/**
 * Example requests and answers of the population routes (generation jobs and the connected database), shown in the
 * population base's OpenAPI document: the docs page pre-fills "Try it out" with them. They follow one story: 500
 * synthetic Massachusetts patients as a PostgreSQL script, then a staging EHR database learned, seeded and cleaned.
 */

const JOB_ID = 'pop_fc2fb6867cad4309ae82';
const SEED_JOB_ID = 'pop_41575f89cf4b44c29a73';
const SEED_RUN_ID = 'seed_f9ef2ddc4d3545e1998e';
const CLEANUP_ID = 'clean_5d0e7b1f2c8a4e6b9d31';
/** A connected database as answers name it: provider, host and database, never the credentials. */
const DATABASE = 'postgres://10.20.8.31:5432/ehr_staging';

const JOB_PARAMS = {
  count: 500,
  format: 'sql',
  geographicFocus: 'us-ma',
  seed: 20260115,
  sqlDialect: 'postgres',
  schemaTarget: 'default',
  targetDatabase: null,
};

/** The job once completed. */
const COMPLETED_JOB = {
  jobId: JOB_ID,
  state: 'completed',
  params: JOB_PARAMS,
  progress: { generated: 500, total: 500, percent: 100 },
  counts: { patients: 500, encounters: 1386, conditions: 741, observations: 12904, medications: 497, allergies: 63 },
  files: [
    {
      name: 'population.sql',
      bytes: 2093114,
      sha256: '07b2c3c50111f3c5f3120eda951fb7946d24340d5d0f4df8f0df21dc00f676a9',
      records: 16091,
      contentType: 'application/sql',
      downloadPath: `/api/population/generate/${JOB_ID}/files/population.sql`,
    },
  ],
  error: null,
  createdAt: '2026-01-15T10:00:04.435Z',
  startedAt: '2026-01-15T10:00:04.452Z',
  finishedAt: '2026-01-15T10:00:11.733Z',
};

/** The start of the job's script. */
const SQL_SCRIPT = [
  '-- Synthetic population: 500 patients, area us-ma, seed 20260115, workbench-population/0.1.0.',
  '-- Every person in it is synthetic.',
  "-- Tables follow the workbench's default patient schema.",
  'BEGIN;',
  '',
  'CREATE TABLE "patients" (',
  '  "id" bigint NOT NULL,',
  '  "mrn" varchar(20) NOT NULL,',
  '  "given_name" varchar(60) NOT NULL,',
  '  "family_name" varchar(60) NOT NULL,',
  '  "sex" varchar(1) NOT NULL,',
  '  "birth_date" date NOT NULL,',
  '  PRIMARY KEY ("id")',
  ');',
  '',
].join('\n');

/** One distribution row. */
const share = (key: string, label: string, count: number, targetPercent: number) => {
  const percent = Math.round((count / 500) * 10_000) / 100;
  return { key, label, count, percent, targetPercent, difference: Math.round((percent - targetPercent) * 100) / 100 };
};

const PATIENT_COLUMNS = [
  { column: 'id', source: 'key' },
  { column: 'mrn', source: 'generated', from: 'mrn' },
  { column: 'given_name', source: 'generated', from: 'given_name' },
  { column: 'family_name', source: 'generated', from: 'family_name' },
  { column: 'sex', source: 'generated', from: 'sex' },
  { column: 'birth_date', source: 'generated', from: 'birth_date' },
];
const FIRST_PATIENTS = [
  { id: 48211, mrn: 'SYN00000001', given_name: 'Jordy', family_name: 'Glover', sex: 'male', birth_date: '2013-05-15' },
  { id: 48212, mrn: 'SYN00000002', given_name: 'Maria', family_name: 'Kohler', sex: 'female', birth_date: '1991-06-14' },
];

const column = (name: string, dataType: string, nullable: boolean, maxLength: number | null, allowedValues: string[] | null = null) => ({
  name,
  dataType,
  nullable,
  default: null,
  maxLength,
  allowedValues,
  generated: false,
});

/** A learned profile as answered: aggregates only, identity hashes counted, never listed. */
const LEARNED_PROFILE = {
  name: 'ehr-staging',
  provider: 'postgres',
  database: 'ehr_staging',
  learnedAt: '2026-01-15T10:14:02.531Z',
  k: 5,
  sampleSize: 1000,
  tables: [
    {
      table: 'patients',
      rowCount: 48210,
      sampledRows: 1000,
      columns: [
        {
          name: 'sex',
          dataType: 'sex_code',
          kind: 'string',
          nullFraction: 0,
          distinctCount: 3,
          frequencies: {
            values: [
              { value: 'female', count: 514, fraction: 0.514 },
              { value: 'male', count: 483, fraction: 0.483 },
            ],
            suppressed: 3,
          },
          range: null,
          strings: { minLength: 4, maxLength: 6, meanLength: 5.03, patterns: [] },
        },
      ],
      fanOut: [],
    },
  ],
  identities: { tables: ['patients'], count: 1000 },
};

/** Examples of every population route, by route. */
export const POPULATION_EXAMPLES = {
  submit: {
    body: { count: 500, format: 'sql', geographicFocus: 'us-ma', seed: 20260115, sqlDialect: 'postgres' },
    response: {
      ...COMPLETED_JOB,
      state: 'queued',
      progress: { generated: 0, total: 500, percent: 0 },
      counts: {},
      files: [],
      startedAt: null,
      finishedAt: null,
    },
  },
  get: { params: { id: JOB_ID }, response: COMPLETED_JOB },
  list: {
    query: { limit: 20 },
    response: { jobs: [{ ...COMPLETED_JOB, diskBytes: 2093114 }], diskBytes: 2093114, freeBytes: 182736183296 },
  },
  cancel: {
    params: { id: 'pop_e2f54765b1a84e6292f3' },
    response: {
      deleted: false,
      jobId: 'pop_e2f54765b1a84e6292f3',
      state: 'cancelled',
      params: { ...JOB_PARAMS, count: 100000, format: 'csv', geographicFocus: 'us', seed: 143349832 },
      progress: { generated: 12000, total: 100000, percent: 12 },
      counts: {},
      files: [],
      error: null,
      createdAt: '2026-01-15T10:05:39.221Z',
      startedAt: '2026-01-15T10:05:39.222Z',
      finishedAt: '2026-01-15T10:05:52.870Z',
    },
  },
  download: { params: { id: JOB_ID, name: 'population.sql' }, response: SQL_SCRIPT },
  analytics: {
    params: { id: JOB_ID },
    response: {
      patients: 500,
      rows: COMPLETED_JOB.counts,
      agePyramid: [share('0-4', '0-4', 27, 5.72), share('5-9', '5-9', 31, 6.02), share('85-99', '85+', 11, 2.01)],
      sex: [share('F', 'Female', 257, 50.79), share('M', 'Male', 243, 49.21)],
      race: [share('2106-3', 'White', 385, 77.56), share('2054-5', 'Black or African American', 37, 7), share('2028-9', 'Asian', 35, 7.2)],
      ethnicity: [share('2135-2', 'Hispanic or Latino', 61, 12.6), share('2186-5', 'Not Hispanic or Latino', 439, 87.4)],
      states: [share('MA', 'MA', 500, 100)],
      conditionPrevalence: [
        share('38341003', 'Hypertensive disorder, systemic arterial', 141, 27.5),
        share('44054006', 'Diabetes mellitus type 2', 31, 6.56),
        share('55822004', 'Hyperlipidemia', 80, 15.6),
      ],
      largestDifference: { agePyramid: 0.32, sex: 0.61, race: 0.56, ethnicity: 0.4, states: 0, conditionPrevalence: 0.7 },
    },
  },
  compliance: {
    params: { id: JOB_ID },
    response: {
      jobId: JOB_ID,
      syntheticOnly: true,
      phiDetected: false,
      checks: [
        {
          name: 'phone-fictional-range',
          description: 'Telephone numbers are in the 555-0100..0199 block reserved for fiction.',
          passed: true,
          checked: 500,
          failed: 0,
          failures: [],
        },
        {
          name: 'ssn-never-issued',
          description: 'SSNs are in an area number the SSA never issues (000, 666, 900-999).',
          passed: true,
          checked: 500,
          failed: 0,
          failures: [],
        },
        {
          name: 'mrn-synthetic-prefix',
          description: 'Medical record numbers carry the synthetic prefix SYN.',
          passed: true,
          checked: 500,
          failed: 0,
          failures: [],
        },
      ],
      seed: 20260115,
      generatorVersion: 'workbench-population/0.1.0',
      outputSha256: 'ea150d390476931b12dd3e02aa710d851b8cd2312cbec91a3328fe468c4315ba',
      generatedAt: COMPLETED_JOB.finishedAt,
      attestedAt: '2026-01-15T10:00:11.756Z',
    },
  },
  connect: {
    body: { provider: 'postgres', connectionString: 'postgres://workbench:Ehr-Staging-2026@10.20.8.31:5432/ehr_staging' },
    response: {
      connected: true,
      database: DATABASE,
      provider: 'postgres',
      tables: [
        { name: 'encounters', rowCount: 131804 },
        { name: 'patients', rowCount: 48210 },
      ],
      insertOrder: ['patients', 'encounters'],
      cycles: [],
    },
  },
  schema: {
    response: {
      provider: 'postgres',
      database: DATABASE,
      analysedAt: '2026-01-15T10:12:35.903Z',
      tables: [
        {
          name: 'patients',
          columns: [
            column('id', 'bigint', false, null),
            column('mrn', 'character varying', false, 20),
            column('given_name', 'character varying', false, 60),
            column('family_name', 'character varying', false, 60),
            column('sex', 'sex_code', false, null, ['female', 'male', 'other']),
            column('birth_date', 'date', false, null),
          ],
          primaryKey: ['id'],
          uniques: [['mrn']],
          foreignKeys: [],
          checks: [],
          rowCount: 48210,
        },
      ],
      insertOrder: ['patients', 'encounters'],
      cycles: [],
    },
  },
  learn: {
    body: { tables: ['patients'], sampleSize: 1000, name: 'ehr-staging', k: 5 },
    response: LEARNED_PROFILE,
  },
  profiles: {
    response: [{ name: 'ehr-staging', learnedAt: '2026-01-15T10:14:02.531Z', tables: ['patients'], sampledRows: 1000, hasIdentities: true }],
  },
  profile: { params: { name: 'ehr-staging' }, response: LEARNED_PROFILE },
  dryRun: {
    body: { jobId: SEED_JOB_ID },
    response: {
      jobId: SEED_JOB_ID,
      database: DATABASE,
      provider: 'postgres',
      method: 'COPY FROM STDIN (CSV)',
      transactions: 'one per 1000 patients, 2 connections loading side by side',
      steps: [
        {
          order: 1,
          table: 'patients',
          from: 'patients',
          rowCount: 500,
          keyColumn: 'id',
          keys: '48211 to 48710',
          columns: PATIENT_COLUMNS,
          statement: 'COPY "patients" ("id", "mrn", "given_name", "family_name", "sex", "birth_date") FROM STDIN WITH (FORMAT csv)',
          sample:
            'INSERT INTO "patients" ("id", "mrn", "given_name", "family_name", "sex", "birth_date") VALUES\n' +
            "  (48211, 'SYN00000001', 'Jordy', 'Glover', 'male', '2013-05-15'),\n" +
            "  (48212, 'SYN00000002', 'Maria', 'Kohler', 'female', '1991-06-14');",
          firstRows: FIRST_PATIENTS,
        },
      ],
      untouched: [{ table: 'audit_notes', reason: 'the population has no table of that name' }],
      cycleBreakers: [],
      cycles: [],
    },
  },
  seed: {
    body: { jobId: SEED_JOB_ID },
    response: {
      seedRunId: SEED_RUN_ID,
      jobId: SEED_JOB_ID,
      database: DATABASE,
      state: 'running',
      inserted: 0,
      progress: { inserted: 0, expected: 1886, percent: 0 },
      tables: [],
      error: null,
      createdAt: '2026-01-15T10:20:36.204Z',
      finishedAt: null,
    },
  },
  seedRun: {
    params: { id: SEED_RUN_ID },
    response: {
      seedRunId: SEED_RUN_ID,
      jobId: SEED_JOB_ID,
      database: DATABASE,
      state: 'completed',
      inserted: 1886,
      progress: { inserted: 1886, expected: 1886, percent: 100 },
      tables: [
        { table: 'patients', keyColumn: 'id', rows: 500, kind: 'integer', from: 48211, to: 48710 },
        { table: 'encounters', keyColumn: 'id', rows: 1386, kind: 'integer', from: 131805, to: 133190 },
      ],
      error: null,
      createdAt: '2026-01-15T10:20:36.204Z',
      finishedAt: '2026-01-15T10:20:38.912Z',
    },
  },
  cleanup: {
    response: {
      cleanupId: CLEANUP_ID,
      database: DATABASE,
      state: 'running',
      deleted: {},
      total: 0,
      expected: 1886,
      seedRuns: [SEED_RUN_ID],
      cleanedSeedRuns: [],
      error: null,
      createdAt: '2026-01-15T10:31:02.118Z',
      finishedAt: null,
    },
  },
  cleanupState: {
    params: { id: CLEANUP_ID },
    response: {
      cleanupId: CLEANUP_ID,
      database: DATABASE,
      state: 'completed',
      deleted: { encounters: 1386, patients: 500 },
      total: 1886,
      expected: 1886,
      seedRuns: [SEED_RUN_ID],
      cleanedSeedRuns: [SEED_RUN_ID],
      error: null,
      createdAt: '2026-01-15T10:31:02.118Z',
      finishedAt: '2026-01-15T10:31:02.407Z',
    },
  },
};
