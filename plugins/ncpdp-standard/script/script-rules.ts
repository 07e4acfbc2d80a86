/**
 * Validation rules of SCRIPT: namespace and version declaration, the Message/Header/Body envelope and Header
 * element order, one transaction per Body, the elements each checked transaction requires, and values (dates,
 * date-times, NPI and DEA check digits, NDC shape, quantities, code lists, lengths). Paths follow ncpdp-paths.ts.
 */
import type { ScriptDocument, ScriptElement } from '../ncpdp-model.ts';
import { rewritingSink } from '../../../kernel/standards/issue-list.ts';
import { IssueCollector } from '../ncpdp-issues.ts';
import { childPaths, walkScript } from '../ncpdp-paths.ts';
import { deaProblem, npiProblem } from '../../identifiers/api.ts';
import { isDecimal, isIsoDate, isIsoDateTime, isNdc11 } from '../value-formats.ts';
import {
  CHECKED_TRANSACTIONS,
  GENDER_CODES,
  HEADER_ORDER,
  HEADER_REQUIRED,
  OTHER_TRANSACTIONS,
  SCRIPT_CODE_LISTS,
  SCRIPT_MAX_LENGTHS,
  SCRIPT_NAMESPACE,
  SCRIPT_VERSIONS,
  TRANSACTION_REQUIREMENTS,
  VERSION_ATTRIBUTES,
  type ScriptVersion,
} from './script-definitions.ts';
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue, expectedCodes } from '../../../kernel/standards/issue-detail.ts';

/** `expected` and `actual` of a required SCRIPT element that is absent or empty. */
const ABSENT = { expected: 'the element, with a value', actual: 'missing' } as const;
const EMPTY = { expected: 'a value', actual: 'empty' } as const;

/** The default SCRIPT version a message without a usable declaration is validated against. */
export const DEFAULT_SCRIPT_VERSION: ScriptVersion = '2017071';

/** What a message declares about its version. */
export interface DeclaredScriptVersion {
  version?: ScriptVersion;
  /** The declared text when it names no supported version. */
  unknown?: string;
  /** Which attribute carried it. */
  source?: string;
}

const TRANSACTION_VERSION_PREFIXES: Record<string, ScriptVersion> = { '201707': '2017071', '202301': '2023011' };

/**
 * Reads the version a Message declares: `version` (10.6 spelled `010` with `release="006"`, or `10.6`;
 * `2017071`, `2023011`), else the TransactionVersion attribute (`20170715` -> 2017071).
 */
export function declaredScriptVersion(root: ScriptElement): DeclaredScriptVersion {
  const version = root.attributes.version?.trim();
  if (version !== undefined && version !== '') {
    const release = root.attributes.release?.trim();
    if (version === '10.6' || (version === '010' && release === '006') || (version === '10' && release === '6')) return { version: '10.6', source: 'version' };
    if ((SCRIPT_VERSIONS as readonly string[]).includes(version)) return { version: version as ScriptVersion, source: 'version' };
    return { unknown: release ? `${version} release ${release}` : version, source: 'version' };
  }
  const transactionVersion = root.attributes.TransactionVersion?.trim();
  if (transactionVersion) {
    const known = TRANSACTION_VERSION_PREFIXES[transactionVersion.slice(0, 6)];
    return known ? { version: known, source: 'TransactionVersion' } : { unknown: transactionVersion, source: 'TransactionVersion' };
  }
  return {};
}

/** Facts found while validating SCRIPT. */
export interface ScriptFindings {
  version: ScriptVersion;
  declaredVersion?: string;
  messageType?: string;
  messageId?: string;
}

function isEmptyElement(element: ScriptElement): boolean {
  if (element.children.length > 0 || element.text !== '') return false;
  for (const name in element.attributes) if (name !== '#prefix') return false;
  return true;
}

