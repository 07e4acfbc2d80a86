// A NUL byte is text PostgreSQL cannot store: a message file with \x00 in MSH-10 and PID-3 is ingested and counted,
// and gaps, latency and traces keep answering on both stores (the tracing feed moves past it); text bound for the
// store is made storable in one place, the storage layer. Request inputs holding control characters where an
// identifier is expected answer 400 on both stores, the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adtMessage, createWatchedInterface, startMonitorHarness, storages, waitFor, waitForTotal, type MonitorHarness } from '../monitor/monitor-harness.ts';
import { createRoleKeys, withBearer, type RoleKeys } from '../helpers/admin-access.ts';

for (const storage of storages()) {
  describe(`control characters on ${storage}`, () => {
    let h: MonitorHarness;
    let keys: RoleKeys;
    let interfaceId: string;
    beforeAll(async () => {
      h = await startMonitorHarness({ storage });
      keys = await createRoleKeys(h.wb);
      const folder = h.folder();
      interfaceId = await createWatchedInterface(h, 'nul-feed', folder);
      const now = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
      const poisoned = adtMessage('CTRL\x00NUL', { patientId: 'PAT\x00ONE', time: now });
      writeFileSync(join(folder, 'nul.hl7'), `${poisoned}\r${adtMessage('CLEAN1', { patientId: 'PAT-CLEAN', time: now })}\r`);
      await waitForTotal(h, interfaceId, 2);
    }, 120_000);
    afterAll(async () => {
      await h?.stop();
    });

    it('counts the message and keeps gaps, latency and traces answering; the feed moves past it', async () => {
      for (const path of ['/api/monitor/gaps', `/api/monitor/latency?from_interface=${interfaceId}&to_interface=${interfaceId}`]) {
        const answer = await h.get(path);
        expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(200);
      }
      // a message written after the poisoned one is traced: the feed did not stop at it
      const folder = h.folder();
      const later = await createWatchedInterface(h, 'after-nul', folder);
      writeFileSync(join(folder, 'later.hl7'), `${adtMessage('AFTER1', { patientId: 'PAT-LATER' })}\r`);
      await waitForTotal(h, later, 1);
      const traced = await waitFor(async () => {
        const answer = await h.get('/api/monitor/traces?patient_id=PAT-LATER');
        expect(answer.status, answer.text.slice(0, 300)).toBe(200);
        return answer.json.data.events?.length > 0 ? answer.json.data : undefined;
      }, 30_000, 'the later message traced');
      expect(traced.events.length).toBeGreaterThan(0);
      const poisoned = await h.get(`/api/monitor/traces?patient_id=PAT${encodeURIComponent('\uFFFD')}ONE`);
      expect(poisoned.status, poisoned.text.slice(0, 300)).toBe(200);
    });

    it('answers 400 for control characters where an identifier is expected', async () => {
      const paths = [
        '/api/monitor/traces?patient_id=%00',
        '/api/monitor/traces?control_id=A%01B',
        '/api/monitor/interfaces/%00',
        '/api/monitor/interfaces/%00/metrics',
        `/api/monitor/analytics/timeseries?interfaceId=%00`,
        '/api/monitor/traces/%00',
      ];
      for (const path of paths) {
        const answer = await h.get(path);
        expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(400);
        expect(answer.json.error.code, path).toBe('VALIDATION_FAILED');
        expect(answer.json.error.message, path).toMatch(/control character/);
      }
      const named = await h.post('/api/monitor/interfaces', { name: 'bad\x00name', directoryPath: h.folder() });
      expect(named.status, named.text.slice(0, 300)).toBe(400);
      const role = await h.wb.call('monitor', withBearer({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: 'u\x00x', role: 'MonitorViewer' } }, keys.admin));
      expect(role.status, role.text.slice(0, 300)).toBe(400);
    });
  });
}
