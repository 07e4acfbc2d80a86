/**
 * The no-PHI attestation of a population: every patient is checked as it is written, and each check reports how
 * many records it saw, how many failed and (bounded) which ones and why.
 *
 * - identifiers are in reserved or fictional ranges: phone 555-0100..0199 (NANPA fiction block), e-mail domains
 *   reserved by RFC 2606, SSNs in an area the SSA never issues (000, 666, 900-999), MRNs with the synthetic prefix;
 * - names and addresses come from the generator's lists;
 * - no patient matches a person of a learned sample on name + birth date + ZIP, compared through the salted hashes
 *   kept at learn time (so no real value is stored or needed).
 */
import { isGeneratorAddress, isGeneratorName, SYNTHETIC_MRN_PREFIX } from '../../synthetic-data/api.ts';
import { identityHash } from '../database/identity-hash.ts';
import type { PatientRecord } from './patient-record.ts';

/** Salted identity hashes of one learned sample. */
export interface LearnedIdentities {
  profile: string;
  salt: string;
  hashes: ReadonlySet<string>;
}

/** One check's outcome. */
export interface ComplianceCheck {
  name: string;
  description: string;
  passed: boolean;
  checked: number;
  failed: number;
  /** Up to 20 failing records. */
  failures: Array<{ patientId: number; mrn: string; reason: string }>;
}

const MAX_FAILURES = 20;
const RESERVED_DOMAIN = /@(?:[a-z0-9-]+\.)*(?:example\.(?:com|net|org)|[a-z0-9-]+\.(?:test|example|invalid|localhost))$/i;
const FICTION_PHONE = /^\(\d{3}\) 555-01\d{2}$/;

/** True when the SSN's area number is one the SSA never issues. */
export function isNeverIssuedSsn(ssn: string): boolean {
  const match = /^(\d{3})-(\d{2})-(\d{4})$/.exec(ssn);
  if (!match) return false;
  const area = Number(match[1]);
  return area === 0 || area === 666 || area >= 900;
}

interface CheckDefinition {
  name: string;
  description: string;
  problem(patient: PatientRecord): string | undefined;
}

/** Accumulates the checks over a population. */
export class ComplianceAccumulator {
  private readonly definitions: CheckDefinition[];
  private readonly results: ComplianceCheck[];

  constructor(learned: readonly LearnedIdentities[]) {
    this.definitions = [
      {
        name: 'phone-fictional-range',
        description: 'Telephone numbers are in the 555-0100..0199 block reserved for fiction.',
        problem: (p) => (FICTION_PHONE.test(p.person.phone) ? undefined : `phone ${p.person.phone} is outside 555-0100..0199`),
      },
      {
        name: 'email-reserved-domain',
        description: 'E-mail addresses use domains reserved by RFC 2606 (example.com/.net/.org, .test, .example, .invalid).',
        problem: (p) => (RESERVED_DOMAIN.test(p.person.email) ? undefined : `e-mail domain of ${p.person.email.replace(/^[^@]*/, '…')} is not reserved`),
      },
      {
        name: 'ssn-never-issued',
        description: 'SSNs are in an area number the SSA never issues (000, 666, 900-999).',
        problem: (p) => (isNeverIssuedSsn(p.person.ssn) ? undefined : 'SSN area number is one the SSA issues'),
      },
      {
        name: 'mrn-synthetic-prefix',
        description: `Medical record numbers carry the synthetic prefix ${SYNTHETIC_MRN_PREFIX}.`,
        problem: (p) => (p.person.mrn.startsWith(SYNTHETIC_MRN_PREFIX) ? undefined : `MRN lacks the ${SYNTHETIC_MRN_PREFIX} prefix`),
      },
      {
        name: 'names-from-generator-lists',
        description: "Given and family names come from the generator's name lists.",
        problem: (p) => (isGeneratorName(p.person.givenName, p.person.familyName) ? undefined : 'name is not from the generator lists'),
      },
      {
        name: 'addresses-from-generator-lists',
        description: "Street, city, state and ZIP come from the generator's street and place lists.",
        problem: (p) => {
          const a = p.person.address;
          return isGeneratorAddress(a.line1, a.city, a.state, a.zip) ? undefined : 'address is not from the generator lists';
        },
      },
      {
        name: 'no-match-with-learned-sample',
        description:
          learned.length === 0
            ? 'No learned sample to compare with (learn a database first to compare on name + birth date + ZIP).'
            : `No patient matches a person of the learned samples (${learned.map((l) => l.profile).join(', ')}) on name + birth date + ZIP (salted hashes).`,
        problem: (p) => {
          for (const sample of learned) {
            const hash = identityHash(sample.salt, p.person.givenName, p.person.familyName, p.person.birthDate, p.person.address.zip);
            if (sample.hashes.has(hash)) return `matches a person of learned sample "${sample.profile}" on name, birth date and ZIP`;
          }
          return undefined;
        },
      },
    ];
    this.results = this.definitions.map((d) => ({ name: d.name, description: d.description, passed: true, checked: 0, failed: 0, failures: [] }));
  }

  /** Checks one patient. */
  add(patient: PatientRecord): void {
    for (let i = 0; i < this.definitions.length; i++) {
      const result = this.results[i];
      result.checked++;
      const problem = this.definitions[i].problem(patient);
      if (problem === undefined) continue;
      result.passed = false;
      result.failed++;
      if (result.failures.length < MAX_FAILURES) result.failures.push({ patientId: patient.id, mrn: patient.person.mrn, reason: problem });
    }
  }

  /** Every check's outcome. */
  report(): ComplianceCheck[] {
    return this.results.map((r) => ({ ...r, failures: [...r.failures] }));
  }
}
