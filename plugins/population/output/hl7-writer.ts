/**
 * HL7 v2.5.1 output: for each patient an ADT^A01 of their latest encounter (demographics, vital signs, allergies,
 * active diagnoses) and an ORU^R01 for every encounter with laboratory results, one OBR per panel. Segments end
 * with a carriage return; each message is followed by a line feed so the file reads one message per line block.
 * Text values are escaped (`\F\ \S\ \R\ \E\ \T\`), so a display such as "Lip & face rash" stays one component.
 */
import { join } from 'node:path';
import { LAB_PANELS } from '../../synthetic-data/api.ts';
import { FileSink } from './file-sink.ts';
import type { EncounterRecord, ObservationRecord, PatientRecord } from '../generation/patient-record.ts';
import type { PopulationWriter } from './population-writer.ts';

const VERSION = '2.5.1';
const FACILITY = 'SYNGH';

/** Escapes the delimiters of the default encoding characters `|^~\&`. */
export function hl7Escape(text: string): string {
  if (!/[|^~\\&]/.test(text)) return text;
  return text.replace(/[|^~\\&]/g, (c) => ({ '|': '\\F\\', '^': '\\S\\', '~': '\\R\\', '\\': '\\E\\', '&': '\\T\\' })[c] ?? c);
}

/** `YYYYMMDDHHMMSS` of an ISO instant, `YYYYMMDD` of an ISO date. */
function hl7Time(iso: string): string {
  return iso.replace(/[-:TZ]/g, '').slice(0, iso.length > 10 ? 14 : 8);
}

function coded(code: string, display: string, system: string): string {
  return `${hl7Escape(code)}^${hl7Escape(display)}^${system}`;
}

/** Panel (OBR-4) each laboratory LOINC is reported under: its panel, or the test itself. */
const PANEL_OF = new Map<string, { loinc: string; display: string }>();
for (const panel of LAB_PANELS) for (const member of panel.members) PANEL_OF.set(member.loinc, panel);

function segments(...lines: string[]): string {
  return `${lines.join('\r')}\r\n`;
}

function msh(type: string, structure: string, controlId: string, time: string): string {
  return `MSH|^~\\&|SYNTH_POP|${FACILITY}|WORKBENCH|INTEGRATION_LAB|${time}||${type}^${structure}|${controlId}|T|${VERSION}|||AL|NE|USA`;
}

function pid(patient: PatientRecord): string {
  const p = patient.person;
  const name = `${hl7Escape(p.familyName)}^${hl7Escape(p.givenName)}^${hl7Escape(p.middleName)}^^^^L`;
  const address = `${hl7Escape(p.address.line1)}^^${hl7Escape(p.address.city)}^${p.address.state}^${p.address.zip}^USA^H`;
  const { areaCode, exchange, line } = p.phoneParts;
  const phones = `(${areaCode})${exchange}-${line}^PRN^PH^^1^${areaCode}^${exchange}${line}~^NET^Internet^${hl7Escape(p.email)}`;
  const ethnicity = p.ethnicity.code === '2135-2' ? 'H^Hispanic or Latino^HL70189' : 'N^Not Hispanic or Latino^HL70189';
  return [
    'PID', '1', '', `${p.mrn}^^^${FACILITY}^MR~${p.ssn}^^^SSA^SS`, '', name, '', hl7Time(p.birthDate), p.sex, '',
    coded(p.race.code, p.race.display, 'HL70005'), address, '', phones, '', `${p.language}^${p.language === 'es' ? 'Spanish' : 'English'}^ISO6391`,
    `${p.maritalStatus}^${{ S: 'Single', M: 'Married', D: 'Divorced', W: 'Widowed' }[p.maritalStatus]}^HL70002`, '', `${p.accountNumber}^^^${FACILITY}^AN`,
    p.ssn, '', '', ethnicity,
  ].join('|');
}

function pv1(encounter: EncounterRecord): string {
  const fields = ['PV1', '1', encounter.patientClass, `${encounter.patientClass === 'O' ? 'CLINIC' : encounter.patientClass === 'E' ? 'ER' : 'MED'}^^^${FACILITY}`];
  fields[19] = `${encounter.id}^^^${FACILITY}^VN`;
  fields[44] = hl7Time(encounter.start);
  fields[45] = hl7Time(encounter.end);
  return Array.from(fields, (f) => f ?? '').join('|');
}

