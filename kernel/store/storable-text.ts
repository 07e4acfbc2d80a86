/**
 * Text bound for the store, made storable in one place. PostgreSQL cannot store U+0000 in text (`invalid byte
 * sequence for encoding "UTF8": 0x00`), so one NUL in a received message (MSH-10, PID-3) would fail every insert and
 * every query that binds it, for ever. Every parameter bound on a PostgreSQL connection of the store passes through
 * {@link storableParameters}: a NUL in any string (also inside arrays) becomes U+FFFD, the replacement character, as a
 * lone UTF-16 surrogate already does on its way to UTF-8 in either store. Nothing else changes.
 */

const NUL = /\u0000/g;

/** The text with every U+0000 replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.includes('\u0000') ? text.replace(NUL, '\uFFFD') : text;
}

function storable(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  return Array.isArray(value) ? storableParameters(value) : value;
}

/** Parameters as they may be bound: strings (also inside arrays) made storable; the same array when nothing changed. */
export function storableParameters(values: readonly unknown[]): unknown[] {
  let changed = false;
  const out = values.map((value) => {
    const kept = storable(value);
    if (kept !== value) changed = true;
    return kept;
  });
  return changed ? out : (values as unknown[]);
}

/** What a pg client offers for queries. */
interface QueryingClient {
  query: (...args: unknown[]) => unknown;
}

/**
 * Makes every query of a pg client bind storable parameters: `query(text, values)`, `query({text, values})` and
 * submittables such as a cursor (`query(new Cursor(text, values))`).
 */
export function bindStorableText(client: QueryingClient): void {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [first, second] = args;
    if (typeof first === 'string' && Array.isArray(second)) args[1] = storableParameters(second);
    else if (typeof first === 'object' && first !== null && Array.isArray((first as { values?: unknown }).values)) {
      (first as { values: unknown[] }).values = storableParameters((first as { values: unknown[] }).values);
    }
    return query(...args);
  };
}
