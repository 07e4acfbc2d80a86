/**
 * Extracts the reference facts of `plugins/hl7-standard/definitions/reference/hapi-hl7v2-facts.json` from a local
 * git copy of HAPI HL7v2 (github.com/hapifhir/hapi-hl7v2, MPL 1.1 / GPL). Only facts are kept, never code:
 * - per version and segment, the number of fields HAPI defines and the numbers of those that repeat (a field repeats
 *   when HAPI adds it with a maximum of repetitions other than 1; 0 and -1 both mean unbounded);
 * - per version, HAPI's event -> structure map (`?` in HAPI, no structure defined, is kept as null).
 * Each source folder or file is recorded with the last commit that changed it and the snapshot's commit.
 * The project reads only the committed JSON; HAPI is needed only to refresh it.
 *
 * Usage: node --import tsx scripts/hapi-hl7v2-facts.ts HAPI_GIT_DIR [OUT]
 *   HAPI_GIT_DIR: a clone (or bare git directory) of hapi-hl7v2; its HEAD is read, not its work tree.
 *   OUT defaults to plugins/hl7-standard/definitions/reference/hapi-hl7v2-facts.json.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../kernel/project-root.ts';

/** HL7 versions and HAPI's module suffix for each (2.7.1's classes are generated at HAPI's build, not in git). */
const VERSIONS: [string, string][] = [
  ['2.3', '23'],
  ['2.3.1', '231'],
  ['2.4', '24'],
  ['2.5', '25'],
  ['2.5.1', '251'],
  ['2.6', '26'],
  ['2.7', '27'],
  ['2.7.1', '271'],
  ['2.8', '28'],
];

/** A field added by a segment class: `this.add(TYPE.class, required, maxReps, length, ...)`. */
const FIELD = /this\.add\(\s*(\w+)\.class\s*,\s*(true|false)\s*,\s*(-?\d+)\s*,/g;

const [, , hapiArg, outArg] = process.argv;
if (!hapiArg) {
  console.error('usage: node --import tsx scripts/hapi-hl7v2-facts.ts HAPI_GIT_DIR [OUT]');
  process.exit(2);
}
const hapi = resolve(hapiArg);
const out = outArg ? resolve(outArg) : join(projectRoot, 'plugins/hl7-standard/definitions/reference/hapi-hl7v2-facts.json');
const git = (...args: string[]): string => execFileSync('git', ['-C', hapi, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
const lastCommit = (path: string): string => git('log', '-1', '--format=%H', 'HEAD', '--', path).trim();

const snapshot = git('rev-parse', 'HEAD').trim();
const all = git('ls-tree', '-r', '--name-only', 'HEAD').split('\n');
const files: { file: string; commit: string; gives: string }[] = [];
const repeating: Record<string, Record<string, { fields: number; repeating: number[] }>> = {};
const events: Record<string, Record<string, string | null>> = {};
const missing: string[] = [];

for (const [version, suffix] of VERSIONS) {
  const segmentDir = `hapi-structures-v${suffix}/src/main/java/ca/uhn/hl7v2/model/v${suffix}/segment/`;
  const segmentFiles = all.filter((f) => f.startsWith(segmentDir) && f.endsWith('.java'));
  if (segmentFiles.length > 0) {
    const segments: Record<string, { fields: number; repeating: number[] }> = {};
    for (const file of segmentFiles.sort()) {
      const name = file.slice(segmentDir.length, -'.java'.length);
      const fields = [...git('show', `HEAD:${file}`).matchAll(FIELD)];
      if (fields.length === 0) continue;
      segments[name] = { fields: fields.length, repeating: fields.flatMap((m, i) => (Number(m[3]) === 1 ? [] : [i + 1])) };
    }
    repeating[version] = segments;
    files.push({ file: segmentDir, commit: lastCommit(segmentDir), gives: `repeating.${version}` });
  } else missing.push(`${version} segments`);

  const mapFile = `hapi-structures-v${suffix}/src/main/resources/ca/uhn/hl7v2/parser/eventmap/${version}.properties`;
  if (all.includes(mapFile)) {
    const map: Record<string, string | null> = {};
    for (const line of git('show', `HEAD:${mapFile}`).split(/\r?\n/)) {
      const [event, structure] = line.trim().split(/\s+/);
      if (!event || event.startsWith('#') || !structure) continue;
      map[event] = structure === '?' ? null : structure;
    }
    events[version] = Object.fromEntries(Object.entries(map).sort(([a], [b]) => a.localeCompare(b)));
    files.push({ file: mapFile, commit: lastCommit(mapFile), gives: `events.${version}` });
  } else missing.push(`${version} event map`);
}

const facts = {
  provenance: {
    source: 'HAPI HL7v2 (University Health Network), repository hapifhir/hapi-hl7v2',
    version: `repository snapshot at commit ${snapshot}; each file or folder names the last commit that changed it`,
    snapshot,
    licence: 'MPL 1.1 or GPL (HAPI file headers). Only facts are kept here (which fields repeat, which structure an event uses); no HAPI code.',
    retrieved: new Date().toISOString().slice(0, 10),
    script: 'scripts/hapi-hl7v2-facts.ts',
    files,
    coverage:
      'repeating: per version and segment, the number of fields HAPI defines and those it adds with maxReps other than 1 (0 and -1 both mean unbounded). events: HAPI\'s event -> structure map, null where HAPI writes "?" (no structure).' +
      (missing.length ? ` Not in the repository: ${missing.join(', ')} (HAPI generates them at build time).` : ''),
  },
  repeating,
  events,
};

/** Compact JSON: one line per segment and per event map entry. */
function compact(value: unknown, indent = ''): string {
  if (Array.isArray(value) || value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value);
  const leaf = entries.every(([, v]) => v === null || typeof v !== 'object' || (!Array.isArray(v) && Object.values(v).every((x) => typeof x !== 'object' || Array.isArray(x))));
  const inner = `${indent}  `;
  if (leaf && entries.length > 0 && entries.every(([, v]) => typeof v === 'object' && v !== null && !Array.isArray(v)))
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n${indent}}`;
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compact(v, inner)}`).join(',\n')}\n${indent}}`;
}

writeFileSync(out, `${compact(facts)}\n`);
const segmentCount = Object.values(repeating).reduce((n, s) => n + Object.keys(s).length, 0);
console.log(`${out}: ${segmentCount} segments in ${Object.keys(repeating).length} versions, ${Object.keys(events).length} event maps; missing: ${missing.join(', ') || 'none'}`);
