// kill -9 while files arrive: a real `workbench start` child is killed at random moments 5 times while 5,000 files
// (1 to 3 messages each) arrive, and started again; at the end every file is in the ledger once and every count is
// exact. The same scenario at any size: `node --import tsx scripts/monitor-crash.ts FILES KILLS`.
import { describe, expect, it } from 'vitest';
import { runCrashScenario } from '../../scripts/monitor-crash-scenario.ts';

describe('crash safety of the ledger', () => {
  it('counts every file once and every message once across 5 kill -9 restarts', async () => {
    const result = await runCrashScenario({ files: 5000, kills: 5 });
    expect(result.filesWritten).toBe(5000);
    expect(result.ledgerPathsCountedTwice).toBe(0);
    expect(result.ledgerRows).toBe(result.filesWritten);
    expect(result.ledgerMessages).toBe(result.messagesWritten);
    expect(result.messageRows).toBe(result.messagesWritten);
    expect(result.distinctControlIds).toBe(result.messagesWritten);
    expect(result.rollupMessages).toBe(result.messagesWritten);
  }, 600_000);
});
