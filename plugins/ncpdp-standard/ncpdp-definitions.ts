/**
 * Describes NCPDP paths for humans and triage: SCRIPT element paths from the SCRIPT element descriptions,
 * Telecommunication `Header.<id>` and `AM<segment>.<field>` paths from the D.0 data dictionary. With `detail`, also
 * the code list a field or element draws from (bounded) and what the path holds (a segment's fields, the elements
 * the transaction's rules name below an element).
 */
import type { DescribeOptions, FieldChild, FieldCode, FieldDescription } from '../../kernel/standards-registry.ts';
import { stripOccurrences } from './ncpdp-paths.ts';
import {
  CHECKED_TRANSACTIONS,
  GENDER_CODES,
  HEADER_ORDER,
  HEADER_REQUIRED,
  SCRIPT_CODE_LISTS,
  SCRIPT_ELEMENTS,
  SCRIPT_MAX_LENGTHS,
  SCRIPT_VERSIONS,
  TRANSACTION_REQUIREMENTS,
  type ScriptVersion,
} from './script/script-definitions.ts';
import { REQUEST_HEADER, REQUIRED_FIELDS, RESPONSE_HEADER, TELECOM_FIELDS, TELECOM_SEGMENTS } from './telecom/telecom-d0-definitions.ts';

const FORMAT_NAMES = { N: 'numeric', A: 'alphanumeric', D: 'date CCYYMMDD', S: 'signed overpunch amount s9(n)v99', Q: 'quantity 9(7)v999' } as const;

type Detail = DescribeOptions['detail'];

/** A code list as the lookup shows it: at most `maxCodes` codes and the total. */
function codeListDetail(codes: Record<string, string> | undefined, name: string | undefined, detail: Detail): Partial<FieldDescription> {
  if (!detail || !codes) return {};
  const all: FieldCode[] = Object.entries(codes).map(([code, display]) => ({ code, display }));
  return { ...(name ? { tableName: name } : {}), codes: all.slice(0, detail.maxCodes), codeTotal: all.length };
}

function describeTelecom(path: string, detail: Detail): FieldDescription | undefined {
  const header = /^Header\.([A-Z0-9]{2})$/.exec(path);
  if (header) {
    const def = [...REQUEST_HEADER, ...RESPONSE_HEADER].find((h) => h.id === header[1]);
    if (!def) return undefined;
    const base: FieldDescription = { path, name: def.name, dataType: FORMAT_NAMES[def.format], maxLength: def.length, optionality: 'required', description: `${def.number}-${def.id}, fixed-width transaction header field.` };
    return detail ? { ...base, cardinality: '1..1', children: [] } : base;
  }
  const field = /^AM(\d\d)(?:\.([A-Z0-9]{2}))?$/.exec(path);
  if (!field) return undefined;
  const segment = TELECOM_SEGMENTS.get(field[1]);
  if (!segment) return undefined;
  if (!field[2]) {
    const base: FieldDescription = { path, name: `${segment.name} segment`, description: `111-AM ${segment.id}, ${segment.level}-level ${segment.direction} segment.` };
    if (!detail) return base;
    const children: FieldChild[] = segment.fields.flatMap((id) => {
      const def = TELECOM_FIELDS.get(id);
      return def ? [{ path: `AM${segment.id}.${id}`, name: def.name, dataType: FORMAT_NAMES[def.format] }] : [];
    });
    return { ...base, children };
  }
  const def = TELECOM_FIELDS.get(field[2]);
  if (!def || !segment.fields.includes(def.id)) return undefined;
  const requiredIn = Object.entries(REQUIRED_FIELDS)
    .filter(([, rules]) => rules[segment.id]?.includes(def.id))
    .map(([code]) => code);
  const repeatable = segment.repeating.includes(def.id);
  const base: FieldDescription = {
    path,
    name: def.name,
    dataType: FORMAT_NAMES[def.format],
    maxLength: def.maxLength,
    optionality: requiredIn.length > 0 ? `required in ${requiredIn.join(', ')}` : 'situational',
    repeatable,
    ...(def.table ? { table: Object.entries(def.table).map(([k, v]) => `${k} ${v}`).join('; ') } : {}),
    description: `${def.number}-${def.id} in ${segment.name} (AM${segment.id}).`,
  };
  if (!detail) return base;
  return { ...base, cardinality: repeatable ? '0..*' : '0..1', ...codeListDetail(def.table, `${def.number}-${def.id} ${def.name}`, detail), children: [] };
}

