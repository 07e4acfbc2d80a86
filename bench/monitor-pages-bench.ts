/**
 * `npm run bench -- monitorPages`: time to interactive of the monitor's pages in headless Chromium: the dashboard
 * (every figure and table shown, with its links and buttons live), the dashboard's chart drawn (its library is loaded
 * after the figures), the message list (rows shown), a message view (its raw text laid out by field), interfaces,
 * alerts and a trace by MRN, over a store holding a few hundred messages of two interfaces. Beside it, the peer
 * measured the same way (a JSON answer of the monitor base opened in Chromium) and the goal of 1 s. Skipped, saying
 * so, without Chromium.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { send } from '../test/helpers/http-client.ts';
import { startBenchWorkbench } from './bench-workbench.ts';
import { launchBenchBrowser, measurePages } from './page-timing.ts';

const MESSAGES_PER_INTERFACE = 200;

/** An ADT^A01 of a patient; every tenth one lacks PID-5 (patient name), so it fails validation. */
function admission(index: number, patient: string): string {
  const name = index % 10 === 0 ? '' : 'DOE^JANE';
  return [
    `MSH|^~\\&|SENDAPP|SENDFAC|RECVAPP|RECVFAC|20260101120000||ADT^A01^ADT_A01|BENCH${index}|P|2.5`,
    'EVN|A01|20260101120000',
    `PID|1||${patient}^^^HOSP^MR||${name}||19800101|F|||1 MAIN ST^^BOSTON^MA^02110`,
    `PV1|1|I|WARD^101^1`,
  ].join('\r');
}

/** Runs the section; figures in milliseconds (medians of cold loads) and ratios to the peer. */
export async function runMonitorPagesBench(): Promise<Record<string, number>> {
  const browser = await launchBenchBrowser();
  if (!browser) return {};
  const bench = await startBenchWorkbench('wb-bench-monitor-pages-', { monitor: { settleMs: 100, checkIntervalMs: 100, pollingIntervalMs: 100 } });
  const api = async (method: 'GET' | 'POST', path: string, body?: unknown) => (await send(bench.urls.monitor, { method, path, ...(body ? { body } : {}) })).json as { data: Record<string, any> };
  try {
    const ids: string[] = [];
    for (const name of ['ADT inbound', 'ADT outbound']) {
      const folder = join(bench.dir, name.replace(' ', '-'));
      mkdirSync(folder);
      const id = (await api('POST', '/api/monitor/interfaces', { name, directoryPath: folder, standard: 'hl7' })).data.id as string;
      ids.push(id);
      for (let i = 0; i < MESSAGES_PER_INTERFACE; i++) writeFileSync(join(folder, `m${i}.hl7`), admission(i, `MRN${i % 50}`));
    }
    const deadline = Date.now() + 120_000;
    while ((await api('GET', '/api/monitor/analytics/topn?by=interface&metric=messagesTotal')).data.rows.reduce((n: number, r: { messages: number }) => n + r.messages, 0) < 2 * MESSAGES_PER_INTERFACE) {
      if (Date.now() > deadline) throw new Error('the bench messages were not all stored within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const failed = (await api('GET', `/api/monitor/messages?interfaceId=${ids[0]}&status=failed&limit=1`)).data.items[0].id as string;
    const base = bench.urls.monitor;
    return await measurePages(browser, `${base}/api/monitor/status`, [
      { name: 'dashboard', url: `${base}/`, ready: 'body[data-loaded="true"]' },
      { name: 'dashboardChart', url: `${base}/`, ready: '#chart[data-drawn="true"] canvas' },
      { name: 'messages', url: `${base}/messages?interfaceId=${ids[0]}&status=failed`, ready: '#messages tbody a' },
      { name: 'messageView', url: `${base}/messages/${encodeURIComponent(failed)}`, ready: '#raw .field.marked' },
      { name: 'interfaces', url: `${base}/interfaces`, ready: '#interface-list tbody tr[data-interface-id]' },
      { name: 'alerts', url: `${base}/alerts?show=all`, ready: '#alert-list tbody tr' },
      { name: 'tracing', url: `${base}/tracing?patientId=MRN1`, ready: '#timeline li[data-message-id]' },
    ]);
  } finally {
    await browser.close();
    await bench.stop();
  }
}
