/**
 * The field rules of HL7 v2 de-identification: which fields identify and how each is read (a name, an address, an
 * identifier, a date, free text...), from the data types the standard's definitions give, the profile packs' Z-segment
 * types and the fields this file names. Each rule is looked up once per version, segment and field.
 */
import type { FieldDescription } from '../../../kernel/standards-registry.ts';
import type { IdentifierKind } from '../replacement/pseudonyms.ts';
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
export const OBX_VALUE_KINDS: Record<string, FieldKind | null> = {
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

/** Data types read as free text (scrubbed by the recognisers). */
const TEXT_TYPES = new Set(['ST', 'TX', 'FT', 'GTS']);
/** Coded types whose text components (2, 5 and 9: the texts beside the codes) are free text. */
const CODED_TYPES = new Set(['CE', 'CWE', 'CNE', 'CF']);

/** How one field is rewritten. */
export type FieldKind = 'XPN' | 'XCN' | 'XAD' | 'XTN' | 'CX' | 'DLN' | 'DATE' | 'TS' | 'coded' | 'ED' | 'RP' | 'redact' | IdentifierKind;

/**
 * The rule of every field of every segment, per version: the plans of a whole segment at once for the walk, cached
 * (the caches are cleared, not grown, by versions nobody defines).
 */
export class Hl7FieldPlans {
  private readonly plans = new Map<string, FieldKind | null>();
  private readonly planLists = new Map<string, Map<string, Array<FieldKind | null> | null>>();

  /**
   * @param describe data types of the standard's fields
   * @param zSegmentTypes data types of Z-segment fields from the profile packs (z-segment-types.ts)
   * @param safePaths segments (`ZPI`) and fields (`ZPI.3`) kept when they cannot be classified
   */
  constructor(
    private readonly describe: Hl7Describe,
    private readonly zSegmentTypes: ZSegmentTypes = new Map(),
    private readonly safePaths: ReadonlySet<string> = new Set(),
  ) {}

  /**
   * The plans of fields 0..100 of `segment` in `version`, as one array, or null when none of them has a plan (the
   * segment is then not split at all). Cached per version, then segment: two look-ups, no key string per segment.
   */
  segmentPlans(segment: string, version: string | undefined): ReadonlyArray<FieldKind | null> | null {
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
  plan(segment: string, number: number, version: string | undefined): FieldKind | null {
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

}
