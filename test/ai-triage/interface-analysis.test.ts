// Patterns, summary and upgrade check over interfaces fed real files through the monitor: a sender that switches from
// 2.3 to 2.5.1 with new software (SFT) and a new Z-segment at a known time is detected at that time; a sender with
// steady random errors is not, and its errors form one pattern. Reads go through the monitor's query contract only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMonitorHarness, storages, waitFor, type MonitorHarness } from '../monitor/monitor-harness.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

const MINUTE = 60_000;

function hl7Time(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14) + '+0000';
}

/** One ADT^A08 at `ms`: v2.3 before the upgrade, v2.5.1 with SFT and ZPI after it; PV1-2 empty when `failing`. */
function adt(index: number, ms: number, options: { upgraded: boolean; failing: boolean }): string {
  const time = hl7Time(ms);
  const version = options.upgraded ? '2.5.1' : '2.3';
  return [
    `MSH|^~\\&|REGSYS|HOSP|LAB|HOSP|${time}||ADT^A08^ADT_A01|CTRL${index}|P|${version}`,
    ...(options.upgraded ? ['SFT|Acme Health|9.2|AcmeADT|92-1||20260301'] : []),
    `EVN|A08|${time}`,
    `PID|1||P${1000 + index}^^^HOSP^MR||DOE^JANE||19800101|F`,
    `PV1|1|${options.failing ? '' : 'I'}|WARD^101^1`,
    ...(options.upgraded ? ['ZPI|1|PORTAL'] : []),
  ].join('\r');
}

const COUNT = 60;
const SWITCH_AT = 40;

