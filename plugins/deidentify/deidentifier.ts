/**
 * The de-identification service: picks the standard (named or detected through the standards registry) and runs
 * that standard's engine with the pseudonymizer of the local key. The key is read (or created) on first use, so
 * starting the service or a command that never de-identifies touches no key file.
 */
import type { StandardsRegistry } from '../../kernel/standards-registry.ts';
import type { DeidentifiableStandard, DeidentifyResult, DeidentifyService } from './api.ts';
import { ReportBuilder } from './deidentify-report.ts';
import { deidentifyErrors } from './errors.ts';
import { FhirDeidentifier, TooDeepError } from './standards/fhir-deidentify.ts';
import { FhirXmlDeidentifier, FhirXmlUnreadableError } from './standards/fhir-xml-deidentify.ts';
import { Hl7Deidentifier } from './standards/hl7-deidentify.ts';
import { NcpdpDeidentifier } from './standards/ncpdp-deidentify.ts';
import { NeedleLedger } from './replacement/needle-ledger.ts';
import { findNeedles } from './replacement/needles.ts';
import { Pseudonymizer } from './replacement/pseudonyms.ts';
import type { ZSegmentTypes } from './standards/z-segment-types.ts';

const STANDARDS: readonly DeidentifiableStandard[] = ['hl7', 'fhir', 'ncpdp'];

/** Largest content one call reads, in characters: more is refused (400), never passed through. */
export const MAX_DEIDENTIFY_CHARS = 16 * 1024 * 1024;

/** Deepest JSON nesting read (FHIR resources are far shallower); checked on the text before it is parsed. */
const MAX_JSON_DEPTH = 200;

/** Whether JSON text nests deeper than `max` (one pass, strings skipped), so nothing recursive ever sees it. */
function jsonNestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92 /* \\ */) index++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) {
      if (++depth > max) return true;
    } else if (code === 125 || code === 93) depth--;
  }
  return false;
}

interface Engines {
  pseudonyms: Pseudonymizer;
  hl7: Hl7Deidentifier;
  fhir: FhirDeidentifier;
  fhirXml: FhirXmlDeidentifier;
  ncpdp: NcpdpDeidentifier;
}

/**
 * Creates the service over the registry (detection, HL7 field types), a key supplier and the Z-segment field types of
 * the profile packs.
 */
export function createDeidentifier(
  standards: StandardsRegistry,
  loadKey: () => Buffer,
  zSegmentTypes: ZSegmentTypes = new Map(),
  safePaths: readonly string[] = [],
): DeidentifyService {
  const safe = new Set(safePaths);
  let engines: Engines | undefined;
  const hl7Types = new Map<string, ReturnType<NonNullable<ReturnType<StandardsRegistry['get']>>['describe']>>();
  const describe = (path: string, version: string | undefined) => {
    const adapter = standards.get('hl7');
    if (!adapter) return undefined;
    // A version the adapter does not know is described by its default: the cache stays bounded by known versions.
    const known = version && adapter.versions.includes(version) ? version : undefined;
    const key = `${known ?? ''}|${path}`;
    if (hl7Types.has(key)) return hl7Types.get(key);
    let description;
    try {
      description = known ? adapter.describe(path, { version: known }) : adapter.describe(path);
    } catch {
      description = undefined;
    }
    hl7Types.set(key, description);
    return description;
  };
  const ready = (): Engines => {
    if (!engines) {
      const pseudonyms = new Pseudonymizer(loadKey());
      const fhir = new FhirDeidentifier(pseudonyms, safe);
      engines = { pseudonyms, hl7: new Hl7Deidentifier(pseudonyms, describe, zSegmentTypes, safe), fhir, fhirXml: new FhirXmlDeidentifier(fhir, pseudonyms), ncpdp: new NcpdpDeidentifier(pseudonyms) };
    }
    return engines;
  };

  const pick = (content: string, standard: string | undefined, field: string): DeidentifiableStandard => {
    if (standard !== undefined) {
      const id = standard.toLowerCase();
      if ((STANDARDS as readonly string[]).includes(id)) return id as DeidentifiableStandard;
      throw deidentifyErrors.create('DEIDENTIFY_STANDARD_UNKNOWN', { field });
    }
    const detected = standards.detect(content)?.id;
    if (detected && (STANDARDS as readonly string[]).includes(detected)) return detected as DeidentifiableStandard;
    throw deidentifyErrors.create('DEIDENTIFY_STANDARD_UNKNOWN', { field });
  };

  const run = (id: DeidentifiableStandard, content: string, field: string): Omit<DeidentifyResult, 'needles'> => {
    const report = new ReportBuilder();
    const { hl7, fhir, fhirXml, ncpdp } = ready();
    if (id === 'hl7') return { standard: id, messageContent: hl7.deidentify(content, report), report: report.build() };
    if (id === 'ncpdp') return { standard: id, messageContent: ncpdp.deidentify(content, report), report: report.build() };
    const bom = content.startsWith('\uFEFF') ? '\uFEFF' : '';
    const text = content.slice(bom.length).trim();
    if (text.startsWith('<')) {
      try {
        return { standard: id, messageContent: bom + fhirXml.deidentify(text, report), report: report.build() };
      } catch (error) {
        if (!(error instanceof FhirXmlUnreadableError)) throw error;
        throw deidentifyErrors.create('DEIDENTIFY_CONTENT_UNREADABLE', { field, standard: 'FHIR XML', reason: error.message.slice(0, 200) });
      }
    }
    if (jsonNestsDeeper(text, MAX_JSON_DEPTH)) {
      throw deidentifyErrors.create('DEIDENTIFY_CONTENT_UNREADABLE', { field, standard: 'FHIR JSON', reason: `it is nested deeper than ${MAX_JSON_DEPTH} levels` });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw deidentifyErrors.create('DEIDENTIFY_CONTENT_UNREADABLE', { field, standard: 'FHIR JSON', reason: (error as Error).message.slice(0, 120) });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw deidentifyErrors.create('DEIDENTIFY_CONTENT_UNREADABLE', { field, standard: 'FHIR JSON', reason: 'it is not a JSON object' });
    }
    let rewritten;
    try {
      rewritten = fhir.deidentify(parsed as never, report);
    } catch (error) {
      if (!(error instanceof TooDeepError)) throw error;
      throw deidentifyErrors.create('DEIDENTIFY_CONTENT_UNREADABLE', { field, standard: 'FHIR JSON', reason: error.message });
    }
    // Pretty-printed input stays pretty-printed; a one-line resource stays on one line.
    const output = text.includes('\n') ? JSON.stringify(rewritten, null, 2) : JSON.stringify(rewritten);
    return { standard: id, messageContent: bom + output, report: report.build() };
  };

  return {
    deidentify(content, standard, field = 'messageContent'): DeidentifyResult {
      if (content.length > MAX_DEIDENTIFY_CHARS) {
        throw deidentifyErrors.create('DEIDENTIFY_CONTENT_TOO_LARGE', { field, chars: content.length, max: MAX_DEIDENTIFY_CHARS });
      }
      const id = pick(content, standard, field);
      const ledger = new NeedleLedger();
      const result = ready().pseudonyms.recording(ledger, () => run(id, content, field));
      return { ...result, needles: ledger.needles() };
    },
    findNeedles,
  };
}
