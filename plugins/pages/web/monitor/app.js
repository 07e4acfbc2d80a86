// The monitor's pages: one script module that picks the view from the address. Each view reads the monitor base's
// public JSON API only.
import { html } from '../vendor/preact-htm.js';
import { Layout, mount } from '../shared/layout.js';
import { startRouter, useRoute } from '../shared/router.js';
import { Alerts } from './alerts.js';
import { Dashboard } from './dashboard.js';
import { Interfaces } from './interfaces.js';
import { MessageView } from './message-view.js';
import { Messages } from './messages.js';
import { Tracing } from './tracing.js';

/** The monitor's views: the address they answer (a pattern), their label in the navigation, and the view. */
const VIEWS = [
  { pattern: /^\/$/, href: '/', label: 'Dashboard', title: () => 'Interface monitor', view: Dashboard },
  { pattern: /^\/messages$/, href: '/messages', label: 'Messages', title: () => 'Messages', view: Messages },
  { pattern: /^\/messages\/([^/]+)$/, href: '/messages', title: (id) => `Message ${id}`, view: MessageView },
  { pattern: /^\/interfaces$/, href: '/interfaces', label: 'Interfaces', title: () => 'Interfaces', view: Interfaces },
  { pattern: /^\/alerts$/, href: '/alerts', label: 'Alerts', title: () => 'Alerts', view: Alerts },
  { pattern: /^\/tracing$/, href: '/tracing', label: 'Tracing', title: () => 'Tracing', view: Tracing },
];

const NAV = VIEWS.filter((view) => view.label).map(({ href, label }) => ({ href, label }));

function viewOf(path) {
  for (const view of VIEWS) {
    const match = view.pattern.exec(path);
    if (match) return { ...view, argument: match[1] === undefined ? undefined : decodeURIComponent(match[1]) };
  }
  return null;
}

function App() {
  const route = useRoute();
  const found = viewOf(route.path);
  if (!found) {
    return html`<${Layout} title="Not a page" nav=${NAV}><p>No view at ${route.path}. <a href="/">Open the dashboard</a>.</p><//>`;
  }
  const View = found.view;
  return html`<${Layout} title=${found.title(found.argument)} nav=${NAV} current=${found.href}>
    <${View} key=${route.path} route=${route} id=${found.argument} />
  <//>`;
}

startRouter((path) => viewOf(path) !== null);
mount(html`<${App} />`);
