/**
 * The definitions against an independent source: the repetition flags and event -> structure maps HAPI publishes
 * (`plugins/hl7-standard/definitions/reference/hapi-hl7v2-facts.json`). Every difference between hl7-dictionary and
 * the reference is computed here; each must be corrected in `definitions/corrections.json` or listed, with its
 * reason, in `definitions/known-differences.json`. The examples are checked through `POST /api/validate`.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { getHl7Definitions, type Hl7Version } from '../../plugins/hl7-standard/hl7-definitions.ts';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

interface RawNode {
  name: string;
  min: number;
  max: number;
  children?: RawNode[];
  compounds?: RawNode[];
}
interface RawVersion {
  segments: Record<string, { fields: { rep: number }[] }>;
  messages: Record<string, { segments: { segments: RawNode[] } }>;
}
interface Facts {
  provenance: { source: string; licence: string; retrieved: string; files: { file: string; commit: string }[] };
  repeating: Record<string, Record<string, { fields: number; repeating: number[] }>>;
  events: Record<string, Record<string, string | null>>;
}
interface Corrections {
  repetition: { version: string; field: string; repeats: boolean; reason: string }[];
  eventStructures: { reason: string; events: Record<string, Record<string, string>> }[];
}
interface Known {
  differences: { version: string; event: string; reference: string | null; reason: string }[];
  repetition: { class: string; reason: string; fields: Record<string, string[]> }[];
}

const dir = join(import.meta.dirname, '../../plugins/hl7-standard/definitions');
const read = <T>(file: string): T => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
const facts = read<Facts>('reference/hapi-hl7v2-facts.json');
const corrections = read<Corrections>('corrections.json');
const known = read<Known>('known-differences.json');
const dictionary: Record<string, RawVersion> = {
  ...(createRequire(import.meta.url)('hl7-dictionary').definitions as Record<string, RawVersion>),
  '2.8': read<RawVersion>('2.8.json'),
};
/** v2.8 messages are keyed by structure; its events resolve through `2.8-events.json`. */
const events28 = read<Record<string, string>>('2.8-events.json');

/** A structure's shape (names, cardinalities, nesting), optionally without SFT. */
function shape(nodes: RawNode[], withoutSft = false): unknown[] {
  return nodes
    .filter((n) => !(withoutSft && n.name === 'SFT'))
    .map((n) => [n.name, n.min, n.max, shape(n.children ?? n.compounds ?? [], withoutSft)]);
}

/** Every difference between our definitions (uncorrected) and the reference, as `version SEG.n` (or `version SEG`). */
function repetitionDifferences(): string[] {
  const out: string[] = [];
  for (const [version, segments] of Object.entries(facts.repeating))
    for (const [segment, { fields, repeating }] of Object.entries(segments)) {
      const raw = dictionary[version]?.segments[segment]?.fields;
      if (!raw) {
        out.push(`${version} ${segment}`);
        continue;
      }
      for (let n = 1; n <= fields; n++) {
        const ours = raw[n - 1] !== undefined && raw[n - 1]?.rep !== 1;
        if (ours !== repeating.includes(n)) out.push(`${version} ${segment}.${n}`);
      }
    }
  return out.sort();
}

function eventDifferences(): string[] {
  const out: string[] = [];
  for (const [version, events] of Object.entries(facts.events)) {
    const messages = dictionary[version]?.messages ?? {};
    for (const [event, structure] of Object.entries(events)) {
      const ours = messages[event] ?? (version === '2.8' ? messages[events28[event] ?? ''] : undefined);
      const target = structure === null ? undefined : messages[structure];
      if (structure === null) continue; // the reference defines no structure for the event: nothing to compare
      const same = ours && target && JSON.stringify(shape(ours.segments.segments)) === JSON.stringify(shape(target.segments.segments));
      if (!same) out.push(`${version} ${event}`);
    }
  }
  return out.sort();
}