describe.each(storages())('patterns, summary and upgrade check of monitored interfaces (%s)', (storage) => {
  let h: MonitorHarness;
  let upgradedId: string;
  let steadyId: string;
  let steadyFailures = 0;
  // Whole seconds: MSH-7 carries no fraction here.
  const start = Math.floor((Date.now() - 3 * 60 * MINUTE) / 1000) * 1000;
  const bridge = (path: string, body: unknown) => h.wb.call('bridge', { method: 'POST', path, body });

  beforeAll(async () => {
    h = await startMonitorHarness({ storage });
    const upgradedDir = h.folder('upgraded');
    const steadyDir = h.folder('steady');
    const next = seededRandom(11);
    for (let index = 0; index < COUNT; index++) {
      const at = start + index * 2 * MINUTE;
      writeFileSync(join(upgradedDir, `m${String(index).padStart(3, '0')}.hl7`), adt(index, at, { upgraded: index >= SWITCH_AT, failing: index >= SWITCH_AT }));
      // The first message fails too, so the errors are part of the baseline from the start.
      const failing = index === 0 || next() < 0.25;
      if (failing) steadyFailures++;
      writeFileSync(join(steadyDir, `m${String(index).padStart(3, '0')}.hl7`), adt(index, at, { upgraded: true, failing }));
    }
    upgradedId = (await h.post('/api/monitor/interfaces', { name: 'Registration ADT', directoryPath: upgradedDir })).json.data.id;
    steadyId = (await h.post('/api/monitor/interfaces', { name: 'Steady ADT', directoryPath: steadyDir })).json.data.id;
    for (const id of [upgradedId, steadyId]) {
      await waitFor(async () => (await bridge('/api/monitor/upgrade-check', { interfaceId: id })).json.data?.messagesRead === COUNT, 60_000, `${COUNT} messages of ${id}`);
    }
  }, 120_000);
  afterAll(async () => {
    await h.stop();
  });

  it('detects the switch from 2.3 to 2.5.1 with new software and a Z-segment, at the time it happened', async () => {
    const response = await bridge('/api/monitor/upgrade-check', { interfaceId: upgradedId, sinceHours: 24 });
    expect(response.status).toBe(200);
    const result = response.json.data;
    expect(result).toMatchObject({ interfaceId: upgradedId, upgradeDetected: true, assessment: 'detected', baselineMessages: SWITCH_AT, afterMessages: COUNT - SWITCH_AT });
    expect(result.changePoint).toBe(new Date(start + SWITCH_AT * 2 * MINUTE).toISOString());
    expect(result.confidence).toBeGreaterThan(0.8);
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'version', before: ['2.3'], after: ['2.5.1'], messages: COUNT - SWITCH_AT }));
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'software-version', after: ['9.2'] }));
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'segment-appeared', after: ['ZPI'] }));
    // Read from the text: PV1-2 stopped being sent, so its code vanished with it.
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'field-emptied', before: ['PV1.2'], messages: COUNT - SWITCH_AT }));
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'code-set', before: ['PV1.2=I'], after: [] }));
    expect(result.confidenceMethod).toMatch(/1 - product/);
    expect(JSON.stringify(result)).not.toContain('DOE');
  });

  it('detects a change of delimiters, character set and codes read from the text, with codes and never values', async () => {
    const dir = h.folder('recoded');
    for (let index = 0; index < COUNT; index++) {
      const changed = index >= SWITCH_AT;
      const time = hl7Time(start + index * 2 * MINUTE);
      const message = [
        `MSH|${changed ? '^~\\&#' : '^~\\&'}|REGSYS|HOSP|LAB|HOSP|${time}||ADT^A08^ADT_A01|CTRL${index}|P|2.3||||||${changed ? 'UNICODE UTF-8' : ''}`,
        `EVN|A08|${time}`,
        `PID|1||P${1000 + index}^^^HOSP^MR||DOE^JANE||19800101|${changed ? 'female' : 'F'}`,
        `PV1|1|${changed ? 'INPAT' : 'I'}|WARD^101^1`,
      ].join('\r');
      writeFileSync(join(dir, `m${String(index).padStart(3, '0')}.hl7`), message);
    }
    const id = (await h.post('/api/monitor/interfaces', { name: 'Recoded ADT', directoryPath: dir })).json.data.id;
    const result = await waitFor(async () => {
      const data = (await bridge('/api/monitor/upgrade-check', { interfaceId: id, sinceHours: 24 })).json.data;
      return data?.messagesRead === COUNT ? data : undefined;
    }, 60_000, `${COUNT} messages of the recoded feed`);
    expect(result).toMatchObject({ upgradeDetected: true, baselineMessages: SWITCH_AT, changePoint: new Date(start + SWITCH_AT * 2 * MINUTE).toISOString() });
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'delimiters', before: ['|^~\\&'], after: ['|^~\\&#'] }));
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'encoding', before: ['(none); CR'], after: ['UNICODE UTF-8; CR'] }));
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'code-set', before: ['PV1.2=I'], after: ['PV1.2=INPAT'] }));
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'field-populated', after: ['MSH.18'] }));
    const text = JSON.stringify(result);
    for (const value of ['DOE', 'JANE', 'P1000', '19800101']) expect(text).not.toContain(value);
  });

  it('does not detect an upgrade on an interface with steady random errors', async () => {
    const result = (await bridge('/api/monitor/upgrade-check', { interfaceId: steadyId, sinceHours: 24 })).json.data;
    expect(result.upgradeDetected).toBe(false);
    expect(result.confidence).toBeLessThan(0.5);
  });

  it('clusters the failures: the upgrade brought a new pattern; the steady errors form one steady-sized pattern', async () => {
    const upgraded = (await bridge('/api/monitor/patterns', { interfaceId: upgradedId })).json.data;
    expect(upgraded.clusterKeyVersion).toBe(1);
    expect(upgraded.failedMessages).toBe(COUNT - SWITCH_AT);
    expect(upgraded.patterns[0]).toMatchObject({
      key: 'v1:REQUIRED_FIELD_MISSING|PV1.2|ADT^A08|REGSYS',
      code: 'REQUIRED_FIELD_MISSING',
      field: 'PV1.2',
      messageType: 'ADT^A08',
      count: COUNT - SWITCH_AT,
      trend: 'new',
    });
    // Three of the failing messages, the latest received first (files dropped together may be seen in any order).
    const failing = Array.from({ length: COUNT - SWITCH_AT }, (_, index) => `CTRL${SWITCH_AT + index}`);
    expect(upgraded.patterns[0].exampleControlIds).toHaveLength(3);
    for (const id of upgraded.patterns[0].exampleControlIds) expect(failing).toContain(id);
    expect(upgraded.patterns[0].explanation.rootCause).toMatch(/PV1\.2/);
    const steady = (await bridge('/api/monitor/patterns', { interfaceId: steadyId, sinceHours: 24 })).json.data;
    expect(steady.failedMessages).toBe(steadyFailures);
    expect(steady.patterns.map((pattern: { code: string; count: number }) => [pattern.code, pattern.count])).toContainEqual(['REQUIRED_FIELD_MISSING', steadyFailures]);
  });

  it('summarises an interface in a paragraph with the facts behind it', async () => {
    const response = await bridge('/api/monitor/summary', { interfaceId: steadyId, sinceHours: 24 });
    expect(response.status).toBe(200);
    const { summary, facts } = response.json.data;
    expect(facts).toMatchObject({ messages: COUNT, failed: steadyFailures, previousMessages: 0 });
    expect(facts.errorRate).toBeCloseTo(steadyFailures / COUNT, 5);
    expect(facts.topPatterns[0]).toMatchObject({ code: 'REQUIRED_FIELD_MISSING', field: 'PV1.2' });
    expect(summary).toContain(`Steady ADT received ${COUNT} message(s)`);
    expect(summary).toContain(`${steadyFailures} failed`);
  });

  it('answers 404 for an unknown interface, 400 for a bad body, and clearly when there is too little data', async () => {
    for (const path of ['/api/monitor/patterns', '/api/monitor/summary', '/api/monitor/upgrade-check']) {
      const unknown = await bridge(path, { interfaceId: 'no-such-interface' });
      expect(unknown.status, path).toBe(404);
      expect(unknown.json.error.code).toBe('INTERFACE_NOT_FOUND');
      for (const body of [{}, { interfaceId: 42 }, { interfaceId: upgradedId, sinceHours: 0 }, { interfaceId: upgradedId, sinceHours: 'x' }]) {
        const bad = await bridge(path, body);
        expect(bad.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      }
    }
    const fewDir = h.folder('few');
    for (let index = 0; index < 3; index++) writeFileSync(join(fewDir, `f${index}.hl7`), adt(index, start + index * MINUTE, { upgraded: index > 0, failing: false }));
    const fewId = (await h.post('/api/monitor/interfaces', { name: 'Few', directoryPath: fewDir })).json.data.id;
    const result = await waitFor(async () => {
      const data = (await bridge('/api/monitor/upgrade-check', { interfaceId: fewId })).json.data;
      return data?.messagesRead === 3 ? data : undefined;
    });
    expect(result).toMatchObject({ assessment: 'insufficient-data', upgradeDetected: false, changePoint: null });
    expect(result.explanation).toMatch(/Too little data/);
  });
});

