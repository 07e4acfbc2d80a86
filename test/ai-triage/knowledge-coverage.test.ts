// Every issue code the validators can raise has a knowledge entry of its standard, and every knowledge file is
// well-formed (the loader's schema) with placeholders the engine fills.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../kernel/project-root.ts';
import { HL7_ISSUE_CODES } from '../../plugins/hl7-standard/validation/hl7-issue-messages.ts';
import { FHIR_ISSUE_CODES } from '../../plugins/fhir-standard/fhir-issues.ts';
import { loadKnowledgeBase, readKnowledgeFile } from '../../plugins/ai-triage/triage/knowledge-base.ts';
import { knowledgeDir } from './triage-helpers.ts';

/** Codes the NCPDP plugin's checks pass to its collector (and PARSE_ERROR), read from its sources. */
function ncpdpCodes(): string[] {
  const dir = join(projectRoot, 'plugins', 'ncpdp-standard');
  const codes = new Set<string>(['PARSE_ERROR']);
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && file !== 'errors.ts')) {
    for (const match of readFileSync(join(dir, name), 'utf8').matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)) codes.add(match[1]!);
  }
  return [...codes];
}

const PLACEHOLDERS = new Set(['field', 'fieldLabel', 'dataType', 'table', 'messageType', 'version', 'count']);

describe('triage knowledge base', () => {
  const { base } = loadKnowledgeBase(knowledgeDir);
  const cases: Array<[string, string[]]> = [
    ['hl7', [...HL7_ISSUE_CODES]],
    ['fhir', Object.keys(FHIR_ISSUE_CODES)],
    ['ncpdp', ncpdpCodes()],
  ];
  for (const [standard, codes] of cases) {
    it(`has an entry for every ${standard} issue code`, () => {
      expect(codes.length).toBeGreaterThan(10);
      const covered = base.codes(standard);
      expect(codes.filter((code) => !covered.has(code))).toEqual([]);
    });
  }

  it('loads every file with unique ids and only known placeholders', () => {
    const files = readdirSync(knowledgeDir).filter((file) => file.endsWith('.yaml'));
    expect(files.length).toBe(3);
    const ids = new Set<string>();
    for (const file of files) {
      for (const entry of readKnowledgeFile(join(knowledgeDir, file))) {
        expect(ids.has(entry.id), entry.id).toBe(false);
        ids.add(entry.id);
        const texts = [entry.rootCause, entry.explanation, ...entry.fixes.flatMap((fix) => [fix.field, fix.action])];
        for (const text of texts) for (const match of text.matchAll(/\{(\w+)\}/g)) expect(PLACEHOLDERS.has(match[1]!), `${entry.id}: {${match[1]}}`).toBe(true);
      }
    }
  });

  it('covers the real-world causes of the raw message as signals', () => {
    const signals = new Set(base.entries.filter((entry) => entry.signal).map((entry) => entry.signal));
    for (const signal of ['lf-terminators', 'mllp-framing', 'msh2-escaped', 'timestamp-no-zone', 'fraction-without-dot', 'z-segment', 'pid5-empty']) {
      expect(signals.has(signal), signal).toBe(true);
    }
  });

  it('lets a profile pack add an entry that wins over the shipped one, and reports a broken pack file', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const pack = mkdtempSync(join(tmpdir(), 'triage-pack-'));
    mkdirSync(join(pack, 'triage'));
    writeFileSync(
      join(pack, 'triage', 'site.yaml'),
      [
        'standard: hl7',
        'version: 1',
        'entries:',
        '  - id: site.pid5',
        '    code: REQUIRED_FIELD_MISSING',
        '    field: PID.5',
        '    category: missing-data',
        '    confidence: 0.9',
        '    rootCause: "Our registration system drops PID-5 for unidentified patients."',
        '    explanation: "Site rule."',
        '    fixes: [{ side: sender, field: PID.5, action: "Send the trauma alias name." }]',
      ].join('\n'),
    );
    writeFileSync(join(pack, 'triage', 'broken.yaml'), 'standard: hl7\nentries: [ {id: x} ]\n');
    try {
      const loaded = loadKnowledgeBase(knowledgeDir, [pack]);
      expect(loaded.problems.map((problem) => problem.file)).toEqual([join(pack, 'triage', 'broken.yaml')]);
      const entry = loaded.base.match('hl7', { code: 'REQUIRED_FIELD_MISSING', field: 'PID.5', messageType: 'ADT^A01', context: '', signals: new Set() });
      expect(entry?.id).toBe('site.pid5');
    } finally {
      rmSync(pack, { recursive: true, force: true });
    }
  });
});