describe('definitions against the reference source', () => {
  it('declares where the reference facts come from', () => {
    expect(facts.provenance.source).toMatch(/HAPI/);
    expect(facts.provenance.licence).toMatch(/MPL/);
    expect(facts.provenance.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const file of facts.provenance.files) expect(file.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('covers every segment of every version the reference has', () => {
    expect(Object.keys(facts.repeating)).toEqual(['2.3', '2.3.1', '2.4', '2.5', '2.5.1', '2.6', '2.7', '2.8']);
    expect(Object.keys(facts.events)).toEqual(['2.3', '2.3.1', '2.4', '2.5', '2.5.1', '2.6', '2.7', '2.8']);
    for (const segments of Object.values(facts.repeating)) expect(Object.keys(segments).length).toBeGreaterThan(100);
    expect(facts.repeating['2.3']?.PID).toEqual({ fields: 30, repeating: [3, 5, 9, 11, 13, 14, 16] });
  });

  it('lists every repetition difference, each corrected or kept by class with a reason', () => {
    const differences = repetitionDifferences();
    expect(differences).toContain('2.3 PID.5');
    expect(differences).toContain('2.3 PV1.7');
    expect(differences).toContain('2.3 PV1.8');
    const corrected = corrections.repetition.map((c) => `${c.version} ${c.field}`);
    const kept = known.repetition.flatMap((k) => Object.entries(k.fields).flatMap(([v, fields]) => fields.map((f) => `${v} ${f}`)));
    expect(new Set([...corrected, ...kept]).size).toBe(corrected.length + kept.length);
    expect([...corrected, ...kept].sort()).toEqual(differences);
    for (const k of known.repetition) expect(k.reason.length, k.class).toBeGreaterThan(20);
    for (const c of corrections.repetition) {
      expect(c.reason.length).toBeGreaterThan(20);
      const field = getHl7Definitions(c.version as Hl7Version).segment(c.field.split('.')[0] as string)?.fields[Number(c.field.split('.')[1]) - 1];
      expect(field?.maxRepetitions, c.field).toBe(c.repeats ? Number.POSITIVE_INFINITY : 1);
    }
  });

  it('lists every event -> structure difference, each corrected or kept with a reason', () => {
    const differences = eventDifferences();
    expect(differences).toContain('2.3.1 PPR_PC2');
    expect(differences).toContain('2.3.1 PPR_PC3');
    const corrected = corrections.eventStructures.flatMap((g) => Object.entries(g.events).flatMap(([v, events]) => Object.keys(events).map((e) => `${v} ${e}`)));
    const kept = known.differences.map((k) => `${k.version} ${k.event}`);
    expect(new Set(corrected).size + new Set(kept).size).toBe(corrected.length + kept.length);
    expect(corrected.filter((d) => kept.includes(d))).toEqual([]);
    expect([...corrected, ...kept].sort()).toEqual(differences);
    for (const k of known.differences) expect(k.reason.length).toBeGreaterThan(20);
    for (const group of corrections.eventStructures) expect(group.reason.length).toBeGreaterThan(20);
  });

  it('resolves each corrected event to the structure the reference names', () => {
    for (const group of corrections.eventStructures)
      for (const [version, events] of Object.entries(group.events))
        for (const [event, structure] of Object.entries(events)) {
          const [code, trigger] = event.split('_') as [string, string];
          expect(getHl7Definitions(version as Hl7Version).resolveMessage(code, trigger).structure?.id, `${version} ${event}`).toBe(structure);
          expect(facts.events[version]?.[event]).toBe(structure);
        }
  });
});

describe('the corrected definitions through POST /api/validate', () => {
  const wb = useTestWorkbench({}, 180_000);
  // Starting the workbench takes a while on a loaded machine.

  async function findings(content: string, mode: 'strict' | 'compatibility'): Promise<{ code: string; field: string }[]> {
    const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: content, standard: 'hl7', mode } });
    expect(res.status).toBe(200);
    return [...res.json.data.errors, ...res.json.data.warnings];
  }

  it('lets v2.3 PID-5, PV1-7 and PV1-8 repeat, and still bounds a field that does not', async () => {
    const message = [
      'MSH|^~\\&|A|B|C|D|20250101||ADT^A01|1|P|2.3',
      'EVN|A01|20250101',
      'PID|1||123^^^X^MR||DOE^JANE~ROE^JANE||19800101|F',
      'PV1|1|I|||||111^DOC^A~222^DOC^B|333^REF^C~444^REF^D',
    ].join('\r');
    for (const mode of ['strict', 'compatibility'] as const) {
      const list = await findings(message, mode);
      expect(list.filter((i) => i.code === 'TOO_MANY_REPETITIONS')).toEqual([]);
    }
    const twoSexes = (await findings(message.replace('|19800101|F', '|19800101|F~M'), 'strict')).filter((i) => i.code === 'TOO_MANY_REPETITIONS');
    expect(twoSexes.map((i) => i.field)).toEqual(['PID.8']);
  });

  it('reads v2.3.1 PPR^PC2 and PPR^PC3 with the PPR_PC1 structure', async () => {
    for (const trigger of ['PC2', 'PC3']) {
      const message = [`MSH|^~\\&|A|B|C|D|20250101||PPR^${trigger}|1|P|2.3.1`, 'PID|1||123^^^X^MR||DOE^JANE||19800101|F', 'PRB|AD|20250101|X^Y^L|1'].join('\r');
      const list = await findings(message, 'strict');
      expect(list.filter((i) => i.code === 'UNKNOWN_MESSAGE_TYPE')).toEqual([]);
      const unordered = await findings(message.replace('PID|', 'PRB|AD|20250101|X^Y^L|1\rPID|'), 'strict');
      expect(unordered.some((i) => i.code.startsWith('SEGMENT_'))).toBe(true);
    }
  });

  it('accepts SFT after MSH in a v2.5 ADT^A04', async () => {
    const message = ['MSH|^~\\&|A|B|C|D|20250101||ADT^A04|1|P|2.5', 'SFT|Vendor|1.0|Prod|1', 'EVN|A04|20250101', 'PID|1||123^^^X^MR||DOE^JANE||19800101|F', 'PV1|1|I'].join('\r');
    const list = await findings(message, 'strict');
    expect(list.filter((i) => i.field === 'SFT' || i.code === 'SEGMENT_UNEXPECTED')).toEqual([]);
  });
});
