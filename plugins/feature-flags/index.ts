/**
 * The feature-flags plugin: `GET /api/features` (public). Anonymous callers get the global flags; an authenticated
 * caller (API key or JWT) gets its organisation's flags on top (organisation `default` when the token names none).
 * It also supplies the kernel's feature switches: a flag named after a plugin, set false, switches that plugin's
 * routes off (404 FEATURE_DISABLED).
 */
import { z } from 'zod';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { provideService } from '../../kernel/service-ref.ts';
import { featureFlagsConfigSchema, type FeatureFlagConfig } from './feature-flags-config.ts';
import { FEATURE_FLAGS } from './api.ts';
import { FeatureFlagStore, featureFlagMigrations } from './flag-store.ts';

/** Registers the store and the route. */
export const plugin: PluginModule<FeatureFlagConfig> = {
  configSchema: featureFlagsConfigSchema,
  async register(context) {
    await context.storage.migrate(featureFlagMigrations);
    const store = new FeatureFlagStore(context.storage.db, context.config.flags);
    provideService(context.container, FEATURE_FLAGS, store);
    // Every plugin's routes are switched by the flag named after it (monitor, analytics, tracing, ai-triage, ...).
    context.featureSwitches.use(store);
    context.routes.route({
      method: 'GET',
      url: '/api/features',
      summary: 'Feature flags (global, or the caller organisation when authenticated)',
      tags: ['features'],
      optionalAuth: true,
      examples: { response: { scope: 'global', organizationId: null, flags: { betaDashboards: true, aiTriage: false } } },
      response: z.object({
        scope: z.enum(['global', 'organization']),
        organizationId: z.string().nullable(),
        flags: z.record(z.string(), z.boolean()),
      }),
      async handler({ principal }) {
        if (!principal) return { scope: 'global' as const, organizationId: null, flags: await store.global() };
        const organizationId = principal.organizationId ?? 'default';
        return { scope: 'organization' as const, organizationId, flags: await store.forOrganization(organizationId) };
      },
    });
  },
};
