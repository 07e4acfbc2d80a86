// The bridge's page (the bridge base's `/`): Validate, Diff, Generate, De-identify and Lookup, one view at a time
// chosen by `?tab=`, every choice kept in the address so a view can be linked and reloaded. A message handed over in
// the fragment (`#message=<base64url>`, see ../shared/handover.js) opens in Validate and is validated at once.
import { html } from '../vendor/preact-htm.js';
import { Layout, mount, Problem } from '../shared/layout.js';
import { startRouter, useRoute } from '../shared/router.js';
import { readHandover } from '../shared/handover.js';
import { ValidateView } from './validate-view.js';
import { DiffView } from './diff-view.js';
import { GenerateView } from './generate-view.js';
import { DeidentifyView } from './deidentify-view.js';
import { LookupView } from './lookup-view.js';

const VIEWS = {
  validate: { label: 'Validate', View: ValidateView },
  diff: { label: 'Diff', View: DiffView },
  generate: { label: 'Generate', View: GenerateView },
  deidentify: { label: 'De-identify', View: DeidentifyView },
  lookup: { label: 'Lookup', View: LookupView },
};

// read once: a reload with the same fragment validates the handed-over message again, as a link should
const handover = readHandover();

function Bridge() {
  const route = useRoute();
  const tab = handover?.message && !route.query.get('tab') ? 'validate' : route.query.get('tab') ?? 'validate';
  const { View } = VIEWS[tab] ?? VIEWS.validate;
  const nav = Object.entries(VIEWS).map(([id, view]) => ({ href: `/?tab=${id}`, label: view.label }));
  return html`<${Layout} title="Message bridge" nav=${nav} current=${`/?tab=${VIEWS[tab] ? tab : 'validate'}`}>
    ${handover?.problem ? html`<${Problem} error=${{ message: handover.problem }} prefix="Could not open the message" />` : null}
    <${View} query=${route.query} handover=${tab === 'validate' ? handover : undefined} />
  <//>`;
}

startRouter((pathname) => pathname === '/');
mount(html`<${Bridge} />`);
document.body.dataset.loaded = 'true';
