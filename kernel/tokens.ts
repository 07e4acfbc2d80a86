/**
 * Container tokens of the kernel services, each a typed reference ({@link createServiceRef}): resolved with
 * `resolveService(container, TOKENS.ApiKeys)`, the service comes with its type, never through a `resolve<T>` cast.
 * Everything is injected by explicit token (never by type), because the TypeScript runners used here emit no
 * decorator metadata.
 */
import type { Logger } from 'pino';
import type { ApiKeyStore } from './auth/api-keys.ts';
import type { AuthService } from './auth/auth-service.ts';
import type { Cache } from './cache.ts';
import type { Clock } from './clock.ts';
import type { LoadedConfig } from './config-loader.ts';
import type { Entitlement } from './entitlement.ts';
import type { ErrorRegistry } from './errors.ts';
import type { EventBus } from './events.ts';
import type { Scheduler } from './background/scheduler.ts';
import { createServiceRef } from './service-ref.ts';
import type { StandardsRegistry } from './standards-registry.ts';
import type { Storage } from './storage.ts';
import type { StandardsRunner } from './workers/standards-runner.ts';

/** The kernel's services by name. */
export const TOKENS = {
  Config: createServiceRef<LoadedConfig>('workbench.config'),
  Logger: createServiceRef<Logger>('workbench.logger'),
  Storage: createServiceRef<Storage>('workbench.storage'),
  Events: createServiceRef<EventBus>('workbench.events'),
  Scheduler: createServiceRef<Scheduler>('workbench.scheduler'),
  Standards: createServiceRef<StandardsRegistry>('workbench.standards'),
  Entitlement: createServiceRef<Entitlement>('workbench.entitlement'),
  Auth: createServiceRef<AuthService>('workbench.auth'),
  ApiKeys: createServiceRef<ApiKeyStore>('workbench.api-keys'),
  Clock: createServiceRef<Clock>('workbench.clock'),
  Cache: createServiceRef<Cache>('workbench.cache'),
  Errors: createServiceRef<ErrorRegistry>('workbench.errors'),
  StandardsRunner: createServiceRef<StandardsRunner>('workbench.standards-runner'),
} as const;
