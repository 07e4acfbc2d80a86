/**
 * The pages plugin: every web page of every base. The monitor base gets the dashboard, the message browser and
 * message view, interfaces, alerts and tracing; the bridge base its page for messages; the population base its
 * page for populations. The pages are clients of the bases' public HTTP API and nothing else; the plugin itself only
 * serves their shells and files.
 */
import { join } from 'node:path';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { BASES, type BaseName } from '../../kernel/plugin-host/plugin-manifest.ts';
import { pageBundlesOf } from './page-bundles.ts';
import { registerBasePageRoutes, type PageAddress } from './page-routes.ts';
import { pagesConfigSchema, type PagesConfig } from './pages-config.ts';

/** The views of each base, by address (each serves the same shell; the page picks the view from the address). */
const ADDRESSES: Record<BaseName, { title: string; addresses: PageAddress[] }> = {
  monitor: {
    title: 'Interface monitor',
    addresses: [
      { url: '/', summary: 'The monitor dashboard (a web page)' },
      { url: '/messages', summary: 'The message browser, filtered by the query string (a web page)' },
      { url: '/messages/:id', summary: 'One message: raw text by field, findings, file, trace (a web page)' },
      { url: '/interfaces', summary: 'The monitored interfaces: create, edit, enable, disable, delete (a web page)' },
      { url: '/alerts', summary: 'Alerts, open and past (a web page)' },
      { url: '/tracing', summary: "A patient's messages across interfaces, gaps and latency (a web page)" },
    ],
  },
  bridge: {
    title: 'Message bridge',
    addresses: [{ url: '/', summary: 'The message bridge: validate, compare, generate, de-identify, look up fields (a web page)' }],
  },
  population: {
    title: 'Population generator',
    addresses: [{ url: '/', summary: 'The population generator: connect, learn, generate, seed, clean up (a web page)' }],
  },
};

/** The plugin module the kernel loads. */
export const plugin: PluginModule<PagesConfig> = {
  configSchema: pagesConfigSchema,
  register(context) {
    const bundles = pageBundlesOf(join(context.directory, 'web'));
    const baseUrls = () => Object.fromEntries(BASES.map((base) => [base, context.baseUrl(base)]).filter(([, url]) => url !== undefined));
    for (const base of BASES) {
      registerBasePageRoutes(base === context.manifest.base ? context.routes : context.routesOn(base), {
        title: ADDRESSES[base].title,
        addresses: ADDRESSES[base].addresses,
        files: async () => (await bundles.get())[base],
        exampleNames: bundles.written?.[base] ?? { script: `${base}-HASH.js`, stylesheet: `${base}-HASH.css` },
        baseUrls,
        settings: base === 'monitor' ? { 'refresh-seconds': String(context.config.refreshSeconds) } : {},
      });
    }
  },
};
