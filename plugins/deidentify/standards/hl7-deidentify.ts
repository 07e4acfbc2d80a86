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
 *
 * This file walks the messages and their segments; the field rules are in hl7-field-plans.ts, the rewriting of one
 * field in hl7-field-rewrite.ts and the reading of the message text in hl7-message-text.ts.
 */
import type { ReportBuilder } from '../deidentify-report.ts';
import { replaceNeedles } from '../replacement/needles.ts';
import { patientKey } from '../replacement/patient-key.ts';
import type { Pseudonymizer } from '../replacement/pseudonyms.ts';
import { type Hl7Describe, Hl7FieldPlans, OBX_VALUE_KINDS } from './hl7-field-plans.ts';
import { Hl7FieldRewriter, type MessageContext } from './hl7-field-rewrite.ts';
import { type Delimiters, delimitersOf, escapeFor, mshAt, splitLines, unescaped, versionOf } from './hl7-message-text.ts';
import type { ZSegmentTypes } from './z-segment-types.ts';

const SEGMENT_ID = /^[A-Z][A-Z0-9]{2}$/;

/**
 * De-identifies HL7 v2 content (one message or many). `describe` gives data types; without one (or for a field it
 * does not know) only the fields named in hl7-field-plans.ts are replaced.
 */
export class Hl7Deidentifier {
  private readonly fieldPaths = new Map<string, string[]>();
  private readonly plans: Hl7FieldPlans;
  private readonly fields: Hl7FieldRewriter;

  /**
   * @param describe data types of the standard's fields
   * @param zSegmentTypes data types of Z-segment fields from the profile packs (z-segment-types.ts)
   * @param safePaths segments (`ZPI`) and fields (`ZPI.3`) kept when they cannot be classified
   */
  constructor(
    private readonly pseudonyms: Pseudonymizer,
    describe: Hl7Describe,
    zSegmentTypes: ZSegmentTypes = new Map(),
    safePaths: ReadonlySet<string> = new Set(),
  ) {
    this.plans = new Hl7FieldPlans(describe, zSegmentTypes, safePaths);
    this.fields = new Hl7FieldRewriter(pseudonyms);
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
    const plans = this.plans.segmentPlans(id, context.version);
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
      let kind = number < plans.length ? plans[number]! : this.plans.plan(id, number, context.version);
      if (id === 'OBX' && number === 5) kind = obxType in OBX_VALUE_KINDS ? OBX_VALUE_KINDS[obxType]! : 'freeText';
      if (!kind) continue;
      const value = body.slice(start, end);
      if (value === '""') continue;
      const path = this.fieldPath(id, number);
      if (kind === 'redact') {
        out += body.slice(copied, start) + this.fields.redact(value, path, context);
        copied = end;
        continue;
      }
      // The ED and RP of OBX-5 hold their components in the field itself: never read as repetitions.
      let rewritten: string;
      if (!value.includes(context.delimiters.repetition)) rewritten = this.fields.rewrite(kind, value, path, context);
      else {
        const repetitions = value.split(context.delimiters.repetition);
        for (let index = 0; index < repetitions.length; index++) {
          const repetition = repetitions[index]!;
          if (repetition !== '' && repetition !== '""') repetitions[index] = this.fields.rewrite(kind, repetition, path, context);
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

  /** `PID` and 5 -> `PID.5`, made once per segment id and field (its components: hl7-field-rewrite.ts). */
  private fieldPath(segment: string, number: number): string {
    let list = this.fieldPaths.get(segment);
    if (!list) {
      list = [];
      if (this.fieldPaths.size > 10_000) this.fieldPaths.clear();
      this.fieldPaths.set(segment, list);
    }
    return (list[number] ??= `${segment}.${number}`);
  }
}
