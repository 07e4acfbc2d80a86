/**
 * U+FFFD REPLACEMENT CHARACTER in message content. A decoder writes it where the bytes it was given were not valid
 * in the character set it read them as (a Latin-1 `Müller` read as UTF-8 becomes `M�ller`): the original characters
 * are lost, and a message that carries them must not pass as valid. Byte input that fails to decode is reported by
 * the parser; this finds the characters in text that was decoded before it reached the validator (a request body)
 * or that the sender already wrote damaged, and names the fields that hold them.
 */
import type { Hl7Segment } from '../hl7-model.ts';

/** Where replacement characters were found in one message. */
export interface ReplacementCharacterFinding {
  /** Path of the first field holding one (`PID.5`, `OBX[2].5`). */
  firstField: string;
  /** How many fields hold one. */
  fieldCount: number;
}

function fieldHoldsReplacement(field: string[][][]): boolean {
  for (let r = 0; r < field.length; r++) {
    const rep = field[r] as string[][];
    for (let c = 0; c < rep.length; c++) {
      const comp = rep[c] as string[];
      for (let s = 0; s < comp.length; s++) if ((comp[s] as string).indexOf('\uFFFD') !== -1) return true;
    }
  }
  return false;
}

/**
 * Finds the fields of a message's segments that hold U+FFFD. `raw` is the message's text: when it holds none (the
 * usual case) nothing is walked. Linear in the message's size.
 */
export function findReplacementCharacters(raw: string, segments: readonly Hl7Segment[], pathOf: (segment: Hl7Segment) => string): ReplacementCharacterFinding | undefined {
  if (raw.indexOf('\uFFFD') === -1) return undefined;
  let firstField: string | undefined;
  let fieldCount = 0;
  for (const segment of segments) {
    for (let f = 1; f < segment.fields.length; f++) {
      if (!fieldHoldsReplacement(segment.fields[f] as string[][][])) continue;
      fieldCount++;
      firstField ??= `${pathOf(segment)}.${f}`;
    }
  }
  return firstField === undefined ? undefined : { firstField, fieldCount };
}
