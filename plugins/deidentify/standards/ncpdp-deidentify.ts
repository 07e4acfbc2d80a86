/**
 * De-identification of NCPDP: SCRIPT XML (patient, prescriber, supervisor, pharmacist and benefits/cardholder
 * elements) and Telecommunication D.0 (patient, cardholder and prescriber fields by field id). Only element text and
 * D.0 field values change: tags, attributes, namespaces, separators and the fixed-width D.0 header stay as they were.
 */
import { ninetyPlusBirthDate, shiftHl7Date, shiftIsoDate } from '../replacement/date-shift.ts';
import { FreeTextScrubber } from '../replacement/free-text-scrubber.ts';
import { replaceNeedles } from '../replacement/needles.ts';
import { patientKey } from '../replacement/patient-key.ts';
import { travelXmlWithNeedles } from './xml-travel.ts';
import type { IdentifierKind, Pseudonymizer } from '../replacement/pseudonyms.ts';
import type { ReportBuilder } from '../deidentify-report.ts';
import { decodeXmlEntities, escapeXmlText } from '../../../kernel/lib/xml/xml-escape.ts';

/** SCRIPT elements whose descendants identify a person. */
const PERSON_CONTEXTS = new Set(['Patient', 'Prescriber', 'Supervisor', 'Pharmacist', 'BenefitsCoordination', 'FollowUpPrescriber', 'Requester']);

/** How a SCRIPT leaf element is replaced, by its name. */
type ScriptRule = 'family' | 'given' | 'street' | 'city' | 'postalCode' | 'phone' | 'email' | 'npi' | 'dea' | 'ssn' | 'date' | IdentifierKind;

const SCRIPT_RULES: Record<string, ScriptRule> = {
  LastName: 'family',
  FirstName: 'given',
  MiddleName: 'given',
  AddressLine1: 'street',
  AddressLine2: 'address',
  City: 'city',
  PostalCode: 'postalCode',
  Number: 'phone',
  Extension: 'phone',
  ElectronicMail: 'email',
  NPI: 'npi',
  DEANumber: 'dea',
  SocialSecurity: 'ssn',
  MedicalRecordIdentificationNumberEHR: 'medicalRecordNumber',
  PatientAccountNumber: 'accountNumber',
  StateLicenseNumber: 'licenseNumber',
  MedicareNumber: 'healthPlanNumber',
  MedicaidNumber: 'healthPlanNumber',
  CardholderID: 'healthPlanNumber',
  PersonCode: 'healthPlanNumber',
  REMSHealthcareProviderEnrollmentID: 'otherIdentifier',
  StateControlSubstanceNumber: 'licenseNumber',
  CertificateToPrescribe: 'licenseNumber',
  Data2000Waiver: 'licenseNumber',
  UPIN: 'otherIdentifier',
  MutuallyDefined: 'otherIdentifier',
  FacilityID: 'otherIdentifier',
  Date: 'date',
  DateTime: 'date',
  SentTime: 'date',
};

/** D.0 field ids that identify a person, with the longest value the field takes. */
const D0_FIELDS: Record<string, { rule: ScriptRule; max: number }> = {
  CA: { rule: 'given', max: 12 },
  CB: { rule: 'family', max: 15 },
  C4: { rule: 'date', max: 8 },
  CM: { rule: 'street', max: 30 },
  CN: { rule: 'city', max: 20 },
  CP: { rule: 'postalCode', max: 15 },
  CQ: { rule: 'phone', max: 10 },
  CY: { rule: 'medicalRecordNumber', max: 20 },
  HN: { rule: 'email', max: 80 },
  C2: { rule: 'healthPlanNumber', max: 20 },
  CC: { rule: 'given', max: 12 },
  CD: { rule: 'family', max: 15 },
  DR: { rule: 'family', max: 15 },
  DB: { rule: 'npi', max: 15 },
  '2Z': { rule: 'otherIdentifier', max: 15 },
  '4Y': { rule: 'phone', max: 10 },
  // Prescriber: first name, phone, street, city, ZIP; primary care provider's last name and id.
  '2J': { rule: 'given', max: 12 },
  PM: { rule: 'phone', max: 10 },
  '2K': { rule: 'street', max: 30 },
  '2M': { rule: 'city', max: 20 },
  '2P': { rule: 'postalCode', max: 15 },
  '4E': { rule: 'family', max: 15 },
  DL: { rule: 'otherIdentifier', max: 15 },
  // Claim: the prescription/service reference number and the date the prescription was written.
  D2: { rule: 'otherIdentifier', max: 12 },
  DE: { rule: 'date', max: 8 },
  // Patient e-mail and cardholder's plan fields.
  C1: { rule: 'healthPlanNumber', max: 15 },
  C3: { rule: 'healthPlanNumber', max: 3 },
};

