import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkNarrativeDiv, XHTML_NAMESPACE } from '../../plugins/fhir-standard/fhir-narrative.ts';
import { corpusDir, corpusFiles } from '../helpers/shared-corpus.ts';

const open = `<div xmlns="${XHTML_NAMESPACE}">`;

function kinds(div: string): string[] {
  return checkNarrativeDiv(div).map((problem) => problem.kind);
}

/** Every narrative div inside a parsed JSON value. */
function divsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) divsOf(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'div' && typeof item === 'string') out.push(item);
      else divsOf(item, out);
    }
  }
  return out;
}

describe('checkNarrativeDiv', () => {
  it('accepts the formatting, tables, links and images txt-1 allows, comments, CDATA and character references', () => {
    const div = `${open}<!-- generated --><h3>Lab</h3><table><tbody><tr><td class="x" style="color:red">5 &lt; 6 &#160; &#x2014;</td></tr></tbody></table><a name="top"/><img src="#i" alt="i"/><![CDATA[ raw <text> ]]></div>`;
    expect(checkNarrativeDiv(div)).toEqual([]);
  });

  it.skipIf(!corpusDir('fhir'))('accepts every narrative of the shared corpus', () => {
    const dir = corpusDir('fhir') as string;
    const divs = corpusFiles('fhir')
      .filter((name) => name.endsWith('.json'))
      .flatMap((name) => divsOf(JSON.parse(readFileSync(join(dir, name), 'utf8').replace(/^\uFEFF/, ''))));
    expect(divs.length).toBeGreaterThan(10);
    for (const div of divs) expect(checkNarrativeDiv(div), div.slice(0, 80)).toEqual([]);
  });

  it.each([
    ['text only', 'words'],
    ['another root element', `<p xmlns="${XHTML_NAMESPACE}">x</p>`],
    ['no XHTML namespace', '<div>x</div>'],
    ['another namespace', '<div xmlns="http://example.org">x</div>'],
    ['an unclosed element', `${open}<p>x</div>`],
    ['a crossed end tag', `${open}<b><i>x</b></i></div>`],
    ['an unquoted attribute', `${open}<p class=x>y</p></div>`],
    ['a duplicated attribute', `${open}<p class="a" class="b">y</p></div>`],
    ['a "<" in an attribute value', `${open}<p title="a<b">y</p></div>`],
    ['a bare ampersand', `${open}Tom & Jerry</div>`],
    ['an HTML entity', `${open}a&nbsp;b</div>`],
    ['content after the root', `${open}x</div><p>more</p>`],
    ['a DOCTYPE', `<!DOCTYPE html>${open}x</div>`],
    ['an unclosed comment', `${open}<!-- x</div>`],
  ])('reports %s as not well-formed XHTML', (_name, div) => {
    const problems = checkNarrativeDiv(div);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.kind).toBe('malformed');
    expect(problems[0]?.reason).toMatch(/^is not well-formed XHTML: .+ at character \d+$/);
  });

  it.each([
    ['a script element', `${open}<script>alert(1)</script></div>`],
    ['a prefixed script element', `${open}<h:script xmlns:h="${XHTML_NAMESPACE}">x</h:script></div>`],
    ['an iframe', `${open}<iframe src="https://example.org"/></div>`],
    ['a form', `${open}<form action="https://example.org"><input name="a"/></form></div>`],
    ['an event handler on the root', `<div xmlns="${XHTML_NAMESPACE}" onmouseover="x()">y</div>`],
    ['an event handler in upper case', `${open}<img src="a.png" ONERROR="x()"/></div>`],
    ['a javascript: URL', `${open}<a href="javascript:alert(1)">x</a></div>`],
    ['a javascript: URL in mixed case with blanks', `${open}<a href="  JaVaScRiPt:alert(1)">x</a></div>`],
    ['a javascript: URL spelled with character references', `${open}<a href="&#106;avascript:alert(1)">x</a></div>`],
    ['a vbscript: image source', `${open}<img src="vbscript:msgbox" alt=""/></div>`],
  ])('reports %s as active content', (_name, div) => {
    expect(kinds(div)).toEqual(['active']);
  });

  it('reports elements txt-1 does not allow, apart from active content, with examples and a count', () => {
    const div = `${open}<style>p{}</style><marquee>a</marquee><blink>b</blink><nav>c</nav><script>d</script></div>`;
    const problems = checkNarrativeDiv(div);
    expect(problems.map((p) => p.kind)).toEqual(['active', 'disallowed']);
    expect(problems[1]?.reason).toContain('<style>; <marquee>; <blink> (4 in all)');
  });

  it('reads hostile sizes in one pass: deep nesting and many attributes', () => {
    const depth = 50_000;
    const deep = `${open}${'<span>'.repeat(depth)}x${'</span>'.repeat(depth)}</div>`;
    expect(checkNarrativeDiv(deep)).toEqual([]);
    const attributes = Array.from({ length: 20_000 }, (_, i) => ` a${i}="v"`).join('');
    expect(kinds(`${open}<p${attributes}>x</p></div>`)).toEqual([]);
    expect(kinds(`${open}${'<p onclick="x">y</p>'.repeat(10_000)}</div>`)).toEqual(['active']);
    expect(checkNarrativeDiv(`${open}${'<p onclick="x">y</p>'.repeat(10_000)}</div>`)[0]?.reason).toContain('(10000 in all)');
  });
});
