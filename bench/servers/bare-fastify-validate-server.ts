// The second peer of the validate benchmark: a bare fastify POST route calling the same HL7 adapter directly, with
// none of the kernel's HTTP layer (guard, schemas, detection, envelope). The gap to it is the kernel's own cost.
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createWorkbench } from '../../kernel/workbench.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';

const workbench = await createWorkbench({
  env: {},
  overrides: { dataDir: mkdtempSync(join(tmpdir(), 'wb-bench-peer-')), logging: { level: 'warn' } },
});
const hl7 = resolveService(workbench.container, TOKENS.Standards).get('hl7');
if (!hl7) throw new Error('the hl7 adapter is not registered');
const app = Fastify({ logger: false });
app.post('/api/validate', async (request) => {
  const body = request.body as { messageContent: string };
  return { success: true, data: hl7.validate(body.messageContent, { mode: 'strict' }), error: null };
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
