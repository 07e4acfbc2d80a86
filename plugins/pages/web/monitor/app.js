// The monitor's pages: one script module that picks the view from the address. Each view reads the monitor base's
// public JSON API only.
import { html } from '../vendor/preact-htm.js';
import { Layout, mount } from '../shared/layout.js';
import { startRouter, useRoute } from '../shared/router.js';
import { Dashboard } from './dashboard.js';

/** The monitor's views, in the navigation's order: address, label, and the view that draws it. */
const VIEWS = [{ path: '/', label: 'Dashboard', title: 'Interface monitor', view: Dashboard }];

const NAV = VIEWS.map(({ path, label }) => ({ href: path, label }));

function viewOf(path) {
  return VIEWS.find((view) => view.path === path) ?? null;
}

function App() {
  const route = useRoute();
  const found = viewOf(route.path);
  if (!found) {
    return html`<${Layout} title="Not a page" nav=${NAV}><p>No view at ${route.path}. <a href="/">Open the dashboard</a>.</p><//>`;
  }
  const View = found.view;
  return html`<${Layout} title=${found.title} nav=${NAV} current=${found.path}><${View} route=${route} /><//>`;
}

startRouter((path) => viewOf(path) !== null);
mount(html`<${App} />`);