function validateVersion(root: ScriptElement, requested: ScriptVersion | undefined, issues: IssueCollector): { version: ScriptVersion; declared?: string } {
  const declared = declaredScriptVersion(root);
  const fallback = requested ?? DEFAULT_SCRIPT_VERSION;
  if (declared.version === undefined && declared.unknown === undefined) {
    issues.strictError(
      'Message@version',
      'VERSION_MISSING',
      `Message declares no SCRIPT version (none of version, ${VERSION_ATTRIBUTES.join(', ')}); it was validated as ${fallback}.`,
    );
  }
  // An unsupported declared version is reported once by validateScript, which checks such a message best-effort.
  const version = requested ?? declared.version ?? DEFAULT_SCRIPT_VERSION;
  const declaresSomething = declared.version !== undefined || declared.unknown !== undefined;
  // With no declaration at all, VERSION_MISSING already says so; listing six absent attributes would repeat it.
  if (version !== '10.6' && declaresSomething) {
    for (const attribute of VERSION_ATTRIBUTES) {
      const value = root.attributes[attribute];
      if (value === undefined || value.trim() === '') {
        issues.strictError(
          `Message@${attribute}`,
          'REQUIRED_FIELD_MISSING',
          `Message attribute ${attribute} is required from SCRIPT 2017071 on (one of the six version attributes) but is missing.`,
        );
      } else if (value !== value.trim()) {
        issues.error(`Message@${attribute}`, 'INVALID_DATA_TYPE', `Message attribute ${attribute} "${excerpt(value)}" has surrounding spaces.`);
      }
    }
    const domain = root.attributes.TransactionDomain?.trim();
    if (domain && domain !== 'SCRIPT') {
      issues.error('Message@TransactionDomain', 'VALUE_NOT_IN_TABLE', `Message attribute TransactionDomain is "${excerpt(domain)}"; SCRIPT messages carry "SCRIPT".`);
    }
  }
  return { version, declared: declared.version ?? declared.unknown };
}

/** Checks that children follow an order; reports each element that comes after one it should precede. */
function checkOrder(parentPath: string, children: readonly ScriptElement[], order: readonly string[], issues: IssueCollector): void {
  let furthest = -1;
  let furthestName = '';
  const paths = childPaths(parentPath, children);
  const names = new Set(children.map((c) => c.name));
  const expected = order.filter((n) => names.has(n)).join(', ');
  children.forEach((child, index) => {
    const position = order.indexOf(child.name);
    if (position === -1) return;
    if (position < furthest) {
      issues.error(
        paths[index],
        'SEGMENT_OUT_OF_ORDER',
        `${paths[index]} appears after ${parentPath}.${furthestName}, but ${child.name} must come before ${furthestName} (order: ${expected}).`,
      );
    } else {
      furthest = position;
      furthestName = child.name;
    }
  });
}

function validateHeader(header: ScriptElement, version: ScriptVersion, issues: IssueCollector): void {
  const known = HEADER_ORDER as readonly string[];
  const paths = childPaths('Header', header.children);
  const counts = new Map<string, number>();
  header.children.forEach((child, index) => {
    counts.set(child.name, (counts.get(child.name) ?? 0) + 1);
    if (!known.includes(child.name)) {
      issues.strictError(paths[index], 'UNKNOWN_ELEMENT', `${paths[index]} is not a SCRIPT Header element.`);
    } else if (counts.get(child.name) === 2) {
      issues.error(paths[index], 'TOO_MANY_REPETITIONS', `Header.${child.name} may occur only once.`);
    }
  });
  checkOrder('Header', header.children, HEADER_ORDER, issues);
  for (const name of HEADER_REQUIRED[version]) {
    const element = header.children.find((c) => c.name === name);
    if (!element) {
      issues.error(`Header.${name}`, 'REQUIRED_FIELD_MISSING', `Header.${name} is required in SCRIPT ${version} but is missing.`, ABSENT);
    } else if (isEmptyElement(element)) {
      issues.error(`Header.${name}`, 'REQUIRED_FIELD_MISSING', `Header.${name} is required in SCRIPT ${version} but is empty.`, EMPTY);
    }
  }
}

