// The upgrade detector and the pattern clustering as plain engines: a sender switching version, software and segments
// at a known time is detected at that time; steady random errors, one new error, or too little data are not.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { detectUpgradeIn, upgradeFeatures, type UpgradeEntry, type UpgradeFacts, type UpgradeVerdict } from '../../plugins/ai-triage/interfaces/upgrade-detector.ts';
import { PatternCounter, trendOf } from '../../plugins/ai-triage/interfaces/failure-patterns.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

const START = Date.parse('2026-03-01T08:00:00Z');
const STEP = 60_000;

function facts(count: number, make: (index: number) => Partial<UpgradeFacts>): UpgradeFacts[] {
  return Array.from({ length: count }, (_, index) => ({
    at: START + index * STEP,
    inWindow: true,
    version: '2.3',
    sendingApplication: 'REGSYS',
    software: null,
    segmentIds: ['MSH', 'EVN', 'PID', 'PV1'],
    errorCodes: [],
    ...make(index),
  }));
}

/** The detector over single messages sorted by `at`: each message a run of one. */
function detectUpgrade(messages: readonly UpgradeFacts[]): UpgradeVerdict {
  return detectUpgradeIn(messages.map((message) => ({ at: message.at, count: 1, inWindow: message.inWindow, features: upgradeFeatures(message) })));
}

const upgraded = (index: number, switchAt: number): Partial<UpgradeFacts> =>
  index < switchAt
    ? {}
    : {
        version: '2.5.1',
        software: { vendor: 'Acme Health', version: '9.2', product: 'AcmeADT', installDate: '2026-03-01T00:00:00.000Z' },
        segmentIds: ['MSH', 'SFT', 'EVN', 'PID', 'PV1', 'ZPI'],
      };

describe('upgrade detection', () => {
  it('detects a switch to 2.5.1 with new software and a Z-segment at the message where it happened', () => {
    const verdict = detectUpgrade(facts(80, (index) => upgraded(index, 50)));
    expect(verdict.upgradeDetected).toBe(true);
    expect(verdict.changePoint).toBe(new Date(START + 50 * STEP).toISOString());
    expect(verdict.confidence).toBeGreaterThan(0.8);
    const kinds = verdict.changes.map((change) => change.kind);
    expect(kinds).toEqual(expect.arrayContaining(['version', 'software-version', 'segment-appeared']));
    expect(verdict.changes.find((change) => change.kind === 'version')).toMatchObject({ before: ['2.3'], after: ['2.5.1'], messages: 30 });
    expect(verdict.changes.filter((change) => change.kind === 'segment-appeared').flatMap((change) => change.after).sort()).toEqual(['SFT', 'ZPI']);
    expect(verdict.baselineMessages).toBe(50);
  });

  it('detects a switch inside the window with older messages of the same window as the baseline', () => {
    // Every message is in the window: the baseline is the window's own traffic before the change.
    const verdict = detectUpgrade(facts(60, (index) => ({ ...upgraded(index, 45), inWindow: true })));
    expect(verdict.upgradeDetected).toBe(true);
    expect(verdict.changePoint).toBe(new Date(START + 45 * STEP).toISOString());
  });

  it('detects a change that happened before the window when its traffic reaches into it', () => {
    const verdict = detectUpgrade(facts(80, (index) => ({ ...upgraded(index, 40), inWindow: index >= 60 })));
    expect(verdict.upgradeDetected).toBe(true);
    expect(verdict.changePoint).toBe(new Date(START + 40 * STEP).toISOString());
  });

  it('does not detect an upgrade in steady random errors', () => {
    const next = seededRandom(7);
    const codes = ['REQUIRED_FIELD_MISSING', 'VALUE_NOT_IN_TABLE', 'INVALID_DATE'];
    const verdict = detectUpgrade(facts(200, () => ({ errorCodes: next() < 0.2 ? [codes[Math.floor(next() * 3)]!] : [] })));
    expect(verdict.upgradeDetected).toBe(false);
    expect(verdict.confidence).toBeLessThan(0.5);
  });

  it('does not call one new error an upgrade', () => {
    const verdict = detectUpgrade(facts(80, (index) => ({ errorCodes: index >= 50 ? ['INVALID_DATA_TYPE'] : [] })));
    expect(verdict.upgradeDetected).toBe(false);
    expect(verdict.changes.map((change) => change.kind)).toEqual(['new-issue-code']);
    expect(verdict.confidence).toBeLessThan(0.1);
  });

  it('answers clearly when there is too little data for a baseline', () => {
    const verdict = detectUpgrade(facts(10, (index) => upgraded(index, 5)));
    expect(verdict.assessment).toBe('insufficient-data');
    expect(verdict.upgradeDetected).toBe(false);
    expect(verdict.explanation).toMatch(/Too little data/);
  });

  it('gives the same verdict over runs of alike messages as over the messages one by one (property)', () => {
    const arbitraryFacts = fc.record({
      version: fc.constantFrom('2.3', '2.5.1'),
      sendingApplication: fc.constantFrom('A', 'B'),
      segmentIds: fc.constantFrom(['MSH', 'PID'], ['MSH', 'PID', 'ZPI']),
      errorCodes: fc.constantFrom([], ['X_ONE']),
      extra: fc.constantFrom(['field\0PID.5', 'code\0PV1.2=I'], ['code\0PV1.2=O']),
      repeat: fc.integer({ min: 1, max: 12 }),
    });
    fc.assert(
      fc.property(fc.array(arbitraryFacts, { maxLength: 30 }), fc.integer({ min: 0, max: 400 }), (items, windowFrom) => {
        const messages: UpgradeFacts[] = [];
        const runs: UpgradeEntry[] = [];
        for (const { repeat, ...item } of items) {
          const at = START + messages.length * STEP;
          const inWindow = messages.length >= windowFrom;
          const facts = { ...item, software: null, at, inWindow };
          runs.push({ at, count: repeat, inWindow, features: upgradeFeatures(facts) });
          for (let index = 0; index < repeat; index++) messages.push({ ...facts, at: at + index, inWindow: messages.length >= windowFrom });
          // A run is one side of the window's start only (the aggregate keys runs by received minute).
          if (!inWindow && messages.length > windowFrom) return;
        }
        const one = detectUpgrade(messages);
        const many = detectUpgradeIn(runs);
        expect({ ...many, explanation: '' }).toEqual({ ...one, explanation: '' });
      }),
      { numRuns: 200 },
    );
  });

  it('judges features read from the text only when every message had its text', () => {
    // The older messages' text was not kept: their fields and delimiters are unknown, not absent.
    const withText = (index: number): Partial<UpgradeFacts> => (index < 40 ? {} : { extra: ['delimiters\0|^~\\&', 'encoding\0(none); CR', 'field\0PID.5', 'code\0PV1.2=I'] });
    const verdict = detectUpgrade(facts(60, withText));
    expect(verdict.upgradeDetected).toBe(false);
    expect(verdict.changes).toEqual([]);
    const known = detectUpgrade(facts(60, (index) => ({ extra: [index < 40 ? 'delimiters\0|^~\\&' : 'delimiters\0|^~\\&#', 'encoding\0(none); CR'] })));
    expect(known.changes).toContainEqual(expect.objectContaining({ kind: 'delimiters', before: ['|^~\\&'], after: ['|^~\\&#'] }));
  });

  it('never throws and keeps confidence within 0..1 for any sequence (property)', () => {
    const arbitraryFacts = fc.record({
      version: fc.constantFrom('2.3', '2.5.1', null),
      sendingApplication: fc.constantFrom('A', 'B', null),
      segmentIds: fc.subarray(['MSH', 'PID', 'PV1', 'ZPI', 'SFT']),
      errorCodes: fc.subarray(['X_ONE', 'X_TWO']),
      inWindow: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arbitraryFacts, { maxLength: 120 }), (items) => {
        const verdict = detectUpgrade(items.map((item, index) => ({ ...item, at: START + index * STEP, software: null })));
        expect(verdict.confidence).toBeGreaterThanOrEqual(0);
        expect(verdict.confidence).toBeLessThanOrEqual(1);
        expect(verdict.upgradeDetected).toBe(verdict.confidence >= 0.5);
      }),
      { numRuns: 200 },
    );
  });
});

