/**
 * Where a validation finding is in a message's text: from the finding's path in its standard's syntax (`PID.5`,
 * `Patient.name[0].family`, `NewRx.Patient.HumanPatient.Name.LastName`, `AM07.D2`) to the character range of that
 * element in the raw text, so a view can highlight it in place. Pure and linear in the text's length; never throws
 * for any text or path (a path it cannot place gives undefined).
 */
import { locateHl7 } from './hl7-position.ts';
import { locateJson } from './json-position.ts';
import { locateTelecom } from './telecom-position.ts';
import { fhirXmlSteps, locateXml, scriptSteps } from './xml-position.ts';
import type { FindingPosition } from './position.ts';

export type { FindingPosition } from './position.ts';

/** The standards whose text this module reads. */
export type PositionedStandard = 'hl7' | 'fhir' | 'ncpdp';

/** Longest path placed. */
const PATH_MAX = 500;

/** The position of a finding's path in a message's text, or undefined when the path names no place in it. */
export function locateFinding(standard: PositionedStandard, raw: string, path: string): FindingPosition | undefined {
  if (typeof raw !== 'string' || typeof path !== 'string' || path.length === 0 || path.length > PATH_MAX) return undefined;
  switch (standard) {
    case 'hl7':
      return locateHl7(raw, path);
    case 'fhir': {
      const first = firstCharacter(raw);
      if (first === '{') return locateJson(raw, path);
      if (first === '<') {
        const steps = fhirXmlSteps(path);
        return steps ? locateXml(raw, steps, path) : undefined;
      }
      return undefined;
    }
    case 'ncpdp': {
      if (firstCharacter(raw) === '<') {
        const steps = scriptSteps(path);
        return steps ? locateXml(raw, steps, path) : undefined;
      }
      return locateTelecom(raw, path);
    }
    default:
      return undefined;
  }
}

function firstCharacter(raw: string): string | undefined {
  for (let i = 0; i < raw.length && i < 4096; i++) {
    const c = raw[i];
    if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\n' && c !== '\uFEFF') return c;
  }
  return undefined;
}
