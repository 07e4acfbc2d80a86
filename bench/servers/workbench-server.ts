// The measured side of the HTTP benchmarks: the real Workbench with its bundled plugins on ephemeral ports.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '../../kernel/workbench.ts';

const workbench = await createWorkbench({
  env: {},
  overrides: {
    dataDir: mkdtempSync(join(tmpdir(), 'wb-bench-')),
    logging: { level: 'warn' },
    servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
  },
});
const urls = await workbench.start();
process.stdout.write(`READY ${JSON.stringify(urls)}\n`);
process.on('SIGTERM', () => {
  void workbench.stop().then(() => process.exit(0));
});
