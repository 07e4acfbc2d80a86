/**
 * The pages plugin: every web page of every base. The monitor base gets the dashboard, the message browser and
 * message view, interfaces, alerts and tracing; the bridge base its page for messages; the population base its
 * page for populations. The pages are clients of the bases' public HTTP API and nothing else; the plugin itself only
 * serves their shells and files.
 */
import { join } from 'node:path';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { BASES, type BaseName } from '../../kernel/plugin-manifest.ts';
import { staticModuleGraph } from './module-graph.ts';
import { readAssetFolder, readVendorFolder } from './page-assets.ts';
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
    const web = join(context.directory, 'web');
    const shared = readAssetFolder(join(web, 'shared'));
    const vendor = readVendorFolder();
    const baseUrls = () => Object.fromEntries(BASES.map((base) => [base, context.baseUrl(base)]).filter(([, url]) => url !== undefined));
    for (const base of BASES) {
      const own = readAssetFolder(join(web, base));
      const folders = { shared, vendor, [base]: own };
      // links, never an @import, which axe and some browsers turn into inline styles: the dashboard's charts first,
      // the shared sheet, then the base's own
      const stylesheets = [
        ...(base === 'monitor' ? ['/pages/vendor/uplot.css'] : []),
        '/pages/shared/pages.css',
        ...(own.has(`${base}.css`) ? [`/pages/${base}/${base}.css`] : []),
      ];
      registerBasePageRoutes(base === context.manifest.base ? context.routes : context.routesOn(base), {
        title: ADDRESSES[base].title,
        addresses: ADDRESSES[base].addresses,
        folders,
        baseUrls,
        settings: base === 'monitor' ? { 'refresh-seconds': String(context.config.refreshSeconds) } : {},
        stylesheets,
        modules: staticModuleGraph(folders, `/pages/${base}/app.js`),
      });
    }
  },
};
