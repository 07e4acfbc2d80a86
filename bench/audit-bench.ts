/**
 * Audit benchmark on the embedded SQLite store: appending hash-chained entries (hash, insert, one at a time, in call
 * order) beside plain inserts of the same rows into the same table (same columns and indexes) of a second database
 * file, which is the ceiling; and
 * verifying the chain (batched reads plus one SHA-256 per entry) beside reading the same rows alone. Alternating
 * rounds, each side's best kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage } from '../kernel/storage.ts';
import { systemClock } from '../kernel/clock.ts';
import { AuditStore, auditMigrations } from '../plugins/audit/audit-store.ts';
import { loadOrCreateAuditKey } from '../plugins/audit/audit-key.ts';
import type { AuditRecordInput } from '../plugins/audit/api.ts';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function entry(i: number): AuditRecordInput {
  return {
    actor: `user-${i % 50}@example.test`,
    actorKind: 'user',
    action: 'role.assign',
    resourceType: 'role',
    resourceId: `user-${i}`,
    outcome: 'success',
    requestId: '0b6f4f1e-6a52-4a53-9a0c-2f2d7c0f1e11',
    sourceAddress: '127.0.0.1',
    details: { role: 'MonitorViewer', previousRole: null },
  };
}

/** Measures and prints the audit figures; returns them flat. */
export async function runAuditBench(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-audit-bench-'));
  const storage = await createStorage({ url: null, dataDir: dir, sqliteFile: 'bench.sqlite' });
  const plain = await createStorage({ url: null, dataDir: dir, sqliteFile: 'ceiling.sqlite' });
  try {
    await storage.migrate('audit', auditMigrations);
    await plain.migrate('audit', auditMigrations);
    const store = new AuditStore(storage.db, systemClock, {
      key: () => loadOrCreateAuditKey(join(dir, 'audit-chain.key')),
      checkpointPath: join(dir, 'audit-checkpoint.json'),
    });
    const count = 2000;
    let next = 0;
    let plainId = 0;
    let ours = 0;
    let ceiling = 0;
    for (let round = 0; round < 3; round++) {
      let started = performance.now();
      for (let i = 0; i < count; i++) await store.record(entry(next++));
      ours = Math.max(ours, count / ((performance.now() - started) / 1000));
      started = performance.now();
      for (let i = 0; i < count; i++) {
        const e = entry(plainId);
        await plain.db
          .insertInto('audit_entries')
          .values({
            id: ++plainId,
            at: new Date().toISOString(),
            actor: e.actor,
            actor_kind: e.actorKind,
            action: e.action,
            resource_type: e.resourceType,
            resource_id: e.resourceId,
            outcome: e.outcome,
            request_id: e.requestId,
            source_address: e.sourceAddress,
            details: JSON.stringify(e.details),
            prev_hash: '0'.repeat(64),
            hash: '0'.repeat(64),
          })
          .execute();
      }
      ceiling = Math.max(ceiling, count / ((performance.now() - started) / 1000));
    }
    let verify = 0;
    let scan = 0;
    for (let round = 0; round < 3; round++) {
      let started = performance.now();
      const result = await store.verify();
      if (!result.intact) throw new Error('the benchmark chain does not verify');
      verify = Math.max(verify, result.checked / ((performance.now() - started) / 1000));
      started = performance.now();
      let read = 0;
      for (let after = -1; ; ) {
        const rows = await storage.db.selectFrom('audit_entries').selectAll().where('id', '>', after).orderBy('id').limit(500).execute();
        read += rows.length;
        if (rows.length < 500) break;
        after = Number(rows[rows.length - 1].id);
      }
      scan = Math.max(scan, read / ((performance.now() - started) / 1000));
    }
    const appendRatio = ours / ceiling;
    const verifyRatio = verify / scan;
    console.log(`audit append: ours ${fmt(ours)} entries/s | plain insert of the same rows ${fmt(ceiling)} rows/s | ratio ${appendRatio.toFixed(2)}x`);
    console.log(`audit verify (${fmt(next)} entries): ours ${fmt(verify)} entries/s | reading the rows alone ${fmt(scan)} rows/s | ratio ${verifyRatio.toFixed(2)}x`);
    return {
      audit_append_per_s: Math.round(ours),
      audit_plain_insert_per_s: Math.round(ceiling),
      audit_append_ratio: Number(appendRatio.toFixed(3)),
      audit_verify_per_s: Math.round(verify),
      audit_scan_per_s: Math.round(scan),
      audit_verify_ratio: Number(verifyRatio.toFixed(3)),
    };
  } finally {
    await storage.close();
    await plain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
