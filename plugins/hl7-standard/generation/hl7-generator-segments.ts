/**
 * Segment builders of the generator: each states, once for every version, what its fields mean for the scenario.
 * Values are written as the latest standard shapes them (components, repetitions); the renderer fits them to the
 * version (`hl7-generator-values.ts`), so e.g. PID-10 is a CE in v2.5 and keeps only its code where v2.3 has an IS.
 */
import type { SyntheticClinician, SyntheticPerson } from '../../synthetic-data/api.ts';
import type { Hl7VersionDefinitions } from '../hl7-definitions.ts';
import type { GeneratedObservation, Hl7Scenario } from './hl7-generator-scenario.ts';
import { type GenFields, type GenRepetition, isFillable, repeat } from './hl7-generator-values.ts';
import { allergenCode, HL7_ALLERGEN_TYPES, HL7_CODING_SYSTEMS } from '../../synthetic-data/api.ts';
import type { Hl7MessageBlueprint } from './hl7-message-blueprints.ts';

/** What a builder knows about the segment it builds. */
export interface SegmentBuildContext {
  scenario: Hl7Scenario;
  blueprint: Hl7MessageBlueprint;
  defs: Hl7VersionDefinitions;
  /** `ADT`, `A01` and the structure id written in MSH-9. */
  code: string;
  trigger: string;
  structureId: string;
  /** 0-based count of this segment name so far in the message (set IDs are `occurrence + 1`). */
  occurrence: number;
  /** Repetition index of the enclosing group. */
  iteration: number;
}

/** Builds the field values of one segment. */
export type SegmentBuilder = (context: SegmentBuildContext) => GenFields;

