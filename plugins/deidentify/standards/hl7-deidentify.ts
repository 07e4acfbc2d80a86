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
import type { FieldDescription } from '../../../kernel/standards-registry.ts';
import { luhnCheckDigit } from '../../identifiers/api.ts';
import { scrubBase64 } from './attachments.ts';
import { ninetyPlusBirthDate, shiftHl7Date } from '../replacement/date-shift.ts';
import { FreeTextScrubber } from '../replacement/free-text-scrubber.ts';
import { replaceNeedles } from '../replacement/needles.ts';
import { patientKey } from '../replacement/patient-key.ts';
import type { IdentifierKind, Pseudonymizer } from '../replacement/pseudonyms.ts';
import type { ReportBuilder } from '../deidentify-report.ts';
import type { ZSegmentTypes } from './z-segment-types.ts';

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

/** OBX-2 value types and how OBX-5 is read for each (a type not listed, or none, is read as free text). */
const OBX_VALUE_KINDS: Record<string, FieldKind | null> = {
  ST: 'freeText',
  TX: 'freeText',
  FT: 'freeText',
  XPN: 'XPN',
  XCN: 'XCN',
  XAD: 'XAD',
  XTN: 'XTN',
  CX: 'CX',
  DT: 'DATE',
  DTM: 'DATE',
  TS: 'TS',
  CE: 'coded',
  CWE: 'coded',
  CNE: 'coded',
  CF: 'coded',
  ED: 'ED',
  RP: 'RP',
  NM: null,
  SN: null,
  NR: null,
  ID: null,
  IS: null,
  TM: null,
  CQ: null,
  MO: null,
};

/** Birth dates, moved into the 90-or-older year when they make the patient older than 89. */
const BIRTH_DATES = new Set(['PID.7', 'NK1.16', 'GT1.11', 'IN1.18', 'IN2.3']);

/** Data types read as free text (scrubbed by the recognisers). */
const TEXT_TYPES = new Set(['ST', 'TX', 'FT', 'GTS']);
/** Coded types whose text components (2, 5 and 9: the texts beside the codes) are free text. */
const CODED_TYPES = new Set(['CE', 'CWE', 'CNE', 'CF']);

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

/** How one value is replaced (an identifier kind replaces by shape). */
type Replacement = 'family' | 'given' | 'street' | 'phoneOrEmail' | 'providerId' | IdentifierKind;

/** Given names (words) replaced one by one, so "Mary Ann" stays two names. */
function givenNames(pseudonyms: Pseudonymizer, text: string): string {
  if (!text.includes(' ')) return pseudonyms.givenName(text);
  return text
    .split(' ')
    .map((word) => (word ? pseudonyms.givenName(word) : word))
    .join(' ');
}

/** How one field is rewritten. */
type FieldKind = 'XPN' | 'XCN' | 'XAD' | 'XTN' | 'CX' | 'DLN' | 'DATE' | 'TS' | 'coded' | 'ED' | 'RP' | 'redact' | IdentifierKind;

interface MessageContext {
  delimiters: Delimiters;
  version: string | undefined;
  offsetDays: number;
  report: ReportBuilder;
  pseudonyms: Pseudonymizer;
  /** Writes a replacement into the message: delimiters in it escaped. */
  escape: (value: string) => string;
}

/** Escapers made so far, by the five delimiters (nearly every feed uses `|^~\\&`: one escaper serves them all). */
const ESCAPERS = new Map<string, (value: string) => string>();

