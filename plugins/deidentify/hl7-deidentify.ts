/**
 * De-identification of HL7 v2 messages, field by field. Delimiters come from each message's own MSH-1/MSH-2, and only
 * the characters of replaced values change: segment terminators (CR, LF or CRLF), MLLP framing, empty fields and
 * every separator stay byte for byte, so the result parses and validates as the original did.
 *
 * Which fields are identifying follows the HL7 data types the standard's own definitions give (`describe` of the
 * registered adapter): person names (XPN, XCN), addresses (XAD), telecom (XTN), identifiers (CX, DLN), dates and
 * timestamps (DT, DTM, TS), plus the fields whose type is plain text but whose meaning identifies (PID-19 SSN,
 * PID-23 birth place, IN1-36 policy number...), NTE free text, and OBX-5 by the type OBX-2 names. MSH (routing, not
 * the patient) is left as it is; Z-segments are listed in the report's notes, since only a profile says what they hold.
 */
import type { FieldDescription } from '../../kernel/standards-registry.ts';
import { luhnCheckDigit } from '../identifiers/api.ts';
import { shiftHl7Date } from './date-shift.ts';
import type { IdentifierKind, Pseudonymizer } from './pseudonyms.ts';
import type { ReportBuilder } from './deidentify-report.ts';

/** What the engine needs from the HL7 standard: the data type of a field (from the adapter's `describe`). */
export type Hl7Describe = (path: string, version: string | undefined) => FieldDescription | undefined;

/** Segments whose dates, names, addresses, phones and identifiers belong to the patient or people around them. */
const PEOPLE_SEGMENTS = new Set(['PID', 'PD1', 'NK1', 'GT1', 'IN1', 'IN2', 'IN3', 'PV1', 'PV2', 'MRG', 'ACC', 'ROL', 'AUT', 'UB1', 'UB2']);

/** Fields typed as plain text (or a type of another meaning) that identify, by path. */
const EXPLICIT_KINDS: Record<string, FieldKind> = {
  // Withdrawn from later versions (no type there), still sent by many feeds.
  'PID.2': 'CX',
  'PID.4': 'CX',
  'PID.19': 'ssn',
  'PID.20': 'licenseNumber',
  'PID.23': 'city',
  'PID.12': 'county',
  'NK1.37': 'ssn',
  'GT1.12': 'ssn',
  'IN1.36': 'healthPlanNumber',
  'IN1.8': 'healthPlanNumber',
  'IN2.1': 'otherIdentifier',
  'IN2.2': 'ssn',
  'IN2.6': 'healthPlanNumber',
  'IN2.8': 'healthPlanNumber',
  'IN2.61': 'healthPlanNumber',
  'NTE.3': 'freeText',
  'OBX.5': 'freeText',
};

/** OBX-2 value types whose OBX-5 identifies (free text may name anyone). */
const OBX_VALUE_KINDS: Record<string, FieldKind> = { TX: 'freeText', FT: 'freeText', XPN: 'XPN', XAD: 'XAD', XTN: 'XTN', CX: 'CX', DT: 'DATE', DTM: 'DATE', TS: 'TS' };

/** CX-5 identifier type codes (HL7 table 0203) and the Safe Harbor kind they are. */
const CX_KINDS: Record<string, IdentifierKind> = {
  MR: 'medicalRecordNumber',
  MRT: 'medicalRecordNumber',
  PI: 'medicalRecordNumber',
  PT: 'medicalRecordNumber',
  SS: 'ssn',
  SSN: 'ssn',
  AN: 'accountNumber',
  VN: 'accountNumber',
  PN: 'accountNumber',
  MA: 'healthPlanNumber',
  MB: 'healthPlanNumber',
  MC: 'healthPlanNumber',
  MCD: 'healthPlanNumber',
  MCR: 'healthPlanNumber',
  HC: 'healthPlanNumber',
  SN: 'healthPlanNumber',
  DL: 'licenseNumber',
  NPI: 'otherIdentifier',
};

interface Delimiters {
  field: string;
  component: string;
  repetition: string;
  escape: string;
  subcomponent: string;
}

/** How one field is rewritten. */
type FieldKind = 'XPN' | 'XCN' | 'XAD' | 'XTN' | 'CX' | 'DLN' | 'DATE' | 'TS' | IdentifierKind;

interface MessageContext {
  delimiters: Delimiters;
  version: string | undefined;
  offsetDays: number;
  report: ReportBuilder;
  pseudonyms: Pseudonymizer;
}

const SEGMENT_ID = /^[A-Z][A-Z0-9]{2}$/;

