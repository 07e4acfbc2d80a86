/** `workbench audit verify`: checks the chain against its checkpoint; exit code 0 when intact, 1 naming every broken link. */
import { parseArgs } from 'node:util';
import type { PluginCommand } from '../../kernel/plugin-api.ts';
import type { AuditStore } from './audit-store.ts';

/** The audit commands. */
export function createAuditCommands(store: AuditStore): PluginCommand[] {
  return [
    {
      name: 'audit verify',
      async run(args, io) {
        const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true });
        const result = await store.verify();
        if (values.json) io.out(JSON.stringify(result));
        else if (result.intact) {
          const from = result.anchor ? ` (after the anchor at entry ${result.anchor.lastPrunedId})` : '';
          io.out(`Audit trail intact: ${result.checked} entries checked${from}.`);
        } else {
          io.out(`Audit trail BROKEN at entry ${result.firstBroken?.id}: ${result.firstBroken?.reason}`);
          for (const link of result.brokenLinks.slice(1)) io.out(`  also entry ${link.id}: ${link.reason}`);
          if (result.brokenTotal > result.brokenLinks.length) io.out(`  and ${result.brokenTotal - result.brokenLinks.length} more broken links`);
        }
        return result.intact ? 0 : 1;
      },
    },
  ];
}