/** `YYYYMMDDHHMMSS` in UTC: the TS/DTM form every version accepts. */
export function hl7DateTime(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** `YYYYMMDD`. */
export function hl7Date(date: Date | string): string {
  return (typeof date === 'string' ? date : date.toISOString()).slice(0, 10).replace(/-/g, '');
}

/** Assigning authority of the hospital's identifiers (short: v2.3 allows 20 characters for a whole CX). */
const AUTHORITY = 'SGH';

const coded = (code: string, text: string, system: string): GenRepetition => [code, text, system];
const personName = (p: Pick<SyntheticPerson, 'familyName' | 'givenName' | 'middleName'>): GenRepetition => [p.familyName, p.givenName, p.middleName, '', '', '', 'L'];
const clinicianName = (c: SyntheticClinician): GenRepetition => [c.npi, c.familyName, c.givenName, '', '', '', 'MD', '', 'NPI', 'L', '', '', 'NPI'];
const address = (p: SyntheticPerson): GenRepetition => [p.address.line1, '', p.address.city, p.address.state, p.address.zip, 'USA', 'H'];
const phone = (areaCode: string, line: string, use: string, equipment: string): GenRepetition => [`(${areaCode})555-${line}`, use, equipment, '', '1', areaCode, `555${line}`];
const identifier = (id: string, type: string): GenRepetition => [id, '', '', AUTHORITY, type];
const location = (l: Hl7Scenario['location']): GenRepetition => [l.pointOfCare, l.room, l.bed, AUTHORITY];
const entity = (id: string, namespace: string): GenRepetition => [id, namespace];

function homePhone(p: SyntheticPerson): GenRepetition {
  return phone(p.phoneParts.areaCode, p.phoneParts.line, 'PRN', 'PH');
}

const MARITAL: Record<SyntheticPerson['maritalStatus'], string> = { S: 'Single', M: 'Married', D: 'Divorced', W: 'Widowed' };

function msh(c: SegmentBuildContext): GenFields {
  const p = c.scenario.parties;
  return {
    3: [p.sendingApplication],
    4: [p.sendingFacility],
    5: [p.receivingApplication],
    6: [p.receivingFacility],
    7: hl7DateTime(c.scenario.messageTime),
    9: [c.code, c.trigger, c.structureId],
    10: c.scenario.controlId,
    // Training: generated messages must never be mistaken for production traffic.
    11: 'T',
    12: c.defs.version,
    15: 'AL',
    16: 'NE',
    17: 'USA',
  };
}

function evn(c: SegmentBuildContext): GenFields {
  return { 1: c.trigger, 2: hl7DateTime(c.scenario.messageTime), 6: hl7DateTime(c.scenario.eventTime) };
}

function pid(c: SegmentBuildContext): GenFields {
  const p = c.scenario.patient;
  const hispanic = p.ethnicity.code === '2135-2';
  return {
    1: '1',
    3: repeat(identifier(p.mrn, 'MR'), [p.ssn, '', '', 'SSA', 'SS']),
    5: personName(p),
    7: hl7Date(p.birthDate),
    8: p.sex,
    10: coded(p.race.code, p.race.display, 'HL70005'),
    11: address(p),
    13: repeat(homePhone(p), phone(c.scenario.mobilePhone.areaCode, c.scenario.mobilePhone.line, 'PRS', 'CP'), ['', 'NET', 'Internet', p.email]),
    15: coded(p.language, p.language === 'es' ? 'Spanish' : 'English', 'ISO6391'),
    16: coded(p.maritalStatus, MARITAL[p.maritalStatus], 'HL70002'),
    18: identifier(p.accountNumber, 'AN'),
    19: p.ssn,
    22: coded(hispanic ? 'H' : 'N', hispanic ? 'Hispanic or Latino' : 'Not Hispanic or Latino', 'HL70189'),
  };
}

function pd1(c: SegmentBuildContext): GenFields {
  return { 3: [c.scenario.parties.referringOrganisation, 'L'] };
}

function nk1(c: SegmentBuildContext): GenFields {
  const { person, relationship } = c.scenario.nextOfKin;
  return {
    1: String(c.occurrence + 1),
    2: personName(person),
    3: coded(relationship.code, relationship.display, 'HL70063'),
    4: address(person),
    5: homePhone(person),
    7: coded('C', 'Emergency Contact', 'HL70131'),
  };
}

function pv1(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  if (c.blueprint.visit === 'registration') return { 1: '1', 2: 'N' };
  const inpatient = c.blueprint.visit !== 'outpatient';
  // an admission, transfer or discharge is of an inpatient stay (an emergency one keeps admission type E below)
  return {
    1: '1',
    2: inpatient ? 'I' : 'O',
    3: location(s.location),
    4: s.patientClass === 'E' ? 'E' : 'R',
    6: c.blueprint.visit === 'transfer' ? location(s.priorLocation) : undefined,
    7: clinicianName(s.attending),
    8: clinicianName(s.referring),
    10: s.hospitalService,
    14: s.patientClass === 'E' ? '7' : '1',
    17: clinicianName(s.attending),
    19: identifier(s.patient.accountNumber, 'VN'),
    36: c.blueprint.visit === 'discharge' ? '01' : undefined,
    // the admission an A01 reports happens at its event; later messages of the stay carry the earlier admission
    44: hl7DateTime(c.trigger === 'A01' ? s.eventTime : s.admitTime),
    45: c.blueprint.visit === 'discharge' ? hl7DateTime(s.dischargeTime) : undefined,
  };
}

function pv2(c: SegmentBuildContext): GenFields {
  const d = c.scenario.diagnosis;
  return { 3: coded(d.icd10, d.icd10Display, 'I10') };
}

function numericObx(c: SegmentBuildContext, o: GeneratedObservation, time: Date): GenFields {
  return {
    1: String(c.occurrence + 1),
    2: 'NM',
    3: coded(o.code.loinc, o.code.display, 'LN'),
    5: o.value,
    6: coded(o.code.ucum, o.code.unitDisplay, 'UCUM'),
    7: `${o.range.low}-${o.range.high}`,
    8: o.flag,
    11: 'F',
    14: hl7DateTime(time),
  };
}

function obx(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  switch (c.blueprint.observations) {
    case 'lab':
      return numericObx(c, s.labResults[c.occurrence % s.labResults.length], s.specimenTime);
    case 'vitals':
      return numericObx(c, s.vitals[c.occurrence % s.vitals.length], s.admitTime);
    case 'document':
      return {
        1: String(c.occurrence + 1),
        2: 'TX',
        3: coded(s.document.loinc, s.document.display, 'LN'),
        4: String(c.occurrence + 1),
        5: s.document.lines[c.occurrence % s.document.lines.length],
        11: 'F',
      };
    case 'immunization':
      return {
        1: String(c.occurrence + 1),
        // The version's coded type (CE until v2.5.1, CWE after), as OBX-3 itself is typed.
        2: c.defs.segment('OBX')?.fields[2]?.dataType ?? 'CWE',
        3: coded('64994-7', 'Vaccine funding program eligibility category', 'LN'),
        4: '1',
        5: coded('V01', 'Not VFC eligible', 'HL70064'),
        11: 'F',
        14: hl7DateTime(s.eventTime),
      };
  }
}

function al1(c: SegmentBuildContext): GenFields {
  const a = c.scenario.allergies[c.occurrence % c.scenario.allergies.length];
  const type = HL7_ALLERGEN_TYPES[a.category];
  const allergen = allergenCode(a);
  return {
    1: String(c.occurrence + 1),
    2: coded(type.code, type.display, 'HL70127'),
    3: coded(allergen.code, a.display, HL7_CODING_SYSTEMS[allergen.system]),
    4: coded('MO', 'Moderate', 'HL70128'),
    5: a.reaction,
  };
}

function dg1(c: SegmentBuildContext): GenFields {
  const d = c.scenario.diagnosis;
  return { 1: String(c.occurrence + 1), 2: 'I10', 3: coded(d.icd10, d.icd10Display, 'I10'), 4: d.display, 5: hl7DateTime(c.scenario.admitTime), 6: 'A' };
}

function gt1(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  const minor = s.patient.ageYears < 18;
  const guarantor = minor ? s.nextOfKin.person : s.patient;
  return {
    1: '1',
    3: personName(guarantor),
    5: address(guarantor),
    6: homePhone(guarantor),
    8: hl7Date(guarantor.birthDate),
    9: guarantor.sex,
    11: minor ? coded('PAR', 'Parent', 'HL70063') : coded('SEL', 'Self', 'HL70063'),
  };
}

function in1(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  const i = s.insurance;
  return {
    1: '1',
    2: coded(i.planId, 'Preferred provider plan', 'L'),
    3: identifier(i.companyId, 'NIIP'),
    4: [i.companyName],
    8: i.groupNumber,
    12: hl7Date(new Date(Date.UTC(s.messageTime.getUTCFullYear(), 0, 1))),
    16: personName(s.patient),
    17: coded('SEL', 'Self', 'HL70063'),
    18: hl7Date(s.patient.birthDate),
    36: i.policyNumber,
  };
}

function mrg(c: SegmentBuildContext): GenFields {
  const prior = c.scenario.priorIdentifiers;
  return { 1: identifier(prior.mrn, 'MR'), 3: identifier(prior.accountNumber, 'AN') };
}

function orc(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  const result = c.blueprint.orderControl === 'RE';
  return {
    1: c.blueprint.orderControl ?? 'NW',
    2: entity(s.placerOrderNumber, s.parties.sendingApplication),
    3: entity(s.fillerOrderNumber, 'SYNTH_LAB'),
    5: result ? 'CM' : 'SC',
    9: hl7DateTime(s.messageTime),
    12: clinicianName(s.attending),
  };
}

function obr(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  const result = c.blueprint.orderControl === 'RE';
  return {
    1: String(c.occurrence + 1),
    2: entity(s.placerOrderNumber, s.parties.sendingApplication),
    3: entity(s.fillerOrderNumber, 'SYNTH_LAB'),
    4: coded(s.panel.loinc, s.panel.display, 'LN'),
    7: result ? hl7DateTime(s.specimenTime) : undefined,
    16: clinicianName(s.attending),
    22: result ? hl7DateTime(s.messageTime) : undefined,
    25: result ? 'F' : undefined,
  };
}

function nte(c: SegmentBuildContext): GenFields {
  const text =
    c.blueprint.orderControl === 'RE'
      ? 'Specimen slightly hemolyzed & results verified by repeat analysis.'
      : 'Fasting specimen requested & collect before 08:00.';
  return { 1: String(c.occurrence + 1), 2: 'L', 3: text };
}

function appointmentEnd(s: Hl7Scenario): Date {
  return new Date(s.appointment.start.getTime() + s.appointment.durationMinutes * 60_000);
}

function sch(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  const a = s.appointment;
  return {
    1: entity(a.placerId, s.parties.sendingApplication),
    2: entity(a.fillerId, 'SYNTH_SCHED'),
    6: coded('ROUTINE', 'Routine appointment', 'HL70276'),
    7: coded('FOLLOWUP', 'A follow up visit from a previous appointment', 'HL70276'),
    8: coded('Normal', 'Routine schedule request type', 'HL70277'),
    9: String(a.durationMinutes),
    // Units only beside a duration: from v2.7 both fields are kept for old senders only and SCH-9 is not written.
    10: isFillable(c.defs.segment('SCH')?.fields[8]) ? coded('min', 'minute', 'UCUM') : undefined,
    11: ['1', '', `M${a.durationMinutes}`, hl7DateTime(a.start), hl7DateTime(appointmentEnd(s))],
    16: clinicianName(s.attending),
    20: clinicianName(s.attending),
    25: coded('Booked', 'Booked', 'HL70278'),
  };
}

function rgs(c: SegmentBuildContext): GenFields {
  return { 1: String(c.occurrence + 1), 2: 'A' };
}

function ais(c: SegmentBuildContext): GenFields {
  const a = c.scenario.appointment;
  return {
    1: String(c.occurrence + 1),
    2: 'A',
    3: coded('99213', 'Office or other outpatient visit, established patient', 'C4'),
    4: hl7DateTime(a.start),
    7: String(a.durationMinutes),
    8: coded('min', 'minute', 'UCUM'),
  };
}

function ail(c: SegmentBuildContext): GenFields {
  const a = c.scenario.appointment;
  return {
    1: String(c.occurrence + 1),
    2: 'A',
    3: ['CLINIC', String(200 + (a.durationMinutes % 10)), '', AUTHORITY],
    6: hl7DateTime(a.start),
    9: String(a.durationMinutes),
    10: coded('min', 'minute', 'UCUM'),
  };
}

function aip(c: SegmentBuildContext): GenFields {
  const a = c.scenario.appointment;
  return {
    1: String(c.occurrence + 1),
    2: 'A',
    3: clinicianName(c.scenario.attending),
    4: coded('AT', 'Attending', 'HL70443'),
    6: hl7DateTime(a.start),
    9: String(a.durationMinutes),
    10: coded('min', 'minute', 'UCUM'),
  };
}

function txa(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  return {
    1: '1',
    2: s.document.type,
    3: 'TX',
    4: hl7DateTime(s.eventTime),
    5: clinicianName(s.attending),
    6: hl7DateTime(s.eventTime),
    9: clinicianName(s.attending),
    12: entity(s.documentNumber, s.parties.sendingApplication),
    17: 'AU',
    19: 'AV',
  };
}

function rxa(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  const v = s.vaccine;
  const expiry = new Date(Date.UTC(s.eventTime.getUTCFullYear() + 1, 11, 31));
  return {
    1: '0',
    2: '1',
    3: hl7DateTime(s.eventTime),
    4: hl7DateTime(s.eventTime),
    5: coded(v.cvx, v.display, 'CVX'),
    6: '0.5',
    7: coded('mL', 'milliliter', 'UCUM'),
    9: coded('00', 'New immunization record', 'NIP001'),
    10: clinicianName(s.attending),
    15: s.lotNumber,
    16: hl7Date(expiry),
    17: coded(v.mvx, v.manufacturer, 'MVX'),
    20: 'CP',
    21: 'A',
  };
}

function rxr(): GenFields {
  return { 1: coded('IM', 'Intramuscular', 'HL70162'), 2: coded('LA', 'Left Arm', 'HL70163') };
}

function ft1(c: SegmentBuildContext): GenFields {
  const s = c.scenario;
  const charge = s.charges[c.occurrence % s.charges.length];
  return {
    1: String(c.occurrence + 1),
    4: [[hl7DateTime(s.eventTime)]],
    5: hl7DateTime(s.messageTime),
    6: 'CG',
    7: coded(charge.code, charge.display, 'C4'),
    10: String(charge.quantity),
    11: [[charge.price.toFixed(2), 'USD']],
    19: coded(s.diagnosis.icd10, s.diagnosis.icd10Display, 'I10'),
    20: clinicianName(s.attending),
    25: coded(charge.code, charge.display, 'C4'),
  };
}

/** Builders by segment name; segments without one get only their required fields (see the generator). */
export const SEGMENT_BUILDERS: Readonly<Record<string, SegmentBuilder>> = {
  MSH: msh,
  EVN: evn,
  PID: pid,
  PD1: pd1,
  NK1: nk1,
  PV1: pv1,
  PV2: pv2,
  OBX: obx,
  AL1: al1,
  DG1: dg1,
  GT1: gt1,
  IN1: in1,
  MRG: mrg,
  ORC: orc,
  OBR: obr,
  NTE: nte,
  SCH: sch,
  RGS: rgs,
  AIS: ais,
  AIL: ail,
  AIP: aip,
  TXA: txa,
  RXA: rxa,
  RXR: rxr,
  FT1: ft1,
};
