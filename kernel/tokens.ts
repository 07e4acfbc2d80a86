/**
 * Container tokens of the kernel services. Everything is injected by explicit token (never by type), because the
 * TypeScript runners used here emit no decorator metadata.
 */
export const TOKENS = {
  Config: Symbol.for('workbench.config'),
  Logger: Symbol.for('workbench.logger'),
  Storage: Symbol.for('workbench.storage'),
  Events: Symbol.for('workbench.events'),
  Scheduler: Symbol.for('workbench.scheduler'),
  Standards: Symbol.for('workbench.standards'),
  Entitlement: Symbol.for('workbench.entitlement'),
  Auth: Symbol.for('workbench.auth'),
  ApiKeys: Symbol.for('workbench.api-keys'),
  Clock: Symbol.for('workbench.clock'),
  Cache: Symbol.for('workbench.cache'),
  Errors: Symbol.for('workbench.errors'),
  StandardsRunner: Symbol.for('workbench.standards-runner'),
} as const;