/** The elements the rules of a transaction name right below `below` (a path under the transaction, '' for itself). */
function scriptChildren(path: string, steps: string[], version: ScriptVersion): FieldChild[] {
  const transaction = steps[0] as (typeof CHECKED_TRANSACTIONS)[number];
  const below = steps.slice(1);
  let names: Array<{ name: string; required: boolean }> = [];
  if (steps.length === 1 && steps[0] === 'Header') {
    names = HEADER_ORDER.map((name) => ({ name, required: HEADER_REQUIRED[version].includes(name) }));
  } else if ((CHECKED_TRANSACTIONS as readonly string[]).includes(transaction)) {
    const seen = new Map<string, boolean>();
    for (const rule of TRANSACTION_REQUIREMENTS[version][transaction]) {
      const ruleSteps = rule.split('.');
      if (ruleSteps.length <= below.length || below.some((step, i) => ruleSteps[i] !== step)) continue;
      const next = ruleSteps[below.length] as string;
      const isLast = ruleSteps.length === below.length + 1;
      for (const alternative of next.split('|')) {
        // Required when the rule names it alone; one of several alternatives is not required by itself.
        const required = isLast && !next.includes('|');
        seen.set(alternative, (seen.get(alternative) ?? false) || required);
      }
    }
    names = [...seen].map(([name, required]) => ({ name, required }));
  }
  return names.map(({ name, required }) => {
    const element = SCRIPT_ELEMENTS[name];
    return {
      path: `${path}.${name}`,
      name: element?.name ?? name,
      ...(element?.dataType ? { dataType: element.dataType } : {}),
      optionality: required ? 'required' : 'optional or not checked',
    };
  });
}

function describeScript(path: string, version: ScriptVersion, detail: Detail): FieldDescription | undefined {
  const steps = path.split(/[.@]/);
  const last = steps[steps.length - 1];
  const element = SCRIPT_ELEMENTS[last];
  if (!element) return undefined;
  const transaction = steps[0] as (typeof CHECKED_TRANSACTIONS)[number];
  const rules = (CHECKED_TRANSACTIONS as readonly string[]).includes(transaction) ? TRANSACTION_REQUIREMENTS[version][transaction] : [];
  const below = steps.slice(1).join('.');
  const required = rules.some((rule) => {
    const ruleSteps = rule.split('.');
    const alternatives = (ruleSteps.pop() as string).split('|');
    return alternatives.some((alt) => [...ruleSteps, alt].join('.') === below);
  });
  const maxLength = SCRIPT_MAX_LENGTHS[version][last];
  const base: FieldDescription = {
    path,
    name: element.name,
    ...(element.dataType ? { dataType: element.dataType } : {}),
    ...(maxLength ? { maxLength } : {}),
    ...(rules.length > 0 ? { optionality: required ? 'required' : 'optional or not checked' } : {}),
    description: element.description,
  };
  if (!detail) return base;
  const parent = steps[steps.length - 2];
  const codeList = parent === undefined ? undefined : SCRIPT_CODE_LISTS[`${parent}.${last}`];
  const codes = last === 'Gender' ? { name: `Gender (SCRIPT ${version})`, codes: GENDER_CODES[version] } : codeList;
  return { ...base, ...codeListDetail(codes?.codes, codes?.name, detail), children: scriptChildren(path, steps, version) };
}

/** A Telecommunication path (`Header.A3`, `AM07`, `AM07.D2`) or a SCRIPT element path (`NewRx.Patient.HumanPatient.Gender`). */
const NCPDP_PATH = /^(?:Header\.[A-Z0-9]{2}|AM\d\d(?:\.[A-Z0-9]{2})?|[A-Za-z][A-Za-z0-9]*(?:\[\d+\])?(?:[.@][A-Za-z][A-Za-z0-9]*(?:\[\d+\])?)*)$/;

/** Why a text is not an NCPDP path, or undefined when it is one. */
export function ncpdpPathProblem(path: string): string | undefined {
  if (NCPDP_PATH.test(path.trim())) return undefined;
  return `"${path}" is not an NCPDP path: write a Telecommunication field (AM07.D2, Header.A3) or a SCRIPT element path (NewRx.Patient.HumanPatient.Gender)`;
}

/** What a path means, or undefined when this plugin does not know it. */
export function describeNcpdpPath(path: string, version?: string, options: Pick<DescribeOptions, 'detail'> = {}): FieldDescription | undefined {
  const clean = stripOccurrences(path.trim());
  if (version === 'D0' || /^AM\d\d/.test(clean) || /^Header\.[A-Z0-9]{2}$/.test(clean)) {
    const telecom = describeTelecom(clean, options.detail);
    if (telecom || version === 'D0') return telecom;
  }
  const scriptVersion = (SCRIPT_VERSIONS as readonly string[]).includes(version ?? '') ? (version as ScriptVersion) : '2017071';
  return describeScript(clean, scriptVersion, options.detail);
}
