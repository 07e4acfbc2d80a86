// The kernel's safe XML check, which FHIR XML and NCPDP SCRIPT both read through: size, declarations, well-formedness
// and depth are judged before any parser sees the text, with the line and column of the first problem.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkXmlBeforeParsing } from '../../kernel/lib/xml/safe-xml.ts';

const limits = { maxChars: 10_000, maxDepth: 5 };

describe('checkXmlBeforeParsing', () => {
  it('passes well-formed XML on, without its byte-order mark', () => {
    expect(checkXmlBeforeParsing('\uFEFF<a x="1"><b>t &amp; &#65;</b><c/></a>', limits)).toEqual({ ok: true, content: '<a x="1"><b>t &amp; &#65;</b><c/></a>' });
  });

  it('refuses DOCTYPE and ENTITY declarations, naming where they are', () => {
    const check = checkXmlBeforeParsing('<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', limits);
    expect(check).toEqual({ ok: false, refusal: { kind: 'declaration', declaration: 'DOCTYPE', line: 2, column: 1 } });
  });

  it('refuses content over the size limit without reading it', () => {
    expect(checkXmlBeforeParsing(`<a>${'x'.repeat(20_000)}</a>`, limits)).toMatchObject({ ok: false, refusal: { kind: 'too-large', maxChars: 10_000 } });
  });

  it('names the line and column of the first well-formedness problem, and of nesting past the limit', () => {
    expect(checkXmlBeforeParsing('<a>\n  <b></c>\n</a>', limits)).toMatchObject({ ok: false, refusal: { kind: 'malformed', line: 2 } });
    expect(checkXmlBeforeParsing('<a>&nbsp;</a>', limits)).toMatchObject({ ok: false, refusal: { kind: 'malformed', line: 1, column: 4 } });
    expect(checkXmlBeforeParsing('<a><a><a><a><a></a></a></a></a></a>', limits).ok).toBe(true);
    expect(checkXmlBeforeParsing('<a><a><a><a><a><a><a></a></a></a></a></a></a></a>', limits)).toMatchObject({ ok: false, refusal: { kind: 'malformed', reason: 'elements are nested deeper than 5 levels' } });
  });

  it('never throws, whatever the text, and places every problem inside it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.stringMatching(/^[<>a-z/="'&;! \n]{0,80}$/)), (text) => {
        const check = checkXmlBeforeParsing(text, limits);
        // a refusal other than for size names a line of the text (accepted text: line 1 stands in)
        const line = !check.ok && check.refusal.kind !== 'too-large' ? check.refusal.line : 1;
        expect(line).toBeGreaterThanOrEqual(1);
        expect(line).toBeLessThanOrEqual(text.split('\n').length);
      }),
      { numRuns: 2000 },
    );
  });
});