describe.each(storages())('the upgrade detector as a monitor alert rule (%s)', (storage) => {
  it('raises a vendor-upgrade warning when switched on, and none on a steady feed', async () => {
    const h = await startMonitorHarness({ storage, plugins: { 'ai-triage': { upgradeAlertRule: true, upgradeAlertReuseSeconds: 0 } } });
    try {
      const start = Math.floor((Date.now() - 3 * 60 * MINUTE) / 1000) * 1000;
      const upgradedDir = h.folder('upgraded');
      const steadyDir = h.folder('steady');
      for (let index = 0; index < COUNT; index++) {
        const at = start + index * 2 * MINUTE;
        writeFileSync(join(upgradedDir, `m${String(index).padStart(3, '0')}.hl7`), adt(index, at, { upgraded: index >= SWITCH_AT, failing: false }));
        writeFileSync(join(steadyDir, `m${String(index).padStart(3, '0')}.hl7`), adt(index, at, { upgraded: true, failing: index % 4 === 0 }));
      }
      const upgradedId = (await h.post('/api/monitor/interfaces', { name: 'Upgraded feed', directoryPath: upgradedDir })).json.data.id;
      const steadyId = (await h.post('/api/monitor/interfaces', { name: 'Steady feed', directoryPath: steadyDir })).json.data.id;
      const alert = await waitFor(async () => {
        const alerts = (await h.get(`/api/monitor/alerts?sinceHours=24&interfaceId=${upgradedId}`)).json.data as Array<{ rule: string; title: string; severity: string }>;
        return alerts.find((item) => item.rule === 'vendor-upgrade');
      }, 60_000, 'a vendor-upgrade alert');
      expect(alert).toMatchObject({ severity: 'warning', title: expect.stringContaining('Upgraded feed') });
      // The steady feed is fully read (its own upgrade check sees every message), and no rule raised anything for it.
      await waitFor(async () => (await h.wb.call('bridge', { method: 'POST', path: '/api/monitor/upgrade-check', body: { interfaceId: steadyId } })).json.data?.messagesRead === COUNT, 60_000);
      const steadyAlerts = (await h.get(`/api/monitor/alerts?sinceHours=24&interfaceId=${steadyId}`)).json.data as Array<{ rule: string }>;
      expect(steadyAlerts.filter((item) => item.rule === 'vendor-upgrade')).toEqual([]);
    } finally {
      await h.stop();
    }
  }, 120_000);
});