/** Splits text into lines, keeping each terminator with its line so the output can be rebuilt byte for byte. */
function splitLines(text: string): Array<{ body: string; end: string }> {
  const lines: Array<{ body: string; end: string }> = [];
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 13 || char === 10) {
      const end = char === 13 && text.charCodeAt(index + 1) === 10 ? '\r\n' : text[index]!;
      lines.push({ body: text.slice(start, index), end });
      index += end.length - 1;
      start = index + 1;
    }
  }
  if (start < text.length) lines.push({ body: text.slice(start), end: '' });
  return lines;
}

/** The MSH position in a line (after a BOM or MLLP start block), or -1. */
function mshAt(line: string): number {
  const at = line.indexOf('MSH');
  return at >= 0 && at <= 2 && line.length > at + 3 ? at : -1;
}

function delimitersOf(msh: string): Delimiters {
  const field = msh[3] ?? '|';
  const encoding = msh.slice(4, msh.indexOf(field, 4) >= 0 ? msh.indexOf(field, 4) : undefined);
  const usable = (char: string | undefined, fallback: string) => (char && char !== field && !/[A-Za-z0-9\s]/.test(char) ? char : fallback);
  return {
    field,
    component: usable(encoding[0], '^'),
    repetition: usable(encoding[1], '~'),
    escape: usable(encoding[2], '\\'),
    subcomponent: usable(encoding[3], '&'),
  };
}

/** Removes HL7 escape sequences (`\F\`, `\X0D\`...) from a value before it is pseudonymised. */
function unescaped(value: string, escape: string): string {
  if (!value.includes(escape)) return value;
  let out = '';
  for (let index = 0; index < value.length; index++) {
    if (value[index] === escape) {
      const close = value.indexOf(escape, index + 1);
      if (close > index) {
        index = close;
        continue;
      }
    }
    out += value[index];
  }
  return out;
}

/** HL7's Mod 11 check digit (table 0061 `M11`); 10 is written as 0 by common practice of senders. */
function mod11CheckDigit(payload: string): string {
  let sum = 0;
  let weight = 2;
  for (let index = payload.length - 1; index >= 0; index--) {
    const digit = payload.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) continue;
    sum += digit * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const check = (11 - (sum % 11)) % 11;
  return String(check === 10 ? 0 : check);
}

/**
 * De-identifies HL7 v2 content (one message or many). `describe` gives data types; without one (or for a field it
 * does not know) only the fields named in this file are replaced.
 */
export class Hl7Deidentifier {
  private readonly plans = new Map<string, FieldKind | null>();

  constructor(
    private readonly pseudonyms: Pseudonymizer,
    private readonly describe: Hl7Describe,
  ) {}

  /** Rewrites every message of `content`, adding what it replaced to `report`. */
  deidentify(content: string, report: ReportBuilder): string {
    const lines = splitLines(content);
    const out: string[] = [];
    let index = 0;
    while (index < lines.length) {
      const at = mshAt(lines[index]!.body);
      if (at < 0) {
        const body = lines[index]!.body;
        if (body.trim() !== '') report.note('Lines outside any message (before the first MSH or between messages) were left as they were.');
        out.push(body + lines[index]!.end);
        index++;
        continue;
      }
      let end = index + 1;
      while (end < lines.length && mshAt(lines[end]!.body) < 0) end++;
      out.push(this.message(lines.slice(index, end), at, report));
      index = end;
    }
    return out.join('');
  }

  private message(lines: Array<{ body: string; end: string }>, mshOffset: number, report: ReportBuilder): string {
    const msh = lines[0]!.body.slice(mshOffset);
    const delimiters = delimitersOf(msh);
    const mshFields = msh.split(delimiters.field);
    const version = mshFields[11]?.split(delimiters.component)[0]?.trim() || undefined;
    const context: MessageContext = {
      delimiters,
      version,
      offsetDays: this.pseudonyms.dateOffsetDays(this.patientKey(lines, delimiters)),
      report,
      pseudonyms: this.pseudonyms,
    };
    let out = lines[0]!.body + lines[0]!.end;
    for (let index = 1; index < lines.length; index++) {
      const { body, end } = lines[index]!;
      out += this.segment(body, context) + end;
    }
    return out;
  }

  /** The first patient identifier (PID-3's first CX.1 with its authority), else name and birth date, else none. */
  private patientKey(lines: Array<{ body: string }>, delimiters: Delimiters): string {
    const pid = lines.find((line) => line.body.startsWith('PID'));
    if (!pid) return '';
    const fields = pid.body.split(delimiters.field);
    const firstId = (fields[3] ?? '').split(delimiters.repetition)[0]!.split(delimiters.component);
    if (firstId[0]) return `id:${firstId[0]}^${firstId[3] ?? ''}`;
    return `name:${fields[5] ?? ''}|${fields[7] ?? ''}`;
  }

