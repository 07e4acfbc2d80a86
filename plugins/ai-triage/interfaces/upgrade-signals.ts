/**
 * Upgrade features read from a message's text, beside the stored facts: what a vendor upgrade or a reconfiguration
 * changes without touching MSH-12 or SFT. For HL7 v2:
 * - `delimiters\0|^~\&`: MSH-1 and MSH-2;
 * - `encoding\0UNICODE UTF-8; CR`: MSH-18 (or `(none)`), the segment terminator (CR, LF, CRLF) and a byte-order mark;
 * - `field\0PID.13`: every field populated in the message (a field of a repeated segment once);
 * - `code\0PV1.2=I`: the first value of every field the standard types ID or IS (an HL7 table), and
 *   `code\0OBX.3.3=LN`: the coding system (third component) of every coded field (CE, CWE, CNE, CF). Only values that
 *   look like codes (at most 20 letters, digits, `.`, `_`, `-`) are kept: never free text or a patient's value.
 * For FHIR: `encoding\0JSON` or `encoding\0XML`. Field types come from the standard's own `describe`, cached per
 * version and path.
 */
import type { FieldDescription } from '../../../kernel/standards-registry.ts';
import type { TextFeatures } from '../aggregate/triage-projection.ts';

/** The data type of an HL7 field (`PID.8`) in a version, as the standard describes it. */
export type Hl7FieldTypes = (path: string, version: string | undefined) => FieldDescription | undefined;

const CODE = /^[A-Za-z0-9_.-]{1,20}$/;
const TABLE_TYPES = new Set(['ID', 'IS']);
const CODED_TYPES = new Set(['CE', 'CWE', 'CNE', 'CF']);

/** The text features of HL7 v2 and FHIR messages, with HL7 field types from `describe`. */
export function hl7TextFeatures(describe: Hl7FieldTypes): TextFeatures {
  const types = new Map<string, string | undefined>();
  const typeOf = (path: string, version: string | null): string | undefined => {
    const key = `${version ?? ''}|${path}`;
    if (types.has(key)) return types.get(key);
    let type: string | undefined;
    try {
      type = describe(path, version ?? undefined)?.dataType?.toUpperCase();
    } catch {
      type = undefined;
    }
    // Bounded by the standard's versions and fields (unknown ones are cached as undefined once).
    if (types.size < 50_000) types.set(key, type);
    return type;
  };
  return (message, raw) => {
    if (message.standard === 'fhir') return [`encoding\0${raw.trimStart().startsWith('<') ? 'XML' : 'JSON'}`];
    if (message.standard !== 'hl7') return undefined;
    return hl7Features(raw, message.version, typeOf);
  };
}

function hl7Features(raw: string, version: string | null, typeOf: (path: string, version: string | null) => string | undefined): string[] | undefined {
  const bom = raw.startsWith('\uFEFF');
  const text = raw.replace(/^[\uFEFF\x0b]+/, '');
  if (!text.startsWith('MSH') || text.length < 8) return undefined;
  const terminator = text.includes('\r\n') ? 'CRLF' : text.includes('\r') ? 'CR' : text.includes('\n') ? 'LF' : 'none';
  const separator = text[3]!;
  const lines = text.split(/\r\n|\r|\n/);
  const msh = lines[0]!.split(separator);
  const encodingCharacters = msh[1] ?? '';
  const component = encodingCharacters[0] ?? '^';
  const repetition = encodingCharacters[1] ?? '~';
  const features = new Set<string>();
  features.add(`delimiters\0${separator}${encodingCharacters}`);
  const charset = (msh[17] ?? '').split(component)[0]!.trim();
  features.add(`encoding\0${CODE.test(charset.replace(/ /g, '_')) ? charset : charset === '' ? '(none)' : '(other)'}; ${terminator}${bom ? '; BOM' : ''}`);
  for (const line of lines) {
    const segment = line.slice(0, 3);
    if (!/^[A-Z][A-Z0-9]{2}$/.test(segment)) continue;
    const fields = line.split(separator);
    for (let index = 1; index < fields.length; index++) {
      const value = fields[index]!;
      if (value === '' || value === '""') continue;
      // MSH-1 is the separator itself: MSH's fields are numbered one higher than their index.
      const number = segment === 'MSH' ? index + 1 : index;
      const path = `${segment}.${number}`;
      features.add(`field\0${path}`);
      if (segment === 'MSH' && number <= 2) continue;
      const type = typeOf(path, version);
      if (!type) continue;
      const first = value.split(repetition)[0]!;
      if (TABLE_TYPES.has(type)) {
        const code = first.split(component)[0]!;
        if (CODE.test(code)) features.add(`code\0${path}=${code}`);
      } else if (CODED_TYPES.has(type)) {
        const system = first.split(component)[2] ?? '';
        if (CODE.test(system)) features.add(`code\0${path}.3=${system}`);
      }
    }
  }
  return [...features];
}
