/**
 * The travel pass of FHIR JSON: after the engine replaced the values it knows, every other occurrence of them in the
 * resource or Bundle (any string: free text, coded text, identifiers, URLs; and element names an attacker could have
 * made of them) gets the same pseudonym. Element names are read as words (`JaneRoe`, `MRN88877766` ->
 * `Jane Roe`, `MRN 88877766`) and a renamed element keeps only letters and digits, so it stays a name; its path is
 * listed in the report's `redacted`.
 */
import type { ReportBuilder } from '../deidentify-report.ts';
import { type NeedleSet, replaceNeedles } from '../replacement/needles.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Splits a name into words at case and digit changes. */
function nameWords(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Za-z])(\d)/g, '$1 $2').replace(/(\d)([A-Za-z])/g, '$1 $2');
}

/** Rewrites `node` in place (strings, and element names unless `renameKeys` is false) and returns it. */
export function travelJson(node: Json, needles: NeedleSet<string>, report: ReportBuilder, path = '', renameKeys = true): Json {
  if (needles.size === 0) return node;
  if (typeof node === 'string') return replaceNeedles(node, needles, undefined, () => report.add(path || 'value', 'otherIdentifier'));
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) node[index] = travelJson(node[index]!, needles, report, path, renameKeys);
    return node;
  }
  if (node === null || typeof node !== 'object') return node;
  const base = typeof node.resourceType === 'string' ? (path ? `${path}.${node.resourceType}` : node.resourceType) : path;
  const entries = Object.entries(node);
  let renamed = false;
  const rebuilt: Array<[string, Json]> = [];
  for (const [name, value] of entries) {
    const words = nameWords(name);
    let key = name;
    const replaced = renameKeys ? replaceNeedles(words, needles) : words;
    if (replaced !== words) {
      key = replaced.replace(/[^\p{L}\p{N}_]/gu, '') || 'redacted';
      renamed = true;
      report.redact(`${base}.${key}`);
    }
    rebuilt.push([key, name === 'div' ? value : travelJson(value, needles, report, `${base}.${key}`, renameKeys)]);
  }
  if (renamed) {
    for (const name of Object.keys(node)) delete node[name];
    for (const [key, value] of rebuilt) node[key] = value;
  } else for (const [key, value] of rebuilt) node[key] = value;
  return node;
}
