/**
 * A growable byte buffer that JSON text is written into directly, as UTF-8: no intermediate strings. A FHIR
 * population is gigabytes of JSON; building it as strings made long chains of concatenations that cost more to
 * flatten and encode than to build. Strings are written exactly as `JSON.stringify` writes them.
 */

// Literal pieces of JSON syntax, encoded once: copying bytes is several times faster than encoding characters.
const LITERALS = new Map<string, Uint8Array>();

/** Buffers kept for reuse at most: enough for the chunks a file's queue holds while the next one is written. */
const SPARE_BUFFERS = 4;

/** JSON text as UTF-8 bytes, appended piece by piece. */
export class JsonBytes {
  private buffer: Buffer;
  private position = 0;
  // Buffers handed back by `recycle`: a fresh buffer per chunk costs the kernel a page fault per page and the
  // collector a large object, for every megabyte of a multi-gigabyte output.
  private readonly spare: Buffer[] = [];

  constructor(private readonly capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.position;
  }

  private reserve(bytes: number): void {
    if (this.position + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.position + bytes));
    this.buffer.copy(grown, 0, 0, this.position);
    this.buffer = grown;
  }

  /** Appends bytes already encoded. */
  bytes(encoded: Uint8Array): void {
    this.reserve(encoded.length);
    this.buffer.set(encoded, this.position);
    this.position += encoded.length;
  }

  /**
   * Appends a literal piece of JSON (syntax, a constant fragment), encoded once and then copied: only for the fixed
   * pieces of a writer, never for values (each distinct text is kept for the life of the process).
   */
  lit(text: string): void {
    let encoded = LITERALS.get(text);
    if (encoded === undefined) {
      encoded = Buffer.from(text, 'utf8');
      LITERALS.set(text, encoded);
    }
    this.bytes(encoded);
  }

  /** Appends `n` (a non-negative integer) as `width` lower-case hex digits, zero-padded. */
  hex(n: number, width: number): void {
    this.reserve(width);
    const b = this.buffer;
    let v = n;
    for (let i = this.position + width - 1; i >= this.position; i--) {
      const d = v % 16;
      b[i] = d < 10 ? 48 + d : 87 + d;
      v = Math.floor(v / 16);
    }
    this.position += width;
  }

  /** Appends text known to need no JSON escaping (literal JSON syntax, hex digits, numbers). */
  raw(text: string): void {
    const n = text.length;
    this.reserve(n * 3);
    const b = this.buffer;
    let p = this.position;
    // Short pieces are copied by hand (a call into the encoder costs more than the copy); long ones by the encoder.
    if (n > 48) {
      this.position = p + b.write(text, p, 'utf8');
      return;
    }
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) {
        this.position = p + b.write(text.slice(i), p, 'utf8');
        return;
      }
      b[p++] = c;
    }
    this.position = p;
  }

  /** Appends `text` as a JSON string literal, quotes included, exactly as `JSON.stringify(text)` writes it. */
  string(text: string): void {
    this.writeString(text, true);
  }

  /** Appends the characters of the JSON string literal of `text` without its quotes (a piece of a longer string). */
  stringContent(text: string): void {
    this.writeString(text, false);
  }

  private writeString(text: string, quoted: boolean): void {
    const n = text.length;
    this.reserve(n + 2);
    const b = this.buffer;
    const start = this.position;
    let p = start;
    if (quoted) b[p++] = 34;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      // Plain ASCII is copied; anything else (escapes, non-ASCII, surrogates) goes through JSON.stringify and UTF-8.
      if (c < 32 || c === 34 || c === 92 || c >= 128) {
        this.position = start;
        this.raw(quoted ? JSON.stringify(text) : JSON.stringify(text).slice(1, -1));
        return;
      }
      b[p++] = c;
    }
    if (quoted) b[p++] = 34;
    this.position = p;
  }

  /** Appends a number as JSON writes it (non-finite numbers become null, as in `JSON.stringify`). */
  number(n: number): void {
    // Small non-negative integers (most values) are written digit by digit: no string to make and copy.
    if (n >= 0 && n < 1e9 && Number.isInteger(n)) {
      const width = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : 9;
      this.reserve(width);
      const b = this.buffer;
      let v = n;
      for (let i = this.position + width - 1; i >= this.position; i--) {
        b[i] = 48 + (v % 10);
        v = Math.floor(v / 10);
      }
      this.position += width;
      return;
    }
    this.raw(Number.isFinite(n) ? String(n) : 'null');
  }

  /**
   * Hands over what was written and goes on in a fresh buffer (or one given back by `recycle`). The bytes handed
   * over are never touched again until they are given back.
   */
  take(): Buffer {
    const out = this.buffer.subarray(0, this.position);
    this.buffer = this.spare.pop() ?? Buffer.allocUnsafe(this.capacity);
    this.position = 0;
    return out;
  }

  /** Gives back what `take` handed over, once its bytes are consumed (written out), to be written into again. */
  recycle(taken: Buffer): void {
    const whole = taken.buffer;
    // Only a buffer `take` handed over owns its whole memory from offset 0 (a small one may share Node's pool).
    if (taken.byteOffset !== 0 || whole.byteLength < this.capacity || this.spare.length >= SPARE_BUFFERS) return;
    this.spare.push(Buffer.from(whole, 0, whole.byteLength));
  }
}
