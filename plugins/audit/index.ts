/**
 * The audit plugin: a hash-chained trail of every admin write, sign-in, API key change and refused credential.
 * Other plugins record through the {@link AUDIT_TRAIL} token; the kernel's auth events (`auth.credential-refused`,
 * `auth.api-key-changed`) are recorded here. Entries older than `retentionDays` are pruned daily, leaving an anchor
 * so the remaining chain stays verifiable.
 */
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { provideService } from '../../kernel/service-ref.ts';
import { guardedAfter } from '../../kernel/lib/async/pause-timer.ts';
import { auditConfigSchema, type AuditConfig } from './audit-config.ts';
import { AUDIT_TRAIL } from './api.ts';
import { AUDIT_TAMPERED, AuditStore, auditMigrations } from './audit-store.ts';
import { registerAuditRoutes } from './audit-routes.ts';
import { createAuditCommands } from './audit-cli.ts';
import { auditErrors } from './audit-errors.ts';
import { loadOrCreateAuditKey } from './audit-key.ts';
import { RefusalCollapser } from './refusal-collapse.ts';

const DAY_MS = 86_400_000;

function localActor(): string {
  try {
    return `os:${userInfo().username}`;
  } catch {
    return 'os:unknown';
  }
}

/** Registers the trail, its routes, its command and its listeners. */
export const plugin: PluginModule<AuditConfig> = {
  configSchema: auditConfigSchema,
  async register(context) {
    context.registerErrors(auditErrors.catalogue);
    await context.storage.migrate(auditMigrations);
    const store = new AuditStore(context.storage.db, context.clock, {
      key: () => loadOrCreateAuditKey(context.config.keyFile ?? join(context.dataDir, 'audit-chain.key')),
      checkpointPath: join(context.dataDir, 'audit-checkpoint.json'),
    }, {
      after: (name, delayMs, job) => context.background.after(name, delayMs, job),
      tampered: (reason) => {
        if (!reason) {
          context.faults.clear(AUDIT_TAMPERED);
          return;
        }
        // once per episode in the log; health shows it for as long as it lasts
        if (!context.faults.has(AUDIT_TAMPERED)) context.logger.error({ reason }, 'the audit trail disagrees with its checkpoint; appends are refused');
        context.faults.report(AUDIT_TAMPERED, `The audit trail disagrees with its checkpoint and takes no more entries: ${reason}`);
      },
    });
    provideService(context.container, AUDIT_TRAIL, store);
    registerAuditRoutes(context.routes, { store });
    for (const command of createAuditCommands(store)) context.registerCommand(command);

    const refusals = new RefusalCollapser(
      (entry) => store.record(entry),
      context.clock,
      context.config.refusalWindowSeconds * 1000,
      (error) => context.background.failed('refusal-record', error),
      guardedAfter(context.background, 'refusal-window'),
    );
    // A trail cut while the service was down is told at once, not at the next audited action.
    context.lifecycle.onStart(() => void context.background.run('tail-check', () => store.checkTail()));
    context.lifecycle.onStop(async () => {
      refusals.stop();
      // after the refusals' last counts are appended
      await store.whenIdle();
      store.flushCheckpoint();
    });
    context.events.on('auth.credential-refused', (event) => {
      const holder = event.holder;
      const actor = holder ? (holder.kind === 'api-key' ? `wbk_${holder.subject}` : holder.subject) : (event.keyPrefix ?? 'anonymous');
      refusals.offer({
        action: 'credential.refuse',
        resourceType: 'route',
        resourceId: `${event.method} ${event.url}`,
        outcome: 'denied',
        // A valid credential refused for its role is the holder's (user id or key prefix); else the key prefix sent.
        actor,
        actorKind: holder ? (holder.kind === 'api-key' ? 'api-key' : 'user') : event.credentialKind === 'api-key' ? 'api-key' : 'anonymous',
        requestId: event.requestId,
        sourceAddress: event.sourceAddress,
        details: { status: event.status, credentialKind: event.credentialKind, reason: event.reason },
      }, holder ? `${event.sourceAddress} ${actor}` : event.sourceAddress);
    });
    // Keys change through `workbench keys` on this machine: the actor is the operating-system user who ran it.
    context.events.on('auth.api-key-changed', (event) =>
      store.record({
        action: event.change === 'created' ? 'key.create' : 'key.revoke',
        resourceType: 'api-key',
        resourceId: event.prefix,
        outcome: 'success',
        actor: localActor(),
        actorKind: 'local',
        details: event.role ? { role: event.role } : {},
      }),
    );

    const retentionDays = context.config.retentionDays;
    if (retentionDays !== null) {
      const prune = async () => {
        const cutoff = new Date(context.clock.now().getTime() - retentionDays * DAY_MS);
        const { removed, anchorId } = await store.prune(cutoff);
        if (removed === 0) return;
        context.logger.info({ removed, anchorId }, 'audit entries past retention pruned');
        await store.record({
          action: 'audit.prune',
          resourceType: 'audit',
          outcome: 'success',
          actor: 'system',
          actorKind: 'local',
          details: { removed, anchorId, retentionDays },
        });
      };
      context.lifecycle.onStart(prune);
      context.scheduler.schedule('audit-retention', context.config.pruneSchedule, prune);
    }
  },
};
