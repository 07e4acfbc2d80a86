/**
 * The XML escaper and decoder: escaped text holds no markup character, decoding gives the text back, and attribute
 * values escape both quotes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeXmlEntities, escapeXmlAttribute, escapeXmlText } from '../../kernel/lib/xml/xml-escape.ts';

describe('XML escaping', () => {
  it('round-trips any text through escape and decode, leaving no markup character', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '&', '<', '>', '"', "'", ';', 'l', 't', '#', ' ') }), (text) => {
        const asText = escapeXmlText(text);
        const asAttribute = escapeXmlAttribute(text);
        expect(asText).not.toMatch(/[<>]/);
        expect(asAttribute).not.toMatch(/[<>"']/);
        expect(decodeXmlEntities(asText)).toBe(text);
        expect(decodeXmlEntities(asAttribute)).toBe(text);
      }),
    );
  });

  it('escapes only what the context needs and leaves character references alone', () => {
    expect(escapeXmlText(`Tom & "Jerry" <b>`)).toBe(`Tom &amp; "Jerry" &lt;b&gt;`);
    expect(escapeXmlAttribute(`it's "x"`)).toBe('it&apos;s &quot;x&quot;');
    expect(escapeXmlText('plain')).toBe('plain');
    expect(decodeXmlEntities('&#38; &amp;lt; &unknown;')).toBe('&#38; &lt; &unknown;');
  });
});