/** Elements reached by a dotted path of names below `from` (every match, in document order). */
function resolve(from: ScriptElement, steps: readonly string[]): ScriptElement[] {
  let current = [from];
  for (const step of steps) {
    const next: ScriptElement[] = [];
    for (const element of current) for (const child of element.children) if (child.name === step) next.push(child);
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

/** A requirement rule compiled once: parent steps below the transaction and the accepted child names. */
interface CompiledRequirement {
  steps: string[];
  alternatives: string[];
  parentPath: string;
}

const compiledRequirements = new Map<string, CompiledRequirement[]>();

/** Rules of a transaction in a version, split once and kept (the tables are constant). */
function requirementsOf(transaction: string, version: ScriptVersion): CompiledRequirement[] {
  const key = `${version}/${transaction}`;
  let compiled = compiledRequirements.get(key);
  if (!compiled) {
    compiled = TRANSACTION_REQUIREMENTS[version][transaction as (typeof CHECKED_TRANSACTIONS)[number]].map((rule) => {
      const steps = rule.split('.');
      const alternatives = (steps.pop() as string).split('|');
      return { steps, alternatives, parentPath: [transaction, ...steps].join('.') };
    });
    compiledRequirements.set(key, compiled);
  }
  return compiled;
}

function validateRequirements(transaction: ScriptElement, version: ScriptVersion, issues: IssueCollector): void {
  for (const { steps, alternatives, parentPath } of requirementsOf(transaction.name, version)) {
    const parents = steps.length === 0 ? [transaction] : resolve(transaction, steps);
    for (const parent of parents) {
      // An empty parent was already reported (or is an optional empty block): do not cascade into its children.
      if (steps.length > 0 && isEmptyElement(parent)) continue;
      let child: ScriptElement | undefined;
      for (const c of parent.children) {
        if (alternatives.includes(c.name)) {
          child = c;
          break;
        }
      }
      if (!child) {
        const path = `${parentPath}.${alternatives[0]}`;
        const what = alternatives.length > 1 ? `One of ${alternatives.map((a) => `${parentPath}.${a}`).join(', ')}` : path;
        issues.error(path, 'REQUIRED_FIELD_MISSING', `${what} is required in ${transaction.name} (SCRIPT ${version}) but is missing.`, ABSENT);
      } else if (isEmptyElement(child)) {
        issues.error(`${parentPath}.${child.name}`, 'REQUIRED_FIELD_MISSING', `${parentPath}.${child.name} is required in ${transaction.name} (SCRIPT ${version}) but is empty.`, EMPTY);
      }
    }
  }
}

/** NDC checks for a ProductCode in its three spellings (2017071 children, qualifier attribute, 10.6 sibling). */
function checkProductCode(element: ScriptElement, path: string, parent: ScriptElement | undefined, issues: IssueCollector): void {
  const codeChild = element.children.find((c) => c.name === 'Code');
  const qualifier =
    element.children.find((c) => c.name === 'Qualifier')?.text ??
    element.attributes.Qualifier ??
    parent?.children.find((c) => c.name === 'ProductCodeQualifier')?.text;
  const code = codeChild ? codeChild.text : element.text;
  const codePath = codeChild ? `${path}.Code` : path;
  if (qualifier?.trim() !== 'ND') return;
  if (code === '') {
    issues.error(codePath, 'REQUIRED_FIELD_MISSING', `${codePath} is qualified as an NDC (ND) but is empty.`, { expected: 'an 11-digit NDC', actual: 'empty' });
  } else if (!isNdc11(code)) {
    const hint = /^[\d-]+$/.test(code) && code.includes('-') ? ' (write the 5-4-2 form without hyphens, padding the short part with a leading zero)' : '';
    issues.error(codePath, 'INVALID_DATA_TYPE', `${codePath} is qualified as an NDC (ND) and must be 11 digits without hyphens, but is "${excerpt(code)}"${hint}.`);
  }
}

/** Element names {@link checkValue} looks at; others are skipped at once. */
const VALUE_CHECKED = new Set([
  'ProductCode', 'Date', 'DateTime', 'SentTime', 'NPI', 'DEANumber', 'Value', 'DaysSupply', 'NumberOfRefills', 'Gender', 'PotencyUnitCode', 'Code',
  ...Object.values(SCRIPT_MAX_LENGTHS).flatMap((lengths) => Object.keys(lengths)),
  ...Object.keys(SCRIPT_CODE_LISTS).map((key) => key.split('.')[1]),
]);

function checkValue(element: ScriptElement, path: string, parent: ScriptElement | undefined, version: ScriptVersion, issues: IssueCollector): void {
  const name = element.name;
  if (!VALUE_CHECKED.has(name)) return;
  if (name === 'ProductCode') {
    checkProductCode(element, path, parent, issues);
    return;
  }
  if (element.children.length > 0) return;
  const value = element.text;
  const maxLength = SCRIPT_MAX_LENGTHS[version][name];
  if (maxLength !== undefined && value.length > maxLength) {
    issues.strictError(path, 'FIELD_TOO_LONG', `${path} is ${value.length} characters long; SCRIPT ${version} allows ${maxLength}.`, {
      expected: `at most ${maxLength} characters`,
      actual: `${value.length} characters`,
    });
  }
  if (value === '') return;
  const parentName = parent?.name ?? '';
  if (name === 'Date' && !isIsoDate(value)) {
    issues.error(path, 'INVALID_DATE', `${path} must be a real date written CCYY-MM-DD, but is "${excerpt(value)}".`, { expected: 'a real date, CCYY-MM-DD', actual: actualValue(value) });
  } else if ((name === 'DateTime' || name === 'SentTime') && !isIsoDateTime(value)) {
    issues.error(path, 'INVALID_DATE', `${path} must be a date-time written CCYY-MM-DDThh:mm:ss (optional fraction and zone), but is "${excerpt(value)}".`);
  } else if (name === 'NPI') {
    const problem = npiProblem(value);
    if (problem === 'format') issues.error(path, 'INVALID_DATA_TYPE', `${path} must be a 10-digit NPI, but is "${excerpt(value)}".`);
    if (problem === 'check-digit') issues.error(path, 'INVALID_CHECK_DIGIT', `${path} "${excerpt(value)}" is not a valid NPI: its check digit (Luhn over 80840 and the first nine digits) does not match.`);
  } else if (name === 'DEANumber') {
    const problem = deaProblem(value);
    if (problem === 'format') issues.error(path, 'INVALID_DATA_TYPE', `${path} must be a DEA number (two letters and seven digits), but is "${excerpt(value)}".`);
    if (problem === 'check-digit') issues.error(path, 'INVALID_CHECK_DIGIT', `${path} "${excerpt(value)}" is not a valid DEA number: its check digit does not match.`);
  } else if (name === 'Value' && parentName === 'Quantity' && !isDecimal(value, 11, 5)) {
    issues.error(path, 'INVALID_DATA_TYPE', `${path} must be a decimal quantity (at most 11 digits, 5 after the point), but is "${excerpt(value)}".`);
  } else if (name === 'DaysSupply' && !(/^\d{1,3}$/.test(value) && Number(value) > 0)) {
    issues.error(path, 'INVALID_DATA_TYPE', `${path} must be a whole number of days from 1 to 999, but is "${excerpt(value)}".`);
  } else if (name === 'NumberOfRefills' && !/^\d{1,2}$/.test(value)) {
    issues.error(path, 'INVALID_DATA_TYPE', `${path} must be a whole number from 0 to 99, but is "${excerpt(value)}".`);
  } else if (name === 'Gender' && (parentName === 'HumanPatient' || parentName === 'Patient') && !(value in GENDER_CODES[version])) {
    issues.error(path, 'VALUE_NOT_IN_TABLE', `${path} "${excerpt(value)}" is not a SCRIPT ${version} gender code (${Object.keys(GENDER_CODES[version]).join(', ')}).`, {
      expected: expectedCodes(Object.keys(GENDER_CODES[version])),
      actual: actualValue(value),
    });
  } else if ((name === 'PotencyUnitCode' || (name === 'Code' && parentName === 'QuantityUnitOfMeasure')) && !/^C\d{3,6}$/.test(value)) {
    issues.error(path, 'VALUE_NOT_IN_TABLE', `${path} "${excerpt(value)}" is not an NCI unit-of-measure code (C followed by digits, e.g. C48542 for tablet).`);
  } else if (name === 'Code' && parentName === 'Status' && !/^\d{3}$/.test(value)) {
    issues.error(path, 'INVALID_DATA_TYPE', `${path} must be a three-digit status code, but is "${excerpt(value)}".`);
  } else {
    const list = SCRIPT_CODE_LISTS[`${parentName}.${name}`];
    if (list && !(value in list.codes)) {
      issues.error(path, 'VALUE_NOT_IN_TABLE', `${path} "${excerpt(value)}" is not in the ${list.name} code list (${Object.keys(list.codes).join(', ')}).`);
    }
  }
}

function validateBody(body: ScriptElement, version: ScriptVersion, issues: IssueCollector): string | undefined {
  if (body.children.length === 0) {
    issues.error('Body', 'SEGMENT_MISSING', 'Body must hold exactly one transaction (NewRx, Status, ...) but is empty.');
    return undefined;
  }
  const paths = childPaths('Body', body.children);
  body.children.slice(1).forEach((extra, i) => {
    issues.error(paths[i + 1], 'SEGMENT_UNEXPECTED', `Body holds ${extra.name} after ${body.children[0].name}; a SCRIPT Body holds exactly one transaction.`);
  });
  const transaction = body.children[0];
  if ((CHECKED_TRANSACTIONS as readonly string[]).includes(transaction.name)) {
    validateRequirements(transaction, version, issues);
  } else if (!(OTHER_TRANSACTIONS as readonly string[]).includes(transaction.name)) {
    issues.error(transaction.name, 'UNKNOWN_MESSAGE_TYPE', `${transaction.name} is not a SCRIPT transaction.`);
  }
  return transaction.name;
}

/**
 * The supported version a declared but unsupported one is close to, for a best-effort check: another 10.x release
 * is close to 10.6; a dated version (`2021071`: year, month, release) to the nearest supported dated version at
 * most three years away. Anything else (`5.0`, `8.1`, text) is close to nothing.
 */
export function closestScriptVersion(declared: string): ScriptVersion | undefined {
  if (/^10(\.\d+)?$|^010( release \d+)?$|^10 release \d+$/.test(declared)) return '10.6';
  const dated = /^(\d{4})(\d{2})\d$/.exec(declared);
  if (!dated) return undefined;
  const months = Number(dated[1]) * 12 + Number(dated[2]);
  let best: ScriptVersion | undefined;
  let bestDistance = 36;
  for (const candidate of SCRIPT_VERSIONS) {
    const parts = /^(\d{4})(\d{2})\d$/.exec(candidate);
    if (!parts) continue;
    const distance = Math.abs(Number(parts[1]) * 12 + Number(parts[2]) - months);
    if (distance <= bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Findings of a SCRIPT validation, the best-effort check of an unsupported version included. */
export interface ScriptValidation extends Omit<ScriptFindings, 'version'> {
  /** Version the content was checked against; absent when the declared version is close to none supported. */
  version?: ScriptVersion;
  /** Set when the message declares an unsupported version and was checked against this close supported one. */
  bestEffortAgainst?: ScriptVersion;
}

/**
 * Validates a parsed SCRIPT document into the collector and returns what it found. A message declaring a
 * version this plugin does not claim gets one UNSUPPORTED_VERSION error; when the version is close to a supported
 * one, the message is also checked against that one, every finding of that check a warning whose sentence says
 * it is best-effort, since the structure was not written for the declared version.
 */
export function validateScript(document: ScriptDocument, requested: ScriptVersion | undefined, issues: IssueCollector): ScriptValidation {
  const root = document.root;
  const declared = root.name === 'Message' ? declaredScriptVersion(root) : undefined;
  if (declared?.unknown === undefined) return validateScriptAs(document, requested, issues);
  if (requested !== undefined) {
    issues.error(
      `Message@${declared.source}`,
      'UNSUPPORTED_VERSION',
      `Message declares SCRIPT version "${excerpt(declared.unknown)}", which is not one of ${SCRIPT_VERSIONS.join(', ')}; it was validated as ${requested}, as asked.`,
    );
    return validateScriptAs(document, requested, issues);
  }
  const closest = closestScriptVersion(declared.unknown);
  issues.error(
    `Message@${declared.source}`,
    'UNSUPPORTED_VERSION',
    closest
      ? `Message declares SCRIPT version "${excerpt(declared.unknown)}", which is not one of ${SCRIPT_VERSIONS.join(', ')}; it was checked best-effort against the closest supported version, ${closest}, whose findings follow as warnings.`
      : `Message declares SCRIPT version "${excerpt(declared.unknown)}", which is not one of ${SCRIPT_VERSIONS.join(', ')} nor close to one; its content was not checked.`,
  );
  if (!closest) return { declaredVersion: excerpt(declared.unknown) };
  // The trial's findings arrive as warnings saying what they are, counted and bounded with the rest.
  const trial = new IssueCollector(
    issues.mode,
    rewritingSink(issues.sink, (issue) => ({
      ...issue,
      severity: 'warning',
      message: `Best-effort check against SCRIPT ${closest} (the message declares ${excerpt(declared.unknown ?? '')}): ${issue.message}`,
    })),
  );
  const findings = validateScriptAs(document, closest, trial);
  return { ...findings, declaredVersion: excerpt(declared.unknown), bestEffortAgainst: closest };
}

function validateScriptAs(document: ScriptDocument, requested: ScriptVersion | undefined, issues: IssueCollector): ScriptFindings {
  const root = document.root;
  if (root.name !== 'Message') {
    issues.error(root.name, 'UNKNOWN_MESSAGE_TYPE', `The root element is ${root.name}; a SCRIPT message has the root element Message.`);
    return { version: requested ?? DEFAULT_SCRIPT_VERSION };
  }
  if (document.namespace === undefined) {
    issues.strictError('Message@xmlns', 'NAMESPACE_MISSING', `Message is not in the SCRIPT namespace ${SCRIPT_NAMESPACE}; schema-validating receivers reject it.`);
  } else if (document.namespace !== SCRIPT_NAMESPACE) {
    issues.error('Message@xmlns', 'NAMESPACE_INVALID', `Message is in namespace "${excerpt(document.namespace)}", not the SCRIPT namespace ${SCRIPT_NAMESPACE}.`);
  }
  const { version, declared } = validateVersion(root, requested, issues);
  const findings: ScriptFindings = { version, ...(declared ? { declaredVersion: excerpt(declared) } : {}) };
  const rootPaths = childPaths('', root.children);
  root.children.forEach((child, index) => {
    if (child.name !== 'Header' && child.name !== 'Body') {
      issues.strictError(rootPaths[index], 'UNKNOWN_ELEMENT', `${child.name} is not allowed in Message, which holds Header then Body.`);
    } else if (rootPaths[index] !== child.name) {
      issues.error(rootPaths[index], 'TOO_MANY_REPETITIONS', `Message holds more than one ${child.name}.`);
    }
  });
  checkOrder('Message', root.children, ['Header', 'Body'], issues);
  const header = root.children.find((c) => c.name === 'Header');
  const body = root.children.find((c) => c.name === 'Body');
  if (header) {
    validateHeader(header, version, issues);
    const messageId = header.children.find((c) => c.name === 'MessageID')?.text;
    if (messageId) findings.messageId = excerpt(messageId);
  } else {
    issues.error('Header', 'SEGMENT_MISSING', 'Message must start with a Header but has none.');
  }
  if (body) {
    const type = validateBody(body, version, issues);
    if (type) findings.messageType = type;
  } else {
    issues.error('Body', 'SEGMENT_MISSING', 'Message must hold a Body with one transaction but has none.');
  }
  walkScript(root, (element, path, parent) => {
    if (element !== root && element !== header && element !== body) checkValue(element, path, parent, version, issues);
  });
  return findings;
}