/** D.0 fields of free text (message lines of a response, notes): scrubbed by the recognisers. */
const D0_TEXT_FIELDS = new Set(['FQ', 'FB', '4U', '526', 'UH', 'DK', '3Q', '4B']);

/** SCRIPT elements of free text: scrubbed by the recognisers wherever they are. */
const SCRIPT_TEXT = new Set(['SigText', 'Note', 'Notes', 'Comment', 'Comments', 'FreeText', 'Message', 'PatientInstructions', 'ReasonForNotDispensed', 'Description', 'Text']);

const KIND_OF: Record<ScriptRule, IdentifierKind> = {
  family: 'name',
  given: 'name',
  street: 'address',
  city: 'city',
  postalCode: 'postalCode',
  phone: 'phone',
  email: 'email',
  npi: 'otherIdentifier',
  dea: 'licenseNumber',
  ssn: 'ssn',
  date: 'date',
} as Record<ScriptRule, IdentifierKind>;

/** De-identifies NCPDP SCRIPT XML and Telecommunication D.0 content. */
export class NcpdpDeidentifier {
  private readonly scrubber: FreeTextScrubber;
  /** Set while a birth date is replaced: its other spellings are recorded as needles too. */
  private birthDate = false;

  constructor(private readonly pseudonyms: Pseudonymizer) {
    this.scrubber = new FreeTextScrubber(pseudonyms);
  }

  /** Rewrites `content` (XML when it starts with `<` after a BOM and blanks; D.0 otherwise). */
  deidentify(content: string, report: ReportBuilder): string {
    return /^\uFEFF?\s*</.test(content) ? this.script(content, report) : this.telecom(content, report);
  }

  private replace(rule: ScriptRule, value: string, offsetDays: number, iso: boolean): string | undefined {
    const p = this.pseudonyms;
    switch (rule) {
      case 'family':
        return p.familyName(value);
      case 'given':
        return p.givenName(value);
      case 'street':
        return p.streetLine(value);
      case 'city':
        return p.city(value);
      case 'postalCode':
        return p.postalCode(value);
      case 'phone':
        return p.phone(value);
      case 'email':
        return p.email(value);
      case 'npi':
        return /^\d{10}$/.test(value) ? p.npi(value) : p.shaped('otherIdentifier', value);
      case 'dea':
        return p.dea(value);
      case 'ssn':
        return p.ssn(value);
      case 'date': {
        const shifted = iso ? shiftIsoDate(value, offsetDays) : shiftHl7Date(value, offsetDays);
        if (shifted !== undefined && shifted !== value) p.noteDate(value, shifted, this.birthDate);
        return shifted;
      }
      default:
        return p.shaped(rule, value);
    }
  }

  /** The patient's name and birth date (patient-key.ts): one date offset per patient across standards. */
  private scriptPatientKey(content: string): string {
    const patient = /<(?:\w+:)?Patient[\s>][\s\S]*?<\/(?:\w+:)?Patient>/.exec(content)?.[0] ?? '';
    const pick = (tag: string) => new RegExp(`<(?:\\w+:)?${tag}>([^<]*)<`).exec(patient)?.[1] ?? '';
    const birth = /<(?:\w+:)?DateOfBirth>\s*<(?:\w+:)?Date(?:Time)?>([^<]*)</.exec(patient)?.[1] ?? pick('Date');
    return patient ? patientKey(decodeXmlEntities(pick('LastName')), decodeXmlEntities(pick('FirstName')), birth, `script:${pick('LastName')}|${pick('FirstName')}`) : '';
  }