describe('failure patterns', () => {
  it('clusters by code, field, message type and sender, counting a message once per cluster', () => {
    const counter = new PatternCounter();
    for (let index = 0; index < 6; index++) {
      counter.add({
        receivedAt: new Date(START + index * STEP).toISOString(),
        messageType: 'ADT',
        triggerEvent: 'A01',
        controlId: `C${index}`,
        sendingApplication: 'REG',
        standard: 'hl7',
        version: '2.5.1',
        errors: [
          { field: 'PID.5', code: 'REQUIRED_FIELD_MISSING' },
          { field: 'PID.5', code: 'REQUIRED_FIELD_MISSING' },
          ...(index % 2 === 0 ? [{ field: 'OBX[3].5', code: 'INVALID_DATA_TYPE' }] : []),
        ],
      });
    }
    const ranked = counter.ranked(new Map([['v1:REQUIRED_FIELD_MISSING|PID.5|ADT^A01|REG', 2]]), 10);
    expect(ranked.map((pattern) => [pattern.key, pattern.count, pattern.trend])).toEqual([
      ['v1:REQUIRED_FIELD_MISSING|PID.5|ADT^A01|REG', 6, 'rising'],
      ['v1:INVALID_DATA_TYPE|OBX.5|ADT^A01|REG', 3, 'new'],
    ]);
    expect(ranked[0]!.exampleControlIds).toEqual(['C5', 'C4', 'C3']);
    expect(ranked[0]!.firstSeen).toBe(new Date(START).toISOString());
    expect(ranked[0]!.share).toBe(1);
  });

  it('names trends against the previous window, ignoring moves of one or two messages', () => {
    expect([trendOf(5, 0), trendOf(10, 4), trendOf(2, 10), trendOf(11, 10), trendOf(2, 1)]).toEqual(['new', 'rising', 'falling', 'steady', 'steady']);
  });
});
