/**
 * How one HL7 v2 field is rewritten once its rule is known: the components of names, addresses, telecoms and
 * identifiers replaced by pseudonyms (check digits recomputed), dates shifted, free text and attachments scrubbed,
 * unclassifiable values redacted by shape. Only replaced characters change; every delimiter stays.
 */
import { luhnCheckDigit } from '../../identifiers/api.ts';
import { scrubBase64 } from './attachments.ts';
import { ninetyPlusBirthDate, shiftHl7Date } from '../replacement/date-shift.ts';
import { FreeTextScrubber } from '../replacement/free-text-scrubber.ts';
import type { IdentifierKind, Pseudonymizer } from '../replacement/pseudonyms.ts';
import type { ReportBuilder } from '../deidentify-report.ts';
import type { FieldKind } from './hl7-field-plans.ts';
import { type Delimiters, unescaped } from './hl7-message-text.ts';

/** Birth dates, moved into the 90-or-older year when they make the patient older than 89. */
const BIRTH_DATES = new Set(['PID.7', 'NK1.16', 'GT1.11', 'IN1.18', 'IN2.3']);

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

/** What rewriting a field needs to know of the message it is in. */
export interface MessageContext {
  delimiters: Delimiters;
  version: string | undefined;
  offsetDays: number;
  report: ReportBuilder;
  pseudonyms: Pseudonymizer;
  /** Writes a replacement into the message: delimiters in it escaped. */
  escape: (value: string) => string;
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

/** Rewrites the fields of HL7 v2 messages, one value at a time, counting what it replaced in the message's report. */
export class Hl7FieldRewriter {
  private readonly componentPaths = new Map<string, string[]>();
  private readonly scrubber: FreeTextScrubber;

  constructor(private readonly pseudonyms: Pseudonymizer) {
    this.scrubber = new FreeTextScrubber(pseudonyms);
  }

  /**
   * An unclassifiable value replaced by a keyed placeholder of the same shape (digits for digits, letters for letters
   * of the same case; delimiters, blanks and punctuation kept), its path listed in the report's `redacted`.
   */
  redact(value: string, path: string, context: MessageContext): string {
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

  /** Field `value` (one repetition) at `path` rewritten by the rule `kind`. */
  rewrite(kind: FieldKind, value: string, path: string, context: MessageContext): string {
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
