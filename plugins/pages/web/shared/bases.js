// What the shell tells the pages: which base they are on, where each base listens, and the base's settings (all in
// `<meta name="workbench-...">` elements the server fills from its config and the ports it listens on).

const meta = (name) => document.querySelector(`meta[name="workbench-${name}"]`)?.getAttribute('content') ?? '';

/** The base these pages belong to: `monitor`, `bridge` or `population`. */
export const currentBase = meta('base');

/** Where a base listens (`http://127.0.0.1:5101`), or '' when the shell does not say. */
export function baseAddress(base) {
  return base === currentBase ? location.origin : meta(`address-${base}`);
}

/** A link to a page of another base (its address joined with a path), or the path itself on this base. */
export function baseLink(base, path = '/') {
  const address = baseAddress(base);
  return address ? new URL(path, address).href : path;
}

/** A setting of this base's pages, as text ('' when absent). */
export function setting(name) {
  return meta(name);
}

/** The bases and the names people know them by, for the navigation. */
export const BASE_TITLES = { monitor: 'Monitor', bridge: 'Bridge', population: 'Populations' };
