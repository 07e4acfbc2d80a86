/**
 * The single sign-on plugin (monitor base, enterprise tier): an OpenID Connect provider configured through the API
 * (discovery with openid-client; client secret sealed with AES-256-GCM under a 0600 key file in the data dir),
 * bearer tokens from that issuer verified with jose against its JWKS, and browser sign-in with sessions.
 */
import { join } from 'node:path';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { ssoConfigSchema, type SsoConfig } from './sso-config.ts';
import { AUDIT_TRAIL } from '../audit/api.ts';
import { ActiveIssuer } from './active-issuer.ts';
import { registerProviderRoutes } from './provider-routes.ts';
import { SecretBox } from './secret-box.ts';
import { SESSION_COOKIE, registerSignInRoutes } from './sign-in-routes.ts';
import { ssoErrors } from './sso-errors.ts';
import { SsoStore, ssoMigrations } from './sso-store.ts';
import { createSsoTokenVerifier } from './sso-token-verifier.ts';
import { UserMapping } from './user-mapping.ts';

/** Registers storage, the token and session verifiers, and the routes. */
export const plugin: PluginModule<SsoConfig> = {
  configSchema: ssoConfigSchema,
  async register(context) {
    context.registerErrors(ssoErrors.catalogue);
    await context.storage.migrate(ssoMigrations);
    const audit = resolveService(context.container, AUDIT_TRAIL);
    const store = new SsoStore(context.storage.db);
    const box = new SecretBox(join(context.dataDir, context.config.secretKeyFile));
    const active = new ActiveIssuer(store, box, context.clock);
    const users = new UserMapping(store, context.auth.roles, audit, context.clock);

    context.auth.addTokenVerifier(createSsoTokenVerifier(() => active.current(), users, context.clock));
    context.auth.addSessionVerifier({
      cookieName: SESSION_COOKIE,
      async verify(value) {
        const session = await store.session(value, context.clock.now().toISOString());
        if (!session) return undefined;
        const assignment = await context.auth.roles.get(session.userId);
        return { kind: 'session', subject: session.userId, roles: assignment ? [assignment.role] : [] };
      },
    });
    registerProviderRoutes(context.routes, { store, box, active, audit, clock: context.clock });
    registerSignInRoutes(context.routes, { store, active, users, audit, settings: context.config, clock: context.clock });
    context.scheduler.schedule('sso-expired-sessions', '23 * * * *', async () => {
      await store.removeExpiredSessions(context.clock.now().toISOString());
    });
  },
};
