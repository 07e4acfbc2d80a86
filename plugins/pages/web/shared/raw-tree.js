// A FHIR resource (JSON or XML) or an NCPDP SCRIPT message laid out as a tree: each element names itself on hover
// and focus (its path without indexes, such as Patient.name.family or NewRx.Patient.HumanPatient.Gender), and the
// elements a finding's path or located element points at are marked.
import { html } from '../vendor/preact-htm.js';
import { FieldRef } from './field-hover.js';

const unindexed = (path) => path.replace(/\[\d+\]/g, '');

/** The paths the findings point at, with and without indexes. */
function markedPaths(findings) {
  const paths = new Set();
  for (const finding of findings) {
    for (const path of [finding.position?.element, finding.path]) {
      if (path) {
        paths.add(path);
        paths.add(unindexed(path));
      }
    }
  }
  return paths;
}

/** A node of the tree: its name, its value (for a leaf), its paths (indexed, and for the lookup), its children. */
function Node({ node, standard, version, marks }) {
  const marked = marks.has(node.indexed) || marks.has(node.lookup);
  return html`<li>
    <${FieldRef} standard=${standard} version=${version} path=${node.lookup} marked=${marked}><span class="key">${node.name}</span><//>
    ${node.value !== undefined ? html`: <span class="value">${node.value}</span>` : null}
    ${node.children.length > 0 ? html`<ul>${node.children.map((child) => html`<${Node} node=${child} standard=${standard} version=${version} marks=${marks} />`)}</ul>` : null}
  </li>`;
}

/** The tree of a JSON value: a resource restarts the lookup path at its resourceType (inside a Bundle too). */
function jsonNode(name, value, indexed, lookup) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const restart = typeof value.resourceType === 'string' ? value.resourceType : null;
    const base = restart ?? lookup;
    const baseIndexed = restart ?? indexed;
    const children = [];
    for (const [key, child] of Object.entries(value)) {
      if (key === 'resourceType') continue;
      if (Array.isArray(child)) {
        child.forEach((item, index) => children.push(jsonNode(`${key}[${index}]`, item, `${baseIndexed}.${key}[${index}]`, `${base}.${key}`)));
      } else {
        children.push(jsonNode(key, child, `${baseIndexed}.${key}`, `${base}.${key}`));
      }
    }
    return { name: restart && name !== restart ? `${name} (${restart})` : name, indexed, lookup, children };
  }
  return { name, value: JSON.stringify(value), indexed, lookup, children: [] };
}

/** The tree of an XML element: values are FHIR's `value` attributes or the element's text. */
function xmlNode(element, indexed, lookup) {
  const children = [];
  const seen = new Map();
  for (const child of element.children) {
    const name = child.localName;
    const index = seen.get(name) ?? 0;
    seen.set(name, index + 1);
    children.push(xmlNode(child, `${indexed}.${name}[${index}]`, `${lookup}.${name}`));
  }
  const attributes = [...element.attributes].filter((a) => a.name !== 'xmlns' && !a.name.startsWith('xmlns:'));
  const text = element.children.length === 0 ? element.textContent.trim() : '';
  const valueAttribute = attributes.find((a) => a.name === 'value');
  const others = attributes.filter((a) => a !== valueAttribute).map((a) => `${a.name}="${a.value}"`);
  const value = [valueAttribute ? valueAttribute.value : text, ...others].filter(Boolean).join(' ');
  return { name: element.localName, value: value || undefined, indexed, lookup, children };
}

/** The root of an SCRIPT message's lookup paths: the transaction under Body (NewRx), else the element itself. */
function scriptRoots(root) {
  const nodes = [];
  for (const child of root.children) {
    if (child.localName === 'Body') {
      for (const transaction of child.children) nodes.push(xmlNode(transaction, transaction.localName, transaction.localName));
    } else {
      nodes.push(xmlNode(child, child.localName, child.localName));
    }
  }
  return nodes;
}

/** A JSON or XML message as a tree; null when its text does not parse (the caller shows the text instead). */
export function treeOf(raw, standard) {
  const text = raw.trim();
  if (text.startsWith('{')) {
    try {
      const value = JSON.parse(text);
      const type = typeof value.resourceType === 'string' ? value.resourceType : 'Resource';
      return [jsonNode(type, value, type, type)];
    } catch {
      return null;
    }
  }
  if (text.startsWith('<')) {
    const document = new DOMParser().parseFromString(text, 'application/xml');
    if (document.getElementsByTagName('parsererror').length > 0) return null;
    const root = document.documentElement;
    return standard === 'ncpdp' && root.localName === 'Message' ? scriptRoots(root) : [xmlNode(root, root.localName, root.localName)];
  }
  return null;
}

/** The raw text of a FHIR or SCRIPT message as a tree, or the text itself when it does not parse. */
export function TreeRaw({ raw, findings, standard, version }) {
  const roots = treeOf(raw, standard);
  if (!roots) return html`<pre class="raw" id="raw">${raw}</pre>`;
  const marks = markedPaths(findings);
  return html`<div class="raw tree" id="raw"><ul>${roots.map((node) => html`<${Node} node=${node} standard=${standard} version=${version} marks=${marks} />`)}</ul></div>`;
}
