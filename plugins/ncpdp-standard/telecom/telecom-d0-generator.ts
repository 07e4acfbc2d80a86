/**
 * Builds a Telecommunication D.0 B1 (billing) request for a scenario with the standard framing: the 56-character
 * header, then each segment opened by the segment separator and a field separator before every field
 * (111-AM first), the transmission-level Patient and Insurance segments, then one transaction group (group
 * separator) with Claim, Prescriber and Pricing. Amounts are signed overpunch, quantities carry three implied decimals.
 */
import type { PrescriptionScenario } from '../generation/ncpdp-scenario.ts';
import { encodeOverpunch } from './overpunch.ts';
import { FIELD_SEPARATOR, GROUP_SEPARATOR, SEGMENT_SEPARATOR } from './telecom-d0-parser.ts';

function fixed(value: string, width: number): string {
  return value.slice(0, width).padEnd(width, ' ');
}

function segment(id: string, fields: Array<[string, string]>): string {
  return SEGMENT_SEPARATOR + [`AM${id}`, ...fields.map(([fid, value]) => fid + value)].map((f) => FIELD_SEPARATOR + f).join('');
}

const compactDate = (iso: string) => iso.replace(/-/g, '');
const upper = (value: string, width: number) => value.toUpperCase().replace(/[^A-Z0-9 '-]/g, '').slice(0, width);

/** One B1 request for the scenario; `bin` and `dateOfService` come from the scenario's source. */
export function buildB1Request(s: PrescriptionScenario, bin: string, dateOfService: string): string {
  const p = s.patient;
  const header =
    fixed(bin, 6) +
    'D0' +
    'B1' +
    fixed(`SYN${s.groupId.slice(3)}`, 10) +
    '1' +
    '01' +
    fixed(s.pharmacy.npi, 15) +
    compactDate(dateOfService) +
    fixed('WBSYNTH001', 10);
  const dispensingFeeCents = 150;
  const ingredient = s.drug.ingredientCostCents;
  const patient = segment('01', [
    ['C4', compactDate(p.birthDate)],
    ['C5', p.sex === 'M' ? '1' : '2'],
    ['CA', upper(p.givenName, 12)],
    ['CB', upper(p.familyName, 15)],
    ['CM', upper(p.address.line1, 30)],
    ['CN', upper(p.address.city, 20)],
    ['CO', p.address.state],
    ['CP', p.address.zip],
    ['CQ', p.phone.replace(/\D/g, '')],
  ]);
  const insurance = segment('04', [
    ['C2', s.cardholderId],
    ['C1', s.groupId],
    ['C3', '001'],
    ['C6', '1'],
  ]);
  const claim = segment('07', [
    ['EM', '1'],
    ['D2', s.rxNumber.padStart(12, '0')],
    ['E1', '03'],
    ['D7', s.drug.ndc],
    ['E7', String(s.drug.quantity * 1000).padStart(10, '0')],
    ['D3', '00'],
    ['D5', String(s.drug.daysSupply)],
    ['D6', '1'],
    ['D8', '0'],
    ['DE', compactDate(s.writtenDate)],
    ['DF', String(s.refills)],
    ['DJ', '3'],
  ]);
  const prescriber = segment('03', [
    ['EZ', '01'],
    ['DB', s.prescriber.npi],
    ['DR', upper(s.prescriber.familyName, 15)],
    ['2J', upper(s.prescriber.givenName, 12)],
    ['PM', s.prescriber.phoneDigits],
  ]);
  const pricing = segment('11', [
    ['D9', encodeOverpunch(ingredient)],
    ['DC', encodeOverpunch(dispensingFeeCents)],
    ['DQ', encodeOverpunch(ingredient + dispensingFeeCents + 500)],
    ['DU', encodeOverpunch(ingredient + dispensingFeeCents)],
    ['DN', '01'],
  ]);
  return header + patient + insurance + GROUP_SEPARATOR + claim + prescriber + pricing;
}
