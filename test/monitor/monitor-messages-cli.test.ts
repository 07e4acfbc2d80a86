// `workbench messages list|show` on the store a service left behind: pages with the cursor, filters, a message's
// findings placed in its text, its raw text only with --raw (and then in the audit trail as the local user), and
// bad input refused with exit code 2 naming it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoleKeys, withBearer } from '../helpers/admin-access.ts';
import { runCli } from '../helpers/cli-process.ts';
import { startTestWorkbench } from '../helpers/test-workbench.ts';
import { adtMessage, createWatchedInterface, startMonitorHarness, waitFor } from './monitor-harness.ts';

const NAMELESS = [
  'MSH|^~\\&|SENDAPP|SENDFAC|RECVAPP|RECVFAC|20260101120000||ADT^A01^ADT_A01|BAD1|P|2.5',
  'EVN|A01|20260101120000',
  'PID|1||MRN200^^^HOSP^MR||||19800101|F|||1 ZEBRAFISH ST^^BOSTON^MA^02110',
  'PV1|1|I|WARD^101^1',
].join('\r');

describe('workbench messages', () => {
  let dataDir: string;
  let badId: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'workbench-messages-cli-'));
    const h = await startMonitorHarness({ config: { dataDir } });
    try {
      const folder = h.folder();
      const interfaceId = await createWatchedInterface(h, 'cli feed', folder);
      writeFileSync(join(folder, 'bad.hl7'), NAMELESS);
      writeFileSync(join(folder, 'good.hl7'), adtMessage('GOOD1'));
      const items = await waitFor(async () => {
        const page = (await h.get(`/api/monitor/messages?interfaceId=${interfaceId}`)).json.data.items as Array<{ id: string; controlId: string }>;
        return page.length === 2 ? page : undefined;
      }, 30_000, '2 messages');
      badId = items.find((m) => m.controlId === 'BAD1')!.id;
    } finally {
      // the store stays: the service's own stop, not the harness's, which removes the folder
      await h.wb.workbench.stop();
    }
  }, 60_000);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists a page with the first finding and the file, filters, and pages on with the cursor', () => {
    const failed = runCli(dataDir, 'messages', 'list', '--status', 'failed');
    expect(failed.code, failed.err).toBe(0);
    expect(failed.out).toContain('BAD1');
    expect(failed.out).toContain('REQUIRED_FIELD_MISSING at PID.5');
    expect(failed.out).toContain('bad.hl7');
    expect(failed.out).not.toContain('GOOD1');
    expect(failed.out).not.toContain('ZEBRAFISH');

    const first = runCli(dataDir, 'messages', 'list', '--limit', '1', '--json');
    expect(first.code, first.err).toBe(0);
    const page = JSON.parse(first.out) as { items: Array<{ controlId: string }>; next: string };
    expect(page.items).toHaveLength(1);
    const second = runCli(dataDir, 'messages', 'list', '--limit', '1', '--json', '--cursor', page.next);
    const rest = JSON.parse(second.out) as { items: Array<{ controlId: string }>; next: string | null };
    expect([...page.items, ...rest.items].map((m) => m.controlId).sort()).toEqual(['BAD1', 'GOOD1']);
    expect(rest.next).toBeNull();
  }, 120_000);

  it('shows findings placed in the text; the raw text only with --raw, recorded in the audit trail', async () => {
    const shown = runCli(dataDir, 'messages', 'show', badId);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain('REQUIRED_FIELD_MISSING at PID.5 (segment 2 PID field 5 chars');
    expect(shown.out).toContain('bad.hl7 (message 1 of 1');
    expect(shown.out).not.toContain('ZEBRAFISH');

    const raw = runCli(dataDir, 'messages', 'show', badId, '--raw', '--json');
    expect(raw.code, raw.err).toBe(0);
    const view = JSON.parse(raw.out);
    expect(view).toMatchObject({ raw: NAMELESS, rawState: 'retained' });

    const wb = await startTestWorkbench({ config: { dataDir } });
    try {
      const keys = await createRoleKeys(wb);
      const trail = await wb.call('monitor', withBearer({ method: 'GET', path: '/api/monitor/audit?action=message.raw-view' }, keys.admin));
      const entries = trail.json.data.entries.filter((e: { resourceId: string }) => e.resourceId === badId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actorKind: 'local', outcome: 'success' });
      expect(entries[0].actor).toMatch(/^os:/);
    } finally {
      await wb.workbench.stop();
    }
  }, 120_000);

  it('refuses bad input with exit code 2 naming it', () => {
    const cases: Array<[string[], string]> = [
      [['messages', 'show', 'abc'], 'is not a message id'],
      [['messages', 'show', '999999.0'], 'NOT_FOUND'],
      [['messages', 'list', '--since', 'yesterday'], 'since'],
      [['messages', 'list', '--cursor', 'bogus'], 'MESSAGE_CURSOR_INVALID'],
    ];
    for (const [args, words] of cases) {
      const run = runCli(dataDir, ...args);
      expect(run.code, `${args.join(' ')}: ${run.out} ${run.err}`).toBe(2);
      expect(run.err, args.join(' ')).toContain(words);
    }
  }, 120_000);
});
