/**
 * One generated message's story: the patient, the clinicians, the visit, the times and the clinical content, drawn
 * once from the synthetic-data source so that every segment tells the same story (the admitting doctor of PV1 signs
 * the order, OBX values sit around their reference range, the discharge follows the admission...).
 */
import {
  ALLERGENS,
  type AllergenConcept,
  BLOOD_PRESSURE,
  CHARGES,
  CONDITIONS,
  type ConditionConcept,
  DOCUMENTS,
  LAB_PANELS,
  type LabPanel,
  type ObservationKind,
  type SyntheticClinician,
  type SyntheticPerson,
  type SyntheticRandom,
  VACCINES,
  type VaccineConcept,
  VITAL_SIGNS,
} from '../../synthetic-data/api.ts';

/** Vital signs recorded on admission, in charting order (the first two to four are reported). */
const ADMISSION_VITALS: readonly ObservationKind[] = [
  VITAL_SIGNS[0],
  VITAL_SIGNS[1],
  VITAL_SIGNS[2],
  BLOOD_PRESSURE.systolic,
  BLOOD_PRESSURE.diastolic,
  ...VITAL_SIGNS.slice(3),
];

/** The organisations exchanging the message (synthetic names; the ampersand exercises escaping in XON values). */
export interface Hl7Parties {
  sendingApplication: string;
  sendingFacility: string;
  receivingApplication: string;
  receivingFacility: string;
  /** The hospital's display name. */
  facilityName: string;
  /** A clinic that refers patients, used as an organisation name. */
  referringOrganisation: string;
}

/** One numeric observation with its value and interpretation. */
export interface GeneratedObservation {
  code: ObservationKind;
  /** Reference range the value and flag are judged against. */
  range: { low: number; high: number };
  value: string;
  /** `N`, `H` or `L` (HL7 table 0078). */
  flag: 'N' | 'H' | 'L';
}

/** Everything one message draws on. */
export interface Hl7Scenario {
  patient: SyntheticPerson;
  /** A second mobile number in the reserved range, so PID-13 carries two phones. */
  mobilePhone: { areaCode: string; line: string };
  nextOfKin: { person: SyntheticPerson; relationship: { code: string; display: string } };
  attending: SyntheticClinician;
  referring: SyntheticClinician;
  parties: Hl7Parties;
  controlId: string;
  messageTime: Date;
  eventTime: Date;
  admitTime: Date;
  dischargeTime: Date;
  patientClass: 'I' | 'O' | 'E';
  location: { pointOfCare: string; room: string; bed: string };
  priorLocation: { pointOfCare: string; room: string; bed: string };
  hospitalService: string;
  /** MRN and account the patient had before a merge (ADT^A40). */
  priorIdentifiers: { mrn: string; accountNumber: string };
  vitals: GeneratedObservation[];
  panel: LabPanel;
  labResults: GeneratedObservation[];
  placerOrderNumber: string;
  fillerOrderNumber: string;
  specimenTime: Date;
  diagnosis: ConditionConcept;
  allergies: AllergenConcept[];
  vaccine: VaccineConcept;
  lotNumber: string;
  charges: Array<(typeof CHARGES)[number] & { quantity: number }>;
  document: (typeof DOCUMENTS)[number];
  documentNumber: string;
  appointment: { placerId: string; fillerId: string; start: Date; durationMinutes: number };
  insurance: { planId: string; companyId: string; companyName: string; groupNumber: string; policyNumber: string };
}

const HOSPITAL_UNITS = ['MED', 'SURG', 'ICU', 'TELE', 'ONC', 'ORTHO'] as const;
const HOSPITAL_SERVICES = ['MED', 'SUR', 'CAR', 'PUL', 'URO'] as const;
const INSURERS = [
  { id: 'SYNBC', plan: 'PPO100', name: 'Synthetic Blue Cross & Blue Shield' },
  { id: 'SYNHM', plan: 'HMO200', name: 'Sample Health Mutual' },
  { id: 'SYNMA', plan: 'MA300', name: 'Demonstration Medicare Advantage' },
] as const;
const KIN_RELATIONSHIPS = [
  { code: 'SPO', display: 'Spouse' },
  { code: 'PAR', display: 'Parent' },
  { code: 'SIB', display: 'Sibling' },
  { code: 'CHD', display: 'Child' },
] as const;

/** Relationships plausible for the patient's age: a child's contact is a parent, an older adult's rarely is. */
function kinRelationshipsFor(age: number): ReadonlyArray<(typeof KIN_RELATIONSHIPS)[number]> {
  if (age < 18) return KIN_RELATIONSHIPS.filter((r) => r.code === 'PAR');
  if (age < 40) return KIN_RELATIONSHIPS.filter((r) => r.code !== 'CHD');
  if (age < 65) return KIN_RELATIONSHIPS;
  return KIN_RELATIONSHIPS.filter((r) => r.code !== 'PAR');
}

/** Age range of the next of kin, so a parent is older and a child younger than the patient. */
function kinAgeRange(relationship: string, age: number): { minAge: number; maxAge: number } {
  switch (relationship) {
    case 'PAR':
      return { minAge: age + 18, maxAge: Math.min(age + 45, 100) };
    case 'CHD':
      return { minAge: 18, maxAge: Math.max(18, age - 18) };
    default:
      return { minAge: Math.max(18, age - 8), maxAge: Math.max(18, age + 8) };
  }
}

