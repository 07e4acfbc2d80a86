// The hash chain engine and the CSV cell guard, property-tested: any chain built by appending verifies; changing,
// removing or swapping any entry breaks it exactly there; no exported cell starts like a formula.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ChainChecker, GENESIS_HASH, entryHash, type ChainedFields } from '../../plugins/audit/audit-chain.ts';
import { formulaSafe } from '../../kernel/lib/text/csv.ts';

type Entry = ChainedFields & { prev_hash: string; hash: string };

const fieldsArbitrary = fc.record({
  at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  actor: fc.string({ maxLength: 20 }),
  actor_kind: fc.constantFrom('user', 'api-key', 'local'),
  action: fc.string({ minLength: 1, maxLength: 20 }),
  resource_type: fc.string({ minLength: 1, maxLength: 10 }),
  resource_id: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
  outcome: fc.constantFrom('success', 'failure', 'denied'),
  request_id: fc.option(fc.uuid(), { nil: null }),
  source_address: fc.option(fc.ipV4(), { nil: null }),
  details: fc.option(fc.json({ maxDepth: 1 }), { nil: null }),
});

function buildChain(fields: Array<Omit<ChainedFields, 'id'>>, firstId = 1, previous = GENESIS_HASH): Entry[] {
  let prev = previous;
  return fields.map((f, index) => {
    const entry = { ...f, id: firstId + index };
    const hash = entryHash(prev, entry);
    const chained = { ...entry, prev_hash: prev, hash };
    prev = hash;
    return chained;
  });
}

function check(entries: Entry[], start = { expectedFirstId: 1, previousHash: GENESIS_HASH }): ChainChecker {
  const checker = new ChainChecker(start);
  for (const entry of entries) if (!checker.check(entry)) break;
  return checker;
}

describe('audit hash chain', () => {
  it('a chain built by appending verifies, also when it starts after an anchor', () => {
    fc.assert(
      fc.property(fc.array(fieldsArbitrary, { minLength: 1, maxLength: 30 }), fc.nat(1000), (fields, anchorId) => {
        expect(check(buildChain(fields)).broken).toBeUndefined();
        const anchored = buildChain(fields, anchorId + 1, 'a'.repeat(64));
        expect(check(anchored, { expectedFirstId: anchorId + 1, previousHash: 'a'.repeat(64) }).broken).toBeUndefined();
      }),
    );
  });

  it('changing any field of any entry breaks the chain at that entry', () => {
    fc.assert(
      fc.property(
        fc.array(fieldsArbitrary, { minLength: 2, maxLength: 20 }),
        fc.nat(),
        fc.constantFrom('at', 'actor', 'action', 'resource_id', 'outcome', 'details', 'source_address'),
        (fields, pick, field) => {
          const chain = buildChain(fields);
          const index = pick % chain.length;
          const altered = chain.map((e) => ({ ...e }));
          const before = altered[index][field as keyof Entry];
          (altered[index] as Record<string, unknown>)[field] = `${String(before)}~`;
          expect(check(altered).broken?.id).toBe(chain[index].id);
        },
      ),
    );
  });

  it('removing or swapping entries breaks the chain where the order first differs', () => {
    fc.assert(
      fc.property(fc.array(fieldsArbitrary, { minLength: 3, maxLength: 20 }), fc.nat(), (fields, pick) => {
        const chain = buildChain(fields);
        const index = pick % (chain.length - 1);
        const removed = chain.filter((_, i) => i !== index);
        expect(check(removed).broken?.id).toBe(chain[index + 1].id);
        const swapped = [...chain];
        [swapped[index], swapped[index + 1]] = [swapped[index + 1], swapped[index]];
        expect(check(swapped).broken?.id).toBe(chain[index + 1].id);
        // Re-hashing a changed entry does not help: its successor no longer links to it.
        const rehashed = chain.map((e) => ({ ...e }));
        rehashed[index].actor = 'forger';
        rehashed[index].hash = entryHash(rehashed[index].prev_hash, rehashed[index]);
        expect(check(rehashed).broken?.id).toBe(chain[index + 1].id);
      }),
    );
  });
});

describe('formula-safe CSV cells', () => {
  it('no cell starts with = + - @ tab or CR, and removing the guard gives the original back', () => {
    fc.assert(
      fc.property(fc.string(), (cell) => {
        const safe = formulaSafe(cell);
        expect(/^[=+\-@\t\r]/.test(safe)).toBe(false);
        expect(safe === cell || (safe.startsWith("'") && safe.slice(1) === cell)).toBe(true);
      }),
    );
  });
});
