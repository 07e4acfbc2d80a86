/**
 * What each generated message type contains, independent of the version: which optional groups to enter and how many
 * of each segment to write. The version's own message structure (from the definitions) decides where each segment
 * goes and which segments are required, so a blueprint never lists a version's layout.
 */
import type { Hl7Scenario } from './hl7-generator-scenario.ts';

/** A count, fixed or drawn from the scenario (`iteration` is the index of the enclosing group's repetition). */
export type SegmentCount = number | ((scenario: Hl7Scenario, iteration: number) => number);

/** The visit story a message tells, which decides PV1 content. */
export type VisitKind = 'admit' | 'transfer' | 'discharge' | 'registration' | 'outpatient';

/** What OBX segments of the message carry. */
export type ObservationKind = 'vitals' | 'lab' | 'document' | 'immunization';

/** Content of one message type. */
export interface Hl7MessageBlueprint {
  /** `ADT^A01`. */
  messageType: string;
  /** Optional groups to enter, by name; versions name some groups differently, so synonyms are listed together. */
  groups: readonly string[];
  /** Segments to write per repetition of their group: keyed `SEG` or, to target one group, `GROUP/SEG`. */
  segments: Readonly<Record<string, SegmentCount>>;
  /** Repetitions of repeating groups, by group name (default 1). */
  groupRepeats?: Readonly<Record<string, SegmentCount>>;
  visit: VisitKind;
  observations: ObservationKind;
  /** ORC-1 order control code (HL7 table 0119). */
  orderControl?: string;
}

const ADT_FULL: Hl7MessageBlueprint['segments'] = {
  EVN: 1,
  PID: 1,
  PD1: 1,
  NK1: 1,
  PV1: 1,
  PV2: 1,
  OBX: (s) => s.vitals.length,
  AL1: (s) => s.allergies.length,
  DG1: 1,
  GT1: 1,
  IN1: 1,
};
const ADT_VISIT_ONLY: Hl7MessageBlueprint['segments'] = { EVN: 1, PID: 1, PD1: 1, PV1: 1, PV2: 1 };

function adt(trigger: string, visit: VisitKind, segments: Hl7MessageBlueprint['segments']): Hl7MessageBlueprint {
  return { messageType: `ADT^${trigger}`, groups: ['INSURANCE', 'PATIENT', 'PATIENT_ID'], segments, visit, observations: 'vitals' };
}

const { PV2: _noPv2, ...ADT_REGISTRATION } = ADT_FULL;

/** Blueprints of every generated type, the default (`ADT^A01`) first. */
export const HL7_MESSAGE_BLUEPRINTS: readonly Hl7MessageBlueprint[] = [
  adt('A01', 'admit', ADT_FULL),
  adt('A02', 'transfer', ADT_VISIT_ONLY),
  adt('A03', 'discharge', { ...ADT_VISIT_ONLY, DG1: 1 }),
  adt('A04', 'outpatient', ADT_FULL),
  adt('A05', 'admit', ADT_FULL),
  adt('A06', 'admit', ADT_VISIT_ONLY),
  adt('A07', 'outpatient', ADT_VISIT_ONLY),
  adt('A08', 'admit', ADT_FULL),
  adt('A11', 'admit', { EVN: 1, PID: 1, PD1: 1, PV1: 1 }),
  adt('A13', 'admit', ADT_VISIT_ONLY),
  adt('A28', 'registration', ADT_REGISTRATION),
  adt('A31', 'registration', ADT_REGISTRATION),
  adt('A40', 'registration', { EVN: 1, PID: 1, PD1: 1, MRG: 1 }),
  {
    messageType: 'ORM^O01',
    groups: ['PATIENT', 'PATIENT_VISIT', 'ORDER', 'ORDER_DETAIL'],
    segments: { PID: 1, PV1: 1, ORC: 1, OBR: 1, 'ORDER_DETAIL/NTE': 1, DG1: 1 },
    visit: 'outpatient',
    observations: 'lab',
    orderControl: 'NW',
  },
  {
    messageType: 'ORU^R01',
    groups: ['RESPONSE', 'PATIENT_RESULT', 'PATIENT', 'VISIT', 'ORDER_OBSERVATION', 'COMMON_ORDER', 'OBSERVATION'],
    segments: { PID: 1, PV1: 1, ORC: 1, OBR: 1, OBX: 1, 'OBSERVATION/NTE': (_s, iteration) => (iteration === 0 ? 1 : 0) },
    groupRepeats: { OBSERVATION: (s) => s.labResults.length },
    visit: 'outpatient',
    observations: 'lab',
    orderControl: 'RE',
  },
  {
    messageType: 'SIU^S12',
    groups: ['PATIENT', 'RESOURCES', 'SERVICE', 'LOCATION_RESOURCE', 'PERSONNEL_RESOURCE'],
    segments: { SCH: 1, PID: 1, PV1: 1, RGS: 1, AIS: 1, AIL: 1, AIP: 1 },
    visit: 'outpatient',
    observations: 'vitals',
  },
  {
    messageType: 'MDM^T02',
    groups: ['OBXNTE', 'GROUP'],
    segments: { EVN: 1, PID: 1, PV1: 1, TXA: 1, OBX: (s) => s.document.lines.length },
    groupRepeats: { OBXNTE: (s) => s.document.lines.length, GROUP: (s) => s.document.lines.length },
    visit: 'admit',
    observations: 'document',
  },
  {
    messageType: 'VXU^V04',
    groups: ['PATIENT', 'PATIENT_VISIT', 'ORDER', 'OBSERVATION'],
    segments: { PID: 1, PD1: 1, NK1: 1, PV1: 1, ORC: 1, RXA: 1, RXR: 1, 'OBSERVATION/OBX': 1 },
    visit: 'outpatient',
    observations: 'immunization',
    orderControl: 'RE',
  },
  {
    messageType: 'DFT^P03',
    groups: ['FINANCIAL'],
    segments: { EVN: 1, PID: 1, PV1: 1, FT1: 1, DG1: 1 },
    groupRepeats: { FINANCIAL: (s) => s.charges.length },
    visit: 'admit',
    observations: 'vitals',
  },
];

/** Resolves a count against the scenario. */
export function resolveCount(count: SegmentCount | undefined, scenario: Hl7Scenario, iteration: number): number {
  if (count === undefined) return 0;
  return typeof count === 'number' ? count : count(scenario, iteration);
}