/** A value with the message's delimiters written as HL7 escape sequences. */
function escapeFor(delimiters: Delimiters): (value: string) => string {
  const { field, component, repetition, escape, subcomponent } = delimiters;
  const key = field + component + repetition + escape + subcomponent;
  let escaper = ESCAPERS.get(key);
  if (escaper) return escaper;
  const names: Record<string, string> = { [escape]: 'E', [field]: 'F', [component]: 'S', [repetition]: 'R', [subcomponent]: 'T' };
  const special = new RegExp(`[${[...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}\\r\\n]`);
  escaper = (value) => {
    // Most replacements hold no delimiter: they are written as they are.
    if (!special.test(value)) return value;
    let out = '';
    for (const char of value) out += names[char] !== undefined ? `${escape}${names[char]}${escape}` : char === '\r' || char === '\n' ? ' ' : char;
    return out;
  };
  if (ESCAPERS.size >= 1_000) ESCAPERS.clear();
  ESCAPERS.set(key, escaper);
  return escaper;
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

/** The MSH position in a line (after a BOM or MLLP start block), or -1. Only the line's first five characters are read. */
function mshAt(line: string): number {
  for (let at = 0; at <= 2; at++) if (line.startsWith('MSH', at)) return line.length > at + 3 ? at : -1;
  return -1;
}

/** An encoding character, or `fallback` when it is missing, the field separator, a letter, a digit or a blank. */
function usable(char: string | undefined, field: string, fallback: string): string {
  return char && char !== field && !/[A-Za-z0-9\s]/.test(char) ? char : fallback;
}

function delimitersOf(msh: string): Delimiters {
  const field = msh[3] ?? '|';
  const encoding = msh.slice(4, msh.indexOf(field, 4) >= 0 ? msh.indexOf(field, 4) : undefined);
  return {
    field,
    component: usable(encoding[0], field, '^'),
    repetition: usable(encoding[1], field, '~'),
    escape: usable(encoding[2], field, '\\'),
    subcomponent: usable(encoding[3], field, '&'),
  };
}

/** MSH-12's version id (its first component, trimmed), or undefined; MSH is read up to that field only. */
function versionOf(msh: string, delimiters: Delimiters): string | undefined {
  let at = 0;
  for (let field = 0; field < 11; field++) {
    at = msh.indexOf(delimiters.field, at);
    if (at < 0) return undefined;
    at++;
  }
  let end = msh.indexOf(delimiters.field, at);
  if (end < 0) end = msh.length;
  const component = msh.indexOf(delimiters.component, at);
  if (component >= 0 && component < end) end = component;
  return msh.slice(at, end).trim() || undefined;
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
  private readonly planLists = new Map<string, Map<string, Array<FieldKind | null> | null>>();
  private readonly componentPaths = new Map<string, string[]>();
  private readonly fieldPaths = new Map<string, string[]>();
  private readonly scrubber: FreeTextScrubber;

  /**
   * @param describe data types of the standard's fields
   * @param zSegmentTypes data types of Z-segment fields from the profile packs (z-segment-types.ts)
   * @param safePaths segments (`ZPI`) and fields (`ZPI.3`) kept when they cannot be classified
   */
  constructor(
    private readonly pseudonyms: Pseudonymizer,
    private readonly describe: Hl7Describe,
    private readonly zSegmentTypes: ZSegmentTypes = new Map(),
    private readonly safePaths: ReadonlySet<string> = new Set(),
  ) {
    this.scrubber = new FreeTextScrubber(pseudonyms);
  }

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
    const version = versionOf(msh, delimiters);
    const context: MessageContext = {
      delimiters,
      version,
      offsetDays: this.pseudonyms.dateOffsetDays(this.patientKey(lines, delimiters)),
      report,
      pseudonyms: this.pseudonyms,
      escape: escapeFor(delimiters),
    };
    const bodies: string[] = [];
    for (let index = 1; index < lines.length; index++) bodies.push(this.segment(lines[index]!.body, context));
    // Known identifiers travel: every other occurrence of a replaced value, anywhere after MSH, gets its pseudonym.
    const needles = this.pseudonyms.currentNeedles();
    let out = lines[0]!.body + lines[0]!.end;
    for (let index = 1; index < lines.length; index++) {
      let body = bodies[index - 1]!;
      if (needles) {
        const before = body;
        let count = 0;
        body = replaceNeedles(before, needles, context.escape, () => count++);
        if (count > 0) this.countTravelled(report, before.slice(0, 3), count);
      }
      out += body + lines[index]!.end;
    }
    return out;
  }

  /** Counts `count` needles replaced in a segment by the travel pass. */
  private countTravelled(report: ReportBuilder, segment: string, count: number): void {
    for (let index = 0; index < count; index++) report.add(segment, 'otherIdentifier');
  }

  /** The patient's name and birth date (patient-key.ts), else PID-3's first identifier, else none. */
  private patientKey(lines: Array<{ body: string }>, delimiters: Delimiters): string {
    const pid = lines.find((line) => line.body.startsWith('PID'));
    if (!pid) return '';
    const fields = pid.body.split(delimiters.field);
    const firstId = (fields[3] ?? '').split(delimiters.repetition)[0]!.split(delimiters.component);
    const name = (fields[5] ?? '').split(delimiters.repetition)[0]!.split(delimiters.component);
    const family = unescaped((name[0] ?? '').split(delimiters.subcomponent)[0]!, delimiters.escape);
    const birth = (fields[7] ?? '').split(delimiters.component)[0];
    return patientKey(family, unescaped(name[1] ?? '', delimiters.escape), birth, firstId[0] ? `id:${unescaped(firstId[0], delimiters.escape)}` : '');
  }

  private segment(body: string, context: MessageContext): string {
    const id = body.slice(0, 3);
    if (!SEGMENT_ID.test(id) || body.length > 3 && body[3] !== context.delimiters.field) return body;
    if (id === 'MSH') return body;
    // Segments with nothing to replace are not split at all.
    const plans = this.segmentPlans(id, context.version);
    if (plans === null) return body;
    // Fields are walked in place: only a field with a plan is cut out, and only changed fields are written anew.
    const separator = context.delimiters.field;
    let out = '';
    let copied = 0;
    let obxType = '';
    let number = 0;
    for (let at = 3; at < body.length; ) {
      number++;
      const start = at + 1;
      let end = body.indexOf(separator, start);
      if (end < 0) end = body.length;
      at = end;
      if (end === start) continue;
      if (number === 2 && id === 'OBX') obxType = body.slice(start, end).trim().toUpperCase();
      let kind = number < plans.length ? plans[number]! : this.plan(id, number, context.version);
      if (id === 'OBX' && number === 5) kind = obxType in OBX_VALUE_KINDS ? OBX_VALUE_KINDS[obxType]! : 'freeText';
      if (!kind) continue;
      const value = body.slice(start, end);
      if (value === '""') continue;
      const path = this.fieldPath(id, number);
      if (kind === 'redact') {
        out += body.slice(copied, start) + this.redact(value, path, context);
        copied = end;
        continue;
      }
      // The ED and RP of OBX-5 hold their components in the field itself: never read as repetitions.
      let rewritten: string;
      if (!value.includes(context.delimiters.repetition)) rewritten = this.rewrite(kind, value, path, context);
      else {
        const repetitions = value.split(context.delimiters.repetition);
        for (let index = 0; index < repetitions.length; index++) {
          const repetition = repetitions[index]!;
          if (repetition !== '' && repetition !== '""') repetitions[index] = this.rewrite(kind, repetition, path, context);
        }
        rewritten = repetitions.join(context.delimiters.repetition);
      }
      if (rewritten !== value) {
        out += body.slice(copied, start) + rewritten;
        copied = end;
      }
    }
    return copied === 0 ? body : out + body.slice(copied);
  }

  /**
   * The plans of fields 0..100 of `segment` in `version`, as one array, or null when none of them has a plan (the
   * segment is then not split at all). Cached per version, then segment: two look-ups, no key string per segment.
   */
  private segmentPlans(segment: string, version: string | undefined): ReadonlyArray<FieldKind | null> | null {
    let bySegment = this.planLists.get(version ?? '');
    if (!bySegment) {
      // MSH-12 is the sender's text: the cache is cleared rather than grown by versions nobody defines.
      if (this.planLists.size > 100) this.planLists.clear();
      bySegment = new Map();
      this.planLists.set(version ?? '', bySegment);
    }
    let list = bySegment.get(segment);
    if (list === undefined) {
      const made: Array<FieldKind | null> = [null];
      let any = segment === 'OBX' || segment === 'NTE' || segment.startsWith('Z');
      for (let number = 1; number <= 100; number++) {
        const plan = this.plan(segment, number, version);
        made.push(plan);
        if (plan !== null) any = true;
      }
      list = any ? made : null;
      if (bySegment.size > 10_000) bySegment.clear();
      bySegment.set(segment, list);
    }
    return list;
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
        type = segment.startsWith('Z') ? this.zSegmentTypes.get(segment)?.[number - 1] : this.describe(path, version)?.dataType?.toUpperCase();
      } catch {
        type = undefined;
      }
      const safe = this.safePaths.has(segment) || this.safePaths.has(path);
      const zFields = segment.startsWith('Z') ? this.zSegmentTypes.get(segment) : undefined;
      // Unknown means redacted: a Z-segment no pack defines, a field past a pack's or the standard's definition.
      if (!safe && segment.startsWith('Z') && (!zFields || number > zFields.length)) return this.remember(key, 'redact');
      if (!safe && !segment.startsWith('Z') && type === undefined && number > 1 && this.knownSegment(segment, version)) return this.remember(key, 'redact');
      if (type !== undefined && TEXT_TYPES.has(type)) kind = 'freeText';
      else if (type !== undefined && CODED_TYPES.has(type)) kind = 'coded';
      else if (type === 'ED' || type === 'RP') kind = type;
      if (type === 'XPN' || type === 'XCN' || type === 'XAD' || type === 'XTN') kind = type;
      // PPN (a person with a time stamp, TXA-22 and the like) reads as XCN: the time stamp is component 15.
      else if (type === 'PPN') kind = 'XCN';
      else if (type === 'DT' || type === 'DTM') kind = 'DATE';
      else if (type === 'TS') kind = 'TS';
      else if ((type === 'CX' || type === 'DLN') && (PEOPLE_SEGMENTS.has(segment) || segment.startsWith('Z'))) kind = type;
    }
    return this.remember(key, kind);
  }

  private remember(key: string, kind: FieldKind | null): FieldKind | null {
    // MSH-12 is the sender's text: the caches are cleared rather than grown by versions nobody defines.
    if (this.plans.size > 50_000) this.plans.clear();
    this.plans.set(key, kind);
    return kind;
  }

  /** Whether the standard defines `segment` in `version` (its first field has a type). */
  private knownSegment(segment: string, version: string | undefined): boolean {
    try {
      return this.describe(`${segment}.1`, version)?.dataType !== undefined;
    } catch {
      return false;
    }
  }

  /**
   * An unclassifiable value replaced by a keyed placeholder of the same shape (digits for digits, letters for letters
   * of the same case; delimiters, blanks and punctuation kept), its path listed in the report's `redacted`.
   */
  private redact(value: string, path: string, context: MessageContext): string {
    const { delimiters } = context;
    context.report.redact(path);
    context.report.add(path, 'otherIdentifier');
    let out = '';
    let run = '';
    const flush = () => {
      if (run) out += context.escape(this.pseudonyms.placeholder(unescaped(run, delimiters.escape)));
      run = '';
    };
    for (const char of value) {
      if (char === delimiters.component || char === delimiters.repetition || char === delimiters.subcomponent) {
        flush();
        out += char;
      } else run += char;
    }
    flush();
    return out;
  }

  /** `PID` and 5 -> `PID.5`, made once per segment id and field (see {@link componentPath}). */
  private fieldPath(segment: string, number: number): string {
    let list = this.fieldPaths.get(segment);
    if (!list) {
      list = [];
      if (this.fieldPaths.size > 10_000) this.fieldPaths.clear();
      this.fieldPaths.set(segment, list);
    }
    return (list[number] ??= `${segment}.${number}`);
  }

  /**
   * `PID.5` and component index 0 -> `PID.5.1`, made once: the same string object each time, so the report's map
   * hashes it once rather than for every replaced value.
   */
  private componentPath(path: string, index: number): string {
    let list = this.componentPaths.get(path);
    if (!list) {
      list = [];
      if (this.componentPaths.size > 10_000) this.componentPaths.clear();
      this.componentPaths.set(path, list);
    }
    return (list[index] ??= `${path}.${index + 1}`);
  }

  /** One value made from another by a replacement rule (no closures per call: this runs for every field). */
  private make(rule: Replacement, text: string, path: string, context: MessageContext): string {
    const { pseudonyms } = context;
    switch (rule) {
      case 'family':
        return pseudonyms.familyName(text);
      case 'given':
        return givenNames(pseudonyms, text);
      case 'street':
        return pseudonyms.streetLine(text);
      case 'city':
        return pseudonyms.city(text);
      case 'county':
        return pseudonyms.county(text);
      case 'postalCode':
        return pseudonyms.postalCode(text);
      case 'phone':
        return pseudonyms.phone(text);
      case 'email':
        return pseudonyms.email(text);
      case 'phoneOrEmail':
        return text.includes('@') ? pseudonyms.email(text) : pseudonyms.phone(text);
      case 'freeText':
        return this.scrub(text, path, context);
      case 'ssn':
        return pseudonyms.ssn(text);
      case 'providerId':
        return /^\d{10}$/.test(text) ? pseudonyms.npi(text) : pseudonyms.shaped('otherIdentifier', text);
      case 'date':
        return this.shiftOrDisguise(text, path, context);
      default:
        return pseudonyms.shaped(rule, text);
    }
  }

  /** Replaces the first subcomponent of component `index` (when filled); counts it under `kind`. */
  private setComponent(components: string[], index: number, rule: Replacement, kind: IdentifierKind, path: string, context: MessageContext): void {
    const current = components[index];
    if (current === undefined || current === '' || current === '""') return;
    const { delimiters } = context;
    const cut = current.indexOf(delimiters.subcomponent);
    const first = cut < 0 ? current : current.slice(0, cut);
    components[index] = this.make(rule, unescaped(first, delimiters.escape), path, context) + (cut < 0 ? '' : current.slice(cut));
    context.report.add(this.componentPath(path, index), kind);
  }

  /** Replaces the filled subcomponents of component `index` from `from` to `to` (inclusive). */
  private setSubcomponents(components: string[], index: number, from: number, to: number, rule: Replacement, kind: IdentifierKind, path: string, context: MessageContext): void {
    const current = components[index];
    if (current === undefined || current === '') return;
    const { delimiters } = context;
    const parts = current.split(delimiters.subcomponent);
    let touched = false;
    for (let position = from; position <= to && position < parts.length; position++) {
      const part = parts[position]!;
      if (part === '' || part === '""') continue;
      parts[position] = this.make(rule, unescaped(part, delimiters.escape), path, context);
      touched = true;
    }
    if (touched) {
      components[index] = parts.join(delimiters.subcomponent);
      context.report.add(this.componentPath(path, index), kind);
    }
  }

  private rewrite(kind: FieldKind, value: string, path: string, context: MessageContext): string {
    const { delimiters, report, pseudonyms } = context;
    // Kinds that read the field whole are answered before it is split into components.
    switch (kind) {
      case 'DATE':
        return this.dateField(value, path, context);
      case 'freeText':
        return this.scrub(value, path, context);
      case 'ssn':
        report.add(path, 'ssn');
        return pseudonyms.ssn(unescaped(value, delimiters.escape));
      case 'redact':
        return this.redact(value, path, context);
      default:
        break;
    }
    const components = value.split(delimiters.component);
    switch (kind) {
      case 'XPN':
        this.setSubcomponents(components, 0, 0, 4, 'family', 'name', path, context);
        this.setComponent(components, 1, 'given', 'name', path, context);
        this.setComponent(components, 2, 'given', 'name', path, context);
        break;
      case 'XCN':
        this.setComponent(components, 0, 'providerId', 'otherIdentifier', path, context);
        this.setSubcomponents(components, 1, 0, 4, 'family', 'name', path, context);
        this.setComponent(components, 2, 'given', 'name', path, context);
        this.setComponent(components, 3, 'given', 'name', path, context);
        this.setSubcomponents(components, 14, 0, 0, 'date', 'date', path, context);
        break;
      case 'XAD':
        this.setSubcomponents(components, 0, 0, 0, 'street', 'address', path, context);
        this.setSubcomponents(components, 0, 1, 2, 'address', 'address', path, context);
        this.setComponent(components, 1, 'address', 'address', path, context);
        this.setComponent(components, 2, 'city', 'city', path, context);
        this.setComponent(components, 4, 'postalCode', 'postalCode', path, context);
        this.setComponent(components, 7, 'address', 'address', path, context);
        this.setComponent(components, 8, 'county', 'county', path, context);
        break;
      case 'XTN': {
        const use = (components[1] ?? '').toUpperCase();
        const equipment = (components[2] ?? '').toUpperCase();
        const phoneKind: IdentifierKind = equipment === 'FX' ? 'fax' : use === 'NET' || equipment === 'INTERNET' ? 'email' : 'phone';
        this.setComponent(components, 0, 'phoneOrEmail', components[0]?.includes('@') ? 'email' : phoneKind, path, context);
        this.setComponent(components, 3, 'email', 'email', path, context);
        this.setComponent(components, 5, 'phone', phoneKind, path, context);
        this.setComponent(components, 6, 'phone', phoneKind, path, context);
        this.setComponent(components, 7, phoneKind, phoneKind, path, context);
        this.setComponent(components, 8, 'freeText', 'freeText', path, context);
        this.setComponent(components, 11, 'phone', phoneKind, path, context);
        break;
      }
      case 'CX': {
        const idKind = CX_KINDS[(components[4] ?? '').split(delimiters.subcomponent)[0]!.toUpperCase()] ?? 'otherIdentifier';
        const original = unescaped(components[0] ?? '', delimiters.escape);
        this.setComponent(components, 0, idKind === 'ssn' ? 'ssn' : idKind, idKind, path, context);
        const scheme = (components[2] ?? '').toUpperCase();
        if (components[1] && original) {
          const id = components[0] ?? '';
          const digits = /^\d+$/.test(id);
          if (scheme === 'M10' && digits) components[1] = String(luhnCheckDigit(id));
          else if (scheme === 'M11' && digits) components[1] = mod11CheckDigit(id);
          // Another (or no) scheme: the check digit, keyed with its identifier, changes with it.
          else components[1] = pseudonyms.shaped(`check-digit:${original}`, components[1]);
        }
        break;
      }
      case 'DLN':
        this.setComponent(components, 0, 'licenseNumber', 'licenseNumber', path, context);
        this.setComponent(components, 2, 'date', 'date', path, context);
        break;
      case 'TS':
        this.setComponent(components, 0, 'date', 'date', path, context);
        break;
      case 'coded': {
        let touched = false;
        for (let index = 1; index < components.length && index <= 8; index += 3) {
          const text = components[index];
          if (!text) continue;
          const made = this.scrub(text, this.componentPath(path, index), context);
          if (made !== text) {
            components[index] = made;
            touched = true;
          }
        }
        // Nothing replaced (the common case): the value itself, not a copy joined again.
        if (!touched) return value;
        break;
      }
      case 'ED':
        return this.attachment(components, path, context);
      case 'RP':
        if (components[0]) components[0] = this.scrub(components[0], this.componentPath(path, 0), context);
        break;
      case 'city':
        report.add(path, 'city');
        return pseudonyms.city(unescaped(components[0] ?? value, delimiters.escape));
      case 'county':
        if (components.length === 1) {
          report.add(path, 'county');
          return pseudonyms.county(unescaped(value, delimiters.escape));
        }
        this.setComponent(components, 0, 'county', 'county', path, context);
        break;
      default:
        this.setComponent(components, 0, kind, kind, path, context);
        break;
    }
    return components.join(delimiters.component);
  }

  private dateField(value: string, path: string, context: MessageContext): string {
    context.report.add(path, 'date');
    return this.shiftOrDisguise(value, path, context);
  }

  /** Free text (a whole field or a component) with its identifiers replaced; HL7 escapes are read as text. */
  private scrub(value: string, path: string, context: MessageContext): string {
    let count = 0;
    const out = this.scrubber.scrub(value, context.offsetDays, context.escape, () => count++);
    if (count > 0) context.report.add(path, 'freeText');
    return out;
  }

  /** An ED value (source^type^subtype^encoding^data): base64 text scrubbed, anything else replaced. */
  private attachment(components: string[], path: string, context: MessageContext): string {
    const encoding = (components[3] ?? '').toUpperCase();
    const data = components[4] ?? '';
    if (encoding === 'BASE64') {
      const result = scrubBase64(unescaped(data, context.delimiters.escape), (text) => this.scrubber.scrub(text, context.offsetDays));
      if (result.data !== data) {
        components[4] = result.data;
        context.report.add(this.componentPath(path, 4), result.binary ? 'photo' : 'freeText');
      }
    } else if (encoding === 'A' || encoding === '') components[4] = this.scrub(data, this.componentPath(path, 4), context);
    else components[4] = this.redact(data, this.componentPath(path, 4), context);
    return components.join(context.delimiters.component);
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
    const old = BIRTH_DATES.has(path) ? ninetyPlusBirthDate(text) : undefined;
    if (old !== undefined) {
      context.pseudonyms.noteDate(text, old, true);
      return lead + old + trail;
    }
    const shifted = shiftHl7Date(text, context.offsetDays);
    if (shifted !== undefined) {
      if (shifted !== text) context.pseudonyms.noteDate(text, shifted, BIRTH_DATES.has(path));
      return lead + shifted + trail;
    }
    const year = /^\d{4}/.exec(text);
    if (!year) {
      context.report.note(`A value of ${path} does not start like a date and was left as it was.`);
      return value;
    }
    const years = 4 * (1 + (Math.abs(context.offsetDays) % 5)) * Math.sign(context.offsetDays || 1);
    return lead + String(Number(year[0]) + years).padStart(4, '0').slice(-4) + text.slice(4) + trail;
  }
}