/** The next of kin as family living with the patient: same family name, address and area code. */
function livingWith(kin: SyntheticPerson, patient: SyntheticPerson): SyntheticPerson {
  const { areaCode } = patient.phoneParts;
  return {
    ...kin,
    familyName: patient.familyName,
    address: patient.address,
    phone: `(${areaCode}) 555-${kin.phoneParts.line}`,
    phoneParts: { ...kin.phoneParts, areaCode },
  };
}

function observe(random: SyntheticRandom, code: ObservationKind): GeneratedObservation {
  // Kinds without a reference interval (height, weight) are judged against their plausible range.
  const range = { low: code.low ?? code.min, high: code.high ?? code.max };
  const span = range.high - range.low;
  // Mostly normal results, some just outside the range, as a real census looks.
  const raw = range.low - span * 0.15 + (random.int(0, 1000) / 1000) * span * 1.3;
  const value = raw.toFixed(code.decimals);
  const numeric = Number(value);
  return { code, range, value, flag: numeric > range.high ? 'H' : numeric < range.low ? 'L' : 'N' };
}

function location(random: SyntheticRandom) {
  return {
    pointOfCare: random.pick(HOSPITAL_UNITS),
    room: String(random.int(100, 499)),
    bed: random.pick(['A', 'B'] as const),
  };
}

/**
 * Draws the scenario of one message; the draw order is fixed so a seed always gives the same story. The message time
 * falls in the minute before `stampMs` (default: the source's reference date), so a message generated now is not read
 * as hours late by a monitor that receives it now.
 */
export function createHl7Scenario(random: SyntheticRandom, stampMs: number = random.referenceDate.getTime()): Hl7Scenario {
  const patient = random.person();
  const faker = random.faker;
  const messageTime = new Date(Math.floor(stampMs / 1000) * 1000 - random.int(0, 59) * 1000);
  const eventTime = new Date(messageTime.getTime() - random.int(0, 15) * 60_000);
  const admitTime = new Date(eventTime.getTime() - random.int(1, 5) * 86_400_000 - random.int(0, 1439) * 60_000);
  const dischargeTime = new Date(eventTime.getTime() - random.int(0, 30) * 60_000);
  const relationship = random.pick(kinRelationshipsFor(patient.ageYears));
  const kinPerson = random.person(kinAgeRange(relationship.code, patient.ageYears));
  const panel = random.pick(LAB_PANELS);
  const insurer = random.pick(INSURERS);
  const chargeCount = random.int(2, 3);
  return {
    patient,
    mobilePhone: { areaCode: patient.phoneParts.areaCode, line: `01${String(random.int(0, 99)).padStart(2, '0')}` },
    nextOfKin: { person: livingWith(kinPerson, patient), relationship },
    attending: random.clinician(),
    referring: random.clinician(),
    parties: {
      sendingApplication: 'SYNTH_EHR',
      sendingFacility: 'SYNTH_GH',
      receivingApplication: 'WORKBENCH',
      receivingFacility: 'INTEGRATION_LAB',
      facilityName: 'Synthetic General Hospital',
      referringOrganisation: `${faker.person.lastName()} & ${faker.person.lastName()} Family Practice`,
    },
    controlId: `${messageTime.toISOString().replace(/\D/g, '').slice(0, 14)}${faker.string.numeric(6)}`,
    messageTime,
    eventTime,
    admitTime,
    dischargeTime,
    patientClass: random.pick(['I', 'I', 'O', 'E'] as const),
    location: location(random),
    priorLocation: location(random),
    hospitalService: random.pick(HOSPITAL_SERVICES),
    priorIdentifiers: {
      mrn: faker.string.numeric({ length: 8, allowLeadingZeros: false }),
      accountNumber: faker.string.numeric({ length: 10, allowLeadingZeros: false }),
    },
    vitals: ADMISSION_VITALS.slice(0, random.int(2, 4)).map((code) => observe(random, code)),
    panel,
    labResults: panel.members.map((code) => observe(random, code)),
    placerOrderNumber: `PL${faker.string.numeric(8)}`,
    fillerOrderNumber: `FL${faker.string.numeric(8)}`,
    specimenTime: new Date(eventTime.getTime() - random.int(60, 240) * 60_000),
    diagnosis: random.pick(CONDITIONS),
    allergies: faker.helpers.arrayElements(ALLERGENS, random.int(1, 2)),
    vaccine: random.pick(VACCINES),
    lotNumber: `${faker.string.alpha({ length: 2, casing: 'upper' })}${faker.string.numeric(5)}`,
    charges: faker.helpers.arrayElements(CHARGES, chargeCount).map((c) => ({ ...c, quantity: 1 })),
    document: random.pick(DOCUMENTS),
    documentNumber: `DOC${faker.string.numeric(9)}`,
    appointment: {
      placerId: `AP${faker.string.numeric(7)}`,
      fillerId: `SC${faker.string.numeric(7)}`,
      start: new Date(messageTime.getTime() + random.int(1, 30) * 86_400_000 + random.int(0, 16) * 1_800_000),
      durationMinutes: random.pick([15, 20, 30, 45, 60] as const),
    },
    insurance: {
      planId: insurer.plan,
      companyId: insurer.id,
      companyName: insurer.name,
      groupNumber: `GRP${faker.string.numeric(6)}`,
      policyNumber: `POL${faker.string.numeric(9)}`,
    },
  };
}
