/**
 * Real-world causes read straight from the raw message, before or beside validation: LF instead of CR, MLLP framing
 * left in a file, MSH-2 damaged by escaping, timestamps without a zone or with a fraction without its dot, Z-segments,
 * an empty PID-5. One linear pass over the lines; nothing here reads or returns a value, only where a cause shows.
 */

/** Signals a message can show, with the first path where it shows. */
export type MessageSignals = Map<string, string>;

const TIMESTAMP_WITHOUT_DOT = /^(19|20)\d{13,}([+-]\d{4})?$/;

/** Signals of HL7 v2 content (other standards have none yet: an empty map). */
export function detectSignals(standard: string | undefined, content: string): MessageSignals {
  const signals: MessageSignals = new Map();
  if (standard !== 'hl7') return signals;
  if (content.includes('\x0b') || content.includes('\x1c')) signals.set('mllp-framing', 'MSH');
  if (content.includes('\n') && !content.includes('\r')) signals.set('lf-terminators', 'MSH');
  const lines = content.split(/\r\n|\r|\n/);
  let separator = '|';
  let lineCount = 0;
  for (const raw of lines) {
    // Bounded work: signals come from the first thousand segments, which is where they show.
    if (++lineCount > 1000) break;
    const line = raw.replace(/^[\uFEFF\x0b\x1c]+/, '');
    if (line.startsWith('MSH')) {
      separator = line[3] ?? '|';
      const fields = line.split(separator);
      const encoding = fields[1] ?? '';
      if (encoding.includes('&amp;') || encoding.includes('\\\\') || encoding.length > 5) signals.set('msh2-escaped', 'MSH.2');
      const stamp = (fields[6] ?? '').split('^')[0] ?? '';
      if (/^\d{12,}/.test(stamp) && !/[+-]\d{4}$/.test(stamp) && !signals.has('timestamp-no-zone')) signals.set('timestamp-no-zone', 'MSH.7');
    }
    const id = line.slice(0, 3);
    if (/^Z[A-Z0-9]{2}$/.test(id) && !signals.has('z-segment')) signals.set('z-segment', id);
    if (id === 'PID') {
      const name = line.split(separator)[5] ?? '';
      if (name.replace(/[\^~&]/g, '').trim() === '' && !signals.has('pid5-empty')) signals.set('pid5-empty', 'PID.5');
    }
    if (!signals.has('fraction-without-dot') && /\d{15}/.test(line)) {
      const fields = line.split(separator);
      for (let index = 1; index < fields.length; index++) {
        const first = (fields[index] ?? '').split('^')[0]!;
        if (TIMESTAMP_WITHOUT_DOT.test(first)) {
          signals.set('fraction-without-dot', `${id}.${id === 'MSH' ? index + 1 : index}`);
          break;
        }
      }
    }
  }
  return signals;
}
