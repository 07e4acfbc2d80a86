/**
 * Generation: every generated message validates with zero findings in strict mode (property over seeds, types and
 * versions), output is byte-identical per seed and fresh without one, and values are synthetic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { npiProblem, deaProblem } from '../../plugins/identifiers/api.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';

const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
const CASES: Array<[string, string | undefined]> = [
  ['NewRx', undefined],
  ['NewRx', '10.6'],
  ['NewRx', '2023011'],
  ['RxRenewalRequest', undefined],
  ['RxRenewalRequest', '10.6'],
  ['CancelRx', undefined],
  ['CancelRx', '10.6'],
  ['Status', undefined],
  ['Status', '10.6'],
  ['B1', undefined],
];

describe('NCPDP generation', () => {
  it('every generated message validates with zero findings in strict mode', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(...CASES), (seed, [messageType, version]) => {
        for (const message of adapter.generate({ messageType, version, count: 2, seed })) {
          const result = adapter.validate(message, { mode: 'strict' });
          expect([...result.errors, ...result.warnings]).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('is byte-identical for a seed and fresh without one', () => {
    for (const [messageType, version] of CASES) {
      const a = adapter.generate({ messageType, version, count: 3, seed: 123 });
      expect(adapter.generate({ messageType, version, count: 3, seed: 123 })).toEqual(a);
      expect(new Set(a).size).toBe(3);
    }
    const unseeded = adapter.generate({ messageType: 'NewRx', count: 1 })[0];
    expect(adapter.generate({ messageType: 'NewRx', count: 1 })[0]).not.toBe(unseeded);
  });

  it('declares the requested version and uses synthetic identifiers', () => {
    const [legacy] = adapter.generate({ messageType: 'NewRx', version: '10.6', count: 1, seed: 5 });
    expect(legacy).toContain('version="010" release="006"');
    const [current] = adapter.generate({ messageType: 'NewRx', count: 1, seed: 5 });
    expect(current).toContain('TransactionVersion="20170715"');
    for (const npi of current.match(/<NPI>(\d+)<\/NPI>/g) ?? []) expect(npiProblem(npi.replace(/\D/g, ''))).toBeUndefined();
    const dea = /<DEANumber>(\w+)</.exec(current)?.[1] ?? '';
    expect(deaProblem(dea)).toBeUndefined();
    expect(/<SocialSecurity>(\d+)</.exec(current)?.[1]).toMatch(/^9\d{8}$/);
    for (const number of current.match(/<Number>(\d+)<\/Number>/g) ?? []) expect(number).toMatch(/55501\d\d</);
    const [claim] = adapter.generate({ messageType: 'B1', count: 1, seed: 5 });
    expect(claim.slice(6, 10)).toBe('D0B1');
  });
});