  private segment(body: string, context: MessageContext): string {
    const id = body.slice(0, 3);
    if (!SEGMENT_ID.test(id) || body.length > 3 && body[3] !== context.delimiters.field) return body;
    if (id.startsWith('Z')) {
      context.report.note(`${id} (a Z-segment) was left as it was: only a profile says what its fields hold.`);
      return body;
    }
    const fields = body.split(context.delimiters.field);
    let changed = false;
    const obxType = id === 'OBX' ? (fields[2] ?? '').trim().toUpperCase() : '';
    for (let number = 1; number < fields.length; number++) {
      const value = fields[number]!;
      if (value === '' || value === '""') continue;
      let kind = this.plan(id, number, context.version);
      if (id === 'OBX' && number === 5) kind = OBX_VALUE_KINDS[obxType] ?? null;
      if (!kind) continue;
      const rewritten = value
        .split(context.delimiters.repetition)
        .map((repetition) => (repetition === '' || repetition === '""' ? repetition : this.rewrite(kind, repetition, `${id}.${number}`, context)))
        .join(context.delimiters.repetition);
      if (rewritten !== value) {
        fields[number] = rewritten;
        changed = true;
      }
    }
    return changed ? fields.join(context.delimiters.field) : body;
  }

  /** How field `number` of `segment` is rewritten in `version` (cached), or null when it is left alone. */
  private plan(segment: string, number: number, version: string | undefined): FieldKind | null {
    const key = `${version ?? ''}|${segment}.${number}`;
    const known = this.plans.get(key);
    if (known !== undefined) return known;
    const path = `${segment}.${number}`;
    let kind: FieldKind | null = EXPLICIT_KINDS[path] ?? null;
    if (!kind) {
      let type: string | undefined;
      try {
        type = this.describe(path, version)?.dataType?.toUpperCase();
      } catch {
        type = undefined;
      }
      if (type === 'XPN' || type === 'XCN' || type === 'XAD' || type === 'XTN') kind = type;
      // PPN (a person with a time stamp, TXA-22 and the like) reads as XCN: the time stamp is component 15.
      else if (type === 'PPN') kind = 'XCN';
      else if (type === 'DT' || type === 'DTM') kind = 'DATE';
      else if (type === 'TS') kind = 'TS';
      else if ((type === 'CX' || type === 'DLN') && PEOPLE_SEGMENTS.has(segment)) kind = type;
    }
    this.plans.set(key, kind);
    return kind;
  }

