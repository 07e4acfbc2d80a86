// The frame of every page: a skip link, the header with this base's views and links to the other bases (at their
// real addresses), the view in <main>, and a place for problems. Moving to another view moves the keyboard focus to
// its heading, as a page load would.
import { html, render, useEffect, useRef } from '../vendor/preact-htm.js';
import { BASE_TITLES, baseLink, currentBase } from './bases.js';

/**
 * A page: `title` (the heading and the document title), `nav` (this base's views: [{href, label}]), `current` (the
 * href of the view shown) and the view as children.
 */
export function Layout({ title, nav = [], current, children }) {
  const heading = useRef(null);
  useEffect(() => {
    document.title = `${title} · ${BASE_TITLES[currentBase] ?? 'Workbench'}`;
  }, [title]);
  useEffect(() => {
    // after the first view, a new view takes the focus the way a new page would
    if (document.body.dataset.viewShown) heading.current?.focus({ preventScroll: false });
    document.body.dataset.viewShown = 'true';
  }, [current]);
  const others = Object.keys(BASE_TITLES).filter((base) => base !== currentBase);
  return html`
    <a class="skip" href="#main">Skip to the content</a>
    <header class="top">
      <nav aria-label="Pages">
        <span class="brand">${BASE_TITLES[currentBase] ?? 'Workbench'}</span>
        <ul>
          ${nav.map(
            (item) => html`<li><a href=${item.href} aria-current=${item.href === current ? 'page' : undefined}>${item.label}</a></li>`,
          )}
        </ul>
        <ul class="elsewhere">
          ${others.map((base) => html`<li><a href=${baseLink(base, '/')}>${BASE_TITLES[base]}</a></li>`)}
          <li><a href="/docs">API docs</a></li>
        </ul>
      </nav>
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${heading}>${title}</h1>
      ${children}
    </main>
  `;
}

/** A problem shown to the reader (an API error's message), or nothing. */
export function Problem({ error, prefix = 'Could not load' }) {
  if (!error) return null;
  return html`<p class="problem" role="alert">${prefix}: ${error.message}${error.code ? html` <code>${error.code}</code>` : ''}</p>`;
}

/**
 * A line saying a list read page by page stopped at its bound (`cut`, from useAllPages) and shows only its first
 * `count` items of `what`; nothing when the whole list was read.
 */
export function ListCut({ cut, count, what, id }) {
  if (!cut) return null;
  return html`<p class="muted" role="status" id=${id}>Only the first ${count} ${what} are shown: there are more.</p>`;
}

/** A table with a caption-less header row and a line saying so when it has no rows. */
export function Table({ id, headers, rows, empty, label }) {
  return html`
    <div class="table-wrap">
      <table id=${id} aria-label=${label}>
        <thead><tr>${headers.map((header) => html`<th scope="col">${header}</th>`)}</tr></thead>
        <tbody>
          ${rows.length === 0 ? html`<tr><td class="muted" colspan=${headers.length}>${empty}</td></tr>` : rows}
        </tbody>
      </table>
    </div>
  `;
}

/** Draws the pages' root component into the shell's `#app`, in place of its loading line. */
export function mount(vnode) {
  const root = document.getElementById('app');
  root.replaceChildren();
  render(vnode, root);
}
