/**
 * Typed references to the services plugins share through the container: the token and the service's type travel
 * together, so a consumer resolves a service without naming its type again (no `resolve<T>` cast that could name
 * the wrong one) and a provider cannot register something of another shape under it.
 *
 * ```ts
 * export const AUDIT_TRAIL = createServiceRef<AuditTrail>('workbench.audit-trail');   // the plugin's api.ts
 * provideService(context.container, AUDIT_TRAIL, store);                            // the providing plugin
 * const audit = resolveService(context.container, AUDIT_TRAIL);                     // a consumer: an AuditTrail
 * ```
 *
 * A reference is the container token itself (a registered symbol), so code that still resolves it by hand works.
 */
import type { DependencyContainer } from 'tsyringe';

declare const SERVICE_TYPE: unique symbol;

/** The container token of a service of type `T`. */
export type ServiceRef<T> = symbol & { readonly [SERVICE_TYPE]?: T };

/** A reference to the service registered under `id` (`workbench.<name>`). */
export function createServiceRef<T>(id: string): ServiceRef<T> {
  return Symbol.for(id) as ServiceRef<T>;
}

/** The service a reference names, of the reference's type (throws when no plugin provided it). */
export function resolveService<T>(container: DependencyContainer, ref: ServiceRef<T>): T {
  return container.resolve<T>(ref);
}

/** Registers the instance that provides a referenced service. */
export function provideService<T>(container: DependencyContainer, ref: ServiceRef<T>, service: T): void {
  container.registerInstance<T>(ref, service);
}
