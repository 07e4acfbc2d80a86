/**
 * Describes NCPDP paths for humans and triage: SCRIPT element paths from the SCRIPT element descriptions,
 * Telecommunication `Header.<id>` and `AM<segment>.<field>` paths from the D.0 data dictionary.
 */
import type { FieldDescription } from '../../kernel/standards-registry.ts';
import { stripOccurrences } from './ncpdp-paths.ts';
import { CHECKED_TRANSACTIONS, SCRIPT_ELEMENTS, SCRIPT_MAX_LENGTHS, SCRIPT_VERSIONS, TRANSACTION_REQUIREMENTS, type ScriptVersion } from './script-definitions.ts';
import { REQUEST_HEADER, REQUIRED_FIELDS, RESPONSE_HEADER, TELECOM_FIELDS, TELECOM_SEGMENTS } from './telecom-d0-definitions.ts';

const FORMAT_NAMES = { N: 'numeric', A: 'alphanumeric', D: 'date CCYYMMDD', S: 'signed overpunch amount s9(n)v99', Q: 'quantity 9(7)v999' } as const;

function describeTelecom(path: string): FieldDescription | undefined {
  const header = /^Header\.([A-Z0-9]{2})$/.exec(path);
  if (header) {
    const def = [...REQUEST_HEADER, ...RESPONSE_HEADER].find((h) => h.id === header[1]);
    if (!def) return undefined;
    return { path, name: def.name, dataType: FORMAT_NAMES[def.format], maxLength: def.length, optionality: 'required', description: `${def.number}-${def.id}, fixed-width transaction header field.` };
  }
  const field = /^AM(\d\d)(?:\.([A-Z0-9]{2}))?$/.exec(path);
  if (!field) return undefined;
  const segment = TELECOM_SEGMENTS.get(field[1]);
  if (!segment) return undefined;
  if (!field[2]) return { path, name: `${segment.name} segment`, description: `111-AM ${segment.id}, ${segment.level}-level ${segment.direction} segment.` };
  const def = TELECOM_FIELDS.get(field[2]);
  if (!def || !segment.fields.includes(def.id)) return undefined;
  const requiredIn = Object.entries(REQUIRED_FIELDS)
    .filter(([, rules]) => rules[segment.id]?.includes(def.id))
    .map(([code]) => code);
  return {
    path,
    name: def.name,
    dataType: FORMAT_NAMES[def.format],
    maxLength: def.maxLength,
    optionality: requiredIn.length > 0 ? `required in ${requiredIn.join(', ')}` : 'situational',
    repeatable: segment.repeating.includes(def.id),
    ...(def.table ? { table: Object.entries(def.table).map(([k, v]) => `${k} ${v}`).join('; ') } : {}),
    description: `${def.number}-${def.id} in ${segment.name} (AM${segment.id}).`,
  };
}

function describeScript(path: string, version: ScriptVersion): FieldDescription | undefined {
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
  return {
    path,
    name: element.name,
    ...(element.dataType ? { dataType: element.dataType } : {}),
    ...(maxLength ? { maxLength } : {}),
    ...(rules.length > 0 ? { optionality: required ? 'required' : 'optional or not checked' } : {}),
    description: element.description,
  };
}

/** What a path means, or undefined when this plugin does not know it. */
export function describeNcpdpPath(path: string, version?: string): FieldDescription | undefined {
  const clean = stripOccurrences(path.trim());
  if (version === 'D0' || /^AM\d\d/.test(clean) || /^Header\.[A-Z0-9]{2}$/.test(clean)) {
    const telecom = describeTelecom(clean);
    if (telecom || version === 'D0') return telecom;
  }
  const scriptVersion = (SCRIPT_VERSIONS as readonly string[]).includes(version ?? '') ? (version as ScriptVersion) : '2017071';
  return describeScript(clean, scriptVersion);
}
