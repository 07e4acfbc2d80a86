/**
 * One prescribing scenario drawn from the synthetic-data service: patient, prescriber, pharmacy, drug and dates,
 * consistent across the message that carries them. All values are synthetic (SSN 9xx, phones 555-01xx, NPIs and
 * DEA numbers with valid check digits); with a seeded source the scenario is the same on any machine and day.
 */
import type { SyntheticAddress, SyntheticClinician, SyntheticPerson, SyntheticRandom } from '../../synthetic-data/api.ts';
import { SYNTHETIC_DRUGS, type SyntheticDrug } from './synthetic-drugs.ts';

/** A synthetic pharmacy. */
export interface SyntheticPharmacy {
  name: string;
  npi: string;
  /** Seven-digit NCPDP provider ID. */
  ncpdpId: string;
  address: SyntheticAddress;
  /** Ten digits, 555-01xx line. */
  phone: string;
}

/** Everything a generated message needs. */
export interface PrescriptionScenario {
  patient: SyntheticPerson;
  prescriber: SyntheticClinician & { address: SyntheticAddress; phoneDigits: string };
  pharmacy: SyntheticPharmacy;
  drug: SyntheticDrug;
  refills: number;
  /** `YYYY-MM-DD`. */
  writtenDate: string;
  /** `YYYY-MM-DDThh:mm:ssZ`, after the written date. */
  sentTime: string;
  messageId: string;
  relatesToMessageId: string;
  prescriberOrderNumber: string;
  /** Numeric prescription number the pharmacy assigned (for D.0 402-D2). */
  rxNumber: string;
  cardholderId: string;
  groupId: string;
}

/** Ten digits of a `(AAA) 555-01XX` phone. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

function identifier(random: SyntheticRandom, prefix: string, digits: number): string {
  let out = prefix;
  for (let i = 0; i < digits; i++) out += String(random.int(0, 9));
  return out;
}

/** Draws one scenario. */
export function createScenario(random: SyntheticRandom): PrescriptionScenario {
  const patient = random.person({ minAge: 2, maxAge: 90 });
  const clinician = random.clinician();
  const prescriberPlace = random.person();
  const pharmacyClinician = random.clinician();
  const pharmacyPlace = random.person();
  const written = random.recentDate(20);
  const sent = new Date(written.getTime() + random.int(60, 3600) * 1000);
  return {
    patient,
    prescriber: { ...clinician, address: prescriberPlace.address, phoneDigits: phoneDigits(clinician.phone) },
    pharmacy: {
      name: `${pharmacyPlace.familyName} Community Pharmacy`,
      npi: pharmacyClinician.npi,
      ncpdpId: identifier(random, '', 7),
      address: pharmacyPlace.address,
      phone: phoneDigits(pharmacyPlace.phone),
    },
    drug: random.pick(SYNTHETIC_DRUGS),
    refills: random.int(0, 5),
    writtenDate: written.toISOString().slice(0, 10),
    sentTime: `${sent.toISOString().slice(0, 19)}Z`,
    messageId: identifier(random, 'WB', 16),
    relatesToMessageId: identifier(random, 'WB', 16),
    prescriberOrderNumber: identifier(random, 'ORD', 9),
    rxNumber: identifier(random, '', 7).replace(/^0/, '1'),
    cardholderId: identifier(random, 'SYN', 9),
    groupId: identifier(random, 'GRP', 5),
  };
}