  private rewrite(kind: FieldKind, value: string, path: string, context: MessageContext): string {
    const { delimiters, report, pseudonyms } = context;
    const components = value.split(delimiters.component);
    const clean = (text: string) => unescaped(text, delimiters.escape);
    const setComponent = (index: number, make: (text: string) => string | undefined, reportKind: IdentifierKind) => {
      const current = components[index];
      if (current === undefined || current === '' || current === '""') return;
      const parts = current.split(delimiters.subcomponent);
      const made = make(clean(parts[0]!));
      if (made === undefined) return;
      parts[0] = made;
      components[index] = parts.join(delimiters.subcomponent);
      report.add(`${path}.${index + 1}`, reportKind);
    };
    const setSubcomponents = (index: number, positions: number[], make: (text: string) => string, reportKind: IdentifierKind) => {
      const current = components[index];
      if (current === undefined || current === '') return;
      const parts = current.split(delimiters.subcomponent);
      let touched = false;
      for (const position of positions) {
        const part = parts[position];
        if (part === undefined || part === '' || part === '""') continue;
        parts[position] = make(clean(part));
        touched = true;
      }
      if (touched) {
        components[index] = parts.join(delimiters.subcomponent);
        report.add(`${path}.${index + 1}`, reportKind);
      }
    };
    const shiftDate = (text: string) => this.shiftOrDisguise(text, path, context);
    const family = (text: string) => pseudonyms.familyName(text);
    const given = (text: string) => text.split(' ').map((word) => (word ? pseudonyms.givenName(word) : word)).join(' ');
    switch (kind) {
      case 'XPN':
        setSubcomponents(0, [0, 1, 2, 3, 4], family, 'name');
        setComponent(1, given, 'name');
        setComponent(2, given, 'name');
        break;
      case 'XCN':
        setComponent(0, (text) => (/^\d{10}$/.test(text) ? pseudonyms.npi(text) : pseudonyms.shaped('otherIdentifier', text)), 'otherIdentifier');
        setSubcomponents(1, [0, 1, 2, 3, 4], family, 'name');
        setComponent(2, given, 'name');
        setComponent(3, given, 'name');
        setSubcomponents(14, [0], shiftDate, 'date');
        break;
      case 'XAD':
        setSubcomponents(0, [0], (text) => pseudonyms.streetLine(text), 'address');
        setSubcomponents(0, [1, 2], (text) => pseudonyms.shaped('address', text), 'address');
        setComponent(1, (text) => pseudonyms.shaped('address', text), 'address');
        setComponent(2, (text) => pseudonyms.city(text), 'city');
        setComponent(4, (text) => pseudonyms.postalCode(text), 'postalCode');
        setComponent(7, (text) => pseudonyms.shaped('address', text), 'address');
        setComponent(8, (text) => pseudonyms.county(text), 'county');
        break;
      case 'XTN': {
        const use = (components[1] ?? '').toUpperCase();
        const equipment = (components[2] ?? '').toUpperCase();
        const phoneKind: IdentifierKind = equipment === 'FX' ? 'fax' : use === 'NET' || equipment === 'INTERNET' ? 'email' : 'phone';
        setComponent(0, (text) => (text.includes('@') ? pseudonyms.email(text) : pseudonyms.phone(text)), text0Kind(components[0], phoneKind));
        setComponent(3, (text) => pseudonyms.email(text), 'email');
        setComponent(5, (text) => pseudonyms.phone(text), phoneKind);
        setComponent(6, (text) => pseudonyms.phone(text), phoneKind);
        setComponent(7, (text) => pseudonyms.shaped(phoneKind, text), phoneKind);
        setComponent(8, () => pseudonyms.freeText(), 'freeText');
        setComponent(11, (text) => pseudonyms.phone(text), phoneKind);
        break;
      }
      case 'CX': {
        const idKind = CX_KINDS[(components[4] ?? '').split(delimiters.subcomponent)[0]!.toUpperCase()] ?? 'otherIdentifier';
        const original = clean(components[0] ?? '');
        setComponent(0, (text) => (idKind === 'ssn' ? pseudonyms.ssn(text) : pseudonyms.shaped(idKind, text)), idKind);
        const scheme = (components[2] ?? '').toUpperCase();
        if (components[1] && original) {
          const id = components[0] ?? '';
          const digits = /^\d+$/.test(id);
          if (scheme === 'M10' && digits) components[1] = String(luhnCheckDigit(id));
          else if (scheme === 'M11' && digits) components[1] = mod11CheckDigit(id);
          // Another (or no) scheme: the check digit, keyed with its identifier, changes with it.
          else setComponent(1, (text) => pseudonyms.shaped(`check-digit:${original}`, text), idKind);
        }
        break;
      }
      case 'DLN':
        setComponent(0, (text) => pseudonyms.shaped('licenseNumber', text), 'licenseNumber');
        setComponent(2, shiftDate, 'date');
        break;
      case 'DATE':
        return this.dateField(value, path, context);
      case 'TS':
        setComponent(0, shiftDate, 'date');
        break;
      case 'freeText':
        report.add(path, 'freeText');
        return pseudonyms.freeText();
      case 'ssn':
        report.add(path, 'ssn');
        return pseudonyms.ssn(clean(value));
      case 'city':
        report.add(path, 'city');
        return pseudonyms.city(clean(components[0] ?? value));
      case 'county':
        if (components.length === 1) report.add(path, 'county');
        if (components.length === 1) return pseudonyms.county(clean(value));
        setComponent(0, (text) => pseudonyms.county(text), 'county');
        break;
      default:
        setComponent(0, (text) => pseudonyms.shaped(kind, text), kind);
        break;
    }
    return components.join(delimiters.component);
  }

  private dateField(value: string, path: string, context: MessageContext): string {
    context.report.add(path, 'date');
    return this.shiftOrDisguise(value, path, context);
  }

  /**
   * A date shifted by the patient's offset. A value that is not a real date (month 13, 30 February, a fraction
   * without its dot) keeps what makes it wrong, so the result fails validation as the original did, but its year
   * moves by a multiple of four (which keeps 29 February a leap day or not): the original date is never left.
   * Text that does not start like a date is not a date and stays, with a note.
   */
  private shiftOrDisguise(value: string, path: string, context: MessageContext): string {
    const text = value.trim();
    // Blanks around the value are kept: a receiver (or validator) that objects to them still does.
    const lead = value.slice(0, value.indexOf(text));
    const trail = value.slice(lead.length + text.length);
    const shifted = shiftHl7Date(text, context.offsetDays);
    if (shifted !== undefined) return lead + shifted + trail;
    const year = /^\d{4}/.exec(text);
    if (!year) {
      context.report.note(`A value of ${path} does not start like a date and was left as it was.`);
      return value;
    }
    const years = 4 * (1 + (Math.abs(context.offsetDays) % 5)) * Math.sign(context.offsetDays || 1);
    return lead + String(Number(year[0]) + years).padStart(4, '0').slice(-4) + text.slice(4) + trail;
  }
}

function text0Kind(value: string | undefined, fallback: IdentifierKind): IdentifierKind {
  return value?.includes('@') ? 'email' : fallback;
}