  private script(content: string, report: ReportBuilder): string {
    const offsetDays = this.pseudonyms.dateOffsetDays(this.scriptPatientKey(content));
    const stack: string[] = [];
    let out = '';
    let last = 0;
    // A forward scan over tags (no backtracking): text between an opening tag and the next tag is a leaf's value.
    const tag = /<(\/?)\s*([A-Za-z_][\w.:-]*)[^>]*?(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>/g;
    let match: RegExpExecArray | null;
    let openLeaf: string | undefined;
    while ((match = tag.exec(content)) !== null) {
      const text = content.slice(last, match.index);
      if (openLeaf !== undefined && match[1] === '/' && text.trim() !== '') {
        const rule = SCRIPT_RULES[openLeaf];
        const inPerson = stack.some((name) => PERSON_CONTEXTS.has(name));
        const isDate = rule === 'date';
        if (SCRIPT_TEXT.has(openLeaf) || (!rule && inPerson)) {
          const value = decodeXmlEntities(text);
          let count = 0;
          const made = this.scrubber.scrub(value, offsetDays, undefined, () => count++);
          out += count > 0 ? escapeXmlText(made) : text;
          if (count > 0) report.add(stack.join('.'), 'freeText');
        } else if (rule && (inPerson || isDate)) {
          const value = decodeXmlEntities(text.trim());
          const old = isDate && stack.includes('DateOfBirth') && inPerson ? ninetyPlusBirthDate(value) : undefined;
          if (old !== undefined) this.pseudonyms.noteDate(value, old, true);
          else if (isDate && stack.includes('DateOfBirth')) this.birthDate = true;
          const made = old ?? this.replace(rule, value, offsetDays, true);
          this.birthDate = false;
          const path = stack.join('.');
          if (made !== undefined && made !== value) {
            out += text.replace(text.trim(), escapeXmlText(made));
            report.add(path, KIND_OF[rule] ?? (rule as IdentifierKind));
          } else out += text;
        } else out += text;
      } else out += text;
      out += match[0];
      last = match.index + match[0].length;
      if (match[2] === undefined) continue;
      const local = match[2].includes(':') ? match[2].slice(match[2].indexOf(':') + 1) : match[2];
      if (match[1] === '/') {
        stack.pop();
        openLeaf = undefined;
      } else if (match[3] !== '/') {
        stack.push(local);
        openLeaf = local;
      }
    }
    return this.travelScript(out + content.slice(last), offsetDays, report);
  }

  /** Known identifiers anywhere else in the document; comments scrubbed as free text. */
  private travelScript(xml: string, offsetDays: number, report: ReportBuilder): string {
    return travelXmlWithNeedles(xml, this.pseudonyms.currentNeedles(), (value) => this.scrubber.scrub(value, offsetDays), report);
  }

  private telecom(content: string, report: ReportBuilder): string {
    const [family, given, birth] = ['CB', 'CA', 'C4'].map((id) => this.d0Field(content, id).trim());
    const fallback = [family, given, birth].join('|');
    const offsetDays = this.pseudonyms.dateOffsetDays(patientKey(family, given, birth, fallback === '||' ? '' : `d0:${fallback}`));
    // Segments and groups are split with their separators kept; the first field of a chunk is its segment id (after
    // the fixed-width transaction header in the first chunk), which is never touched.
    const rewritten = content
      .split(/([\x1D\x1E])/)
      .map((chunk) => {
        if (chunk === '\x1D' || chunk === '\x1E') return chunk;
        const fields = chunk.split('\x1C');
        const segmentId = fields[0]!.slice(-4);
        // The request header's date of service (fixed width: BIN, version, transaction code, PCN, count, provider).
        const header = /^(\d{6}D0[A-Z0-9]{2}.{10}\d.{2}.{15})(\d{8})/.exec(fields[0]!);
        if (header && fields[0]!.startsWith(header[0])) {
          const shifted = shiftHl7Date(header[2]!, offsetDays);
          if (shifted !== undefined && shifted !== header[2]) {
            fields[0] = header[1]! + shifted + fields[0]!.slice(header[0].length);
            report.add('D0.header.dateOfService', 'date');
          }
        }
        for (let position = 1; position < fields.length; position++) {
          const field = fields[position]!;
          const id = field.slice(0, 2);
          const rule = D0_FIELDS[id];
          const value = field.slice(2).trim();
          if (D0_TEXT_FIELDS.has(id) && value !== '') {
            fields[position] = id + this.scrubber.scrub(field.slice(2), offsetDays);
            if (fields[position] !== field) report.add(`${/^AM\d\d$/.test(segmentId) ? segmentId : 'D0'}.${id}`, 'freeText');
            continue;
          }
          if (!rule || value === '') continue;
          const old = id === 'C4' ? ninetyPlusBirthDate(value) : undefined;
          if (old !== undefined) this.pseudonyms.noteDate(value, old, true);
          else if (id === 'C4') this.birthDate = true;
          const made = old ?? this.replace(rule.rule, value, offsetDays, false);
          this.birthDate = false;
          if (made === undefined || made === value) continue;
          fields[position] = field.slice(0, 2) + made.slice(0, rule.max);
          report.add(`${/^AM\d\d$/.test(segmentId) ? segmentId : 'D0'}.${field.slice(0, 2)}`, KIND_OF[rule.rule] ?? (rule.rule as IdentifierKind));
        }
        return fields.join('\x1C');
      })
      .join('');
    // Known identifiers travel into every other field, once every segment gave its own (never a field's id).
    const needles = this.pseudonyms.currentNeedles();
    if (!needles || needles.size === 0) return rewritten;
    const pieces = rewritten.split(/([\x1C\x1D\x1E])/);
    for (let index = 2; index < pieces.length; index += 2) {
      const piece = pieces[index]!;
      if (pieces[index - 1] === '\x1C' && piece.length > 2) pieces[index] = piece.slice(0, 2) + replaceNeedles(piece.slice(2), needles);
    }
    return pieces.join('');
  }

  private d0Field(content: string, id: string): string {
    const at = content.indexOf(`\x1C${id}`);
    if (at < 0) return '';
    const end = content.slice(at + 3).search(/[\x1C\x1D\x1E]/);
    return content.slice(at + 3, end < 0 ? undefined : at + 3 + end);
  }
}