function obx(index: number, o: ObservationRecord): string {
  const range = o.referenceLow !== null || o.referenceHigh !== null ? `${o.referenceLow ?? ''}-${o.referenceHigh ?? ''}` : '';
  return [
    'OBX', String(index), 'NM', coded(o.loinc, o.display, 'LN'), '', o.valueText, coded(o.ucum, o.unitDisplay, 'UCUM'), range,
    o.interpretation ?? '', '', '', 'F', '', '', hl7Time(o.effective),
  ].join('|');
}

/** The HL7 messages of one patient. */
export function hl7MessagesOf(patient: PatientRecord): string {
  const latest = patient.encounters[patient.encounters.length - 1];
  const time = hl7Time(latest.end);
  const adt = [
    msh('ADT^A01', 'ADT_A01', `P${patient.id}-A${latest.id}`, time),
    `EVN|A01|${time}`,
    pid(patient),
    pv1(latest),
    ...patient.observations.filter((o) => o.encounterId === latest.id && o.category === 'vital-signs').map((o, i) => obx(i + 1, o)),
    ...patient.allergies.map((a, i) => {
      const type = { medication: 'DA^Drug allergy', food: 'FA^Food allergy', environment: 'EA^Environmental allergy' }[a.category];
      const severity = { mild: 'MI^Mild', moderate: 'MO^Moderate', severe: 'SV^Severe' }[a.severity];
      return `AL1|${i + 1}|${type}^HL70127|${coded(a.code, a.display, a.system === 'rxnorm' ? 'RXNORM' : 'SCT')}|${severity}^HL70128|${hl7Escape(a.reaction)}`;
    }),
    ...patient.conditions
      .filter((c) => c.clinicalStatus === 'active')
      .map((c, i) => `DG1|${i + 1}||${coded(c.icd10, c.icd10Display, 'I10')}|${hl7Escape(c.display)}|${hl7Time(c.onsetDate)}|F`),
  ];
  let out = segments(...adt);
  for (const encounter of patient.encounters) {
    const labs = patient.observations.filter((o) => o.encounterId === encounter.id && o.category === 'laboratory');
    if (labs.length === 0) continue;
    const groups = new Map<string, { panel: { loinc: string; display: string }; results: ObservationRecord[] }>();
    for (const lab of labs) {
      const panel = PANEL_OF.get(lab.loinc) ?? lab;
      const group = groups.get(panel.loinc) ?? { panel, results: [] };
      group.results.push(lab);
      groups.set(panel.loinc, group);
    }
    const observed = hl7Time(encounter.start);
    const lines = [msh('ORU^R01', 'ORU_R01', `P${patient.id}-R${encounter.id}`, hl7Time(encounter.end)), pid(patient), pv1(encounter)];
    let order = 0;
    for (const { panel, results } of groups.values()) {
      order++;
      const placer = `${encounter.id}-${order}`;
      lines.push(`ORC|RE|${placer}^SYNTH_POP|${placer}^SYNTH_LAB||CM`);
      lines.push(`OBR|${order}|${placer}^SYNTH_POP|${placer}^SYNTH_LAB|${coded(panel.loinc, panel.display, 'LN')}|||${observed}|||||||||||||||${hl7Time(encounter.end)}|||F`);
      results.forEach((r, i) => lines.push(obx(i + 1, r)));
    }
    out += segments(...lines);
  }
  return out;
}

/** Opens `population.hl7` in `directory`. */
export function createHl7Writer(directory: string, compress = false): PopulationWriter {
  const sink = new FileSink(join(directory, 'population.hl7'), 'population.hl7', 'application/hl7-v2', { compress });
  return {
    async write(patient) {
      const text = hl7MessagesOf(patient);
      sink.records += text.split('\nMSH|').length;
      await sink.write(text);
    },
    close: async () => [await sink.close()],
    abort: () => sink.abort(),
  };
}
