import { testAdapter } from './test/fhir-standard/fhir-fixtures.ts';
const a = testAdapter();
a.validate(JSON.stringify({ resourceType: 'Patient' }), { mode: 'strict' });
const huge = 'Q'.repeat(20_000);
a.validate(JSON.stringify({ resourceType: 'Patient', [huge]: 1 }), { mode: 'strict' });
