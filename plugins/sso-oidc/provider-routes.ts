/**
 * Provider configuration routes (policy MonitorAdmin): list, configure (runs discovery; the client secret is sealed
 * and never answered or logged), remove. Every change is audited without the secret.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.ts';
import type { RouteRegistrar, RouteDefinition } from '../../kernel/plugin-api.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import { auditContextOf, type AuditTrail } from '../audit/api.ts';
import type { ActiveIssuer } from './active-issuer.ts';
import { discoverIssuer } from './oidc-issuer.ts';
import type { SecretBox } from './secret-box.ts';
import type { SsoStore, StoredProvider } from './sso-store.ts';
import { SSO_EXAMPLES } from './sso-examples.ts';

const ADMIN: Pick<RouteDefinition, 'tags' | 'tier' | 'policy'> = { tags: ['sso'], tier: 'enterprise', policy: 'MonitorAdmin' };

/** A provider as answered: everything but the secret. */
const providerSchema = z.object({
  providerType: z.string(),
  displayName: z.string(),
  clientId: z.string(),
  issuerUrl: z.string(),
  issuer: z.string(),
  jitProvisioning: z.boolean(),
  audiences: z.array(z.string()),
  clientSecretSet: z.boolean(),
  configuredAt: z.string(),
  updatedAt: z.string(),
});

function publicView(provider: StoredProvider): z.infer<typeof providerSchema> {
  return {
    providerType: provider.providerType,
    displayName: provider.displayName,
    clientId: provider.clientId,
    issuerUrl: provider.issuerUrl,
    issuer: String(provider.metadata.issuer),
    jitProvisioning: provider.jitProvisioning,
    audiences: provider.audiences,
    clientSecretSet: provider.clientSecretSealed !== '',
    configuredAt: provider.configuredAt,
    updatedAt: provider.updatedAt,
  };
}

/** What the provider routes work with. */
export interface ProviderRouteDeps {
  /** The configured providers. */
  store: SsoStore;
  /** Seals the client secret at rest. */
  box: SecretBox;
  /** The issuer sign-in currently uses. */
  active: ActiveIssuer;
  /** Where each change is recorded. */
  audit: AuditTrail;
  /** The clock a change's time is read from. */
  clock: Clock;
}

/** Registers the provider routes. */
export function registerProviderRoutes(routes: RouteRegistrar, deps: ProviderRouteDeps): void {
  const { store, box, active, audit } = deps;

  routes.route({
    ...ADMIN,
    method: 'GET',
    url: '/api/monitor/sso/providers',
    examples: SSO_EXAMPLES.listProviders,
    summary: 'Configured single sign-on providers (never the client secret)',
    response: z.array(providerSchema),
    async handler() {
      return (await store.providers()).map(publicView);
    },
  });

  routes.route({
    ...ADMIN,
    method: 'POST',
    url: '/api/monitor/sso/configure',
    examples: SSO_EXAMPLES.configure,
    summary: 'Configure the OpenID Connect provider (runs discovery; https unless loopback; the secret is write-only)',
    body: z
      .object({
        providerType: z.literal('oidc'),
        displayName: z.string().trim().min(1).max(200),
        clientId: z.string().min(1).max(500),
        clientSecret: z.string().min(1).max(2000),
        issuerUrl: z.string().min(1).max(2000),
        jitProvisioning: z.boolean().default(false),
        /** Extension: audiences of JWT access tokens to accept besides the client id. */
        audiences: z.array(z.string().min(1).max(500)).max(10).default([]),
      })
      .strict(),
    errors: ['SSO_ISSUER_INSECURE', 'SSO_DISCOVERY_FAILED'],
    response: providerSchema,
    async handler(request) {
      const body = request.body;
      const metadata = await discoverIssuer(body.issuerUrl, body.clientId, body.clientSecret);
      const saved = await store.saveProvider({
        providerType: body.providerType,
        displayName: body.displayName,
        clientId: body.clientId,
        clientSecretSealed: box.seal(body.clientSecret),
        issuerUrl: body.issuerUrl,
        metadata,
        jitProvisioning: body.jitProvisioning,
        audiences: body.audiences,
        updatedAt: deps.clock.now().toISOString(),
      });
      active.invalidate();
      await audit.record({
        ...auditContextOf(request),
        action: 'sso.configure',
        resourceType: 'sso-provider',
        resourceId: body.providerType,
        outcome: 'success',
        details: { issuer: String(metadata.issuer), clientId: body.clientId, jitProvisioning: body.jitProvisioning },
      });
      return publicView(saved);
    },
  });

  routes.route({
    ...ADMIN,
    method: 'DELETE',
    url: '/api/monitor/sso/providers/:providerType',
    examples: SSO_EXAMPLES.removeProvider,
    summary: 'Remove a provider; its tokens stop being accepted and its browser sessions end',
    params: z.object({ providerType: z.string().min(1).max(40) }),
    errors: ['NOT_FOUND'],
    response: z.object({ providerType: z.string(), removed: z.boolean() }),
    async handler(request) {
      const { providerType } = request.params;
      const removed = await store.removeProvider(providerType);
      if (!removed) throw kernelErrors.create('NOT_FOUND', { what: `A single sign-on provider "${providerType}"` });
      active.invalidate();
      await audit.record({
        ...auditContextOf(request),
        action: 'sso.remove',
        resourceType: 'sso-provider',
        resourceId: providerType,
        outcome: 'success',
        details: { issuer: String(removed.metadata.issuer) },
      });
      return { providerType, removed: true };
    },
  });
}
