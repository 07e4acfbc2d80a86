/**
 * The provider in force, built once from storage and kept until a configuration change in this process (or, for a
 * store shared by several processes, for at most `REFRESH_MS`). The secret is opened only here, in memory.
 */
import type { Clock } from '../../kernel/clock.ts';
import { OidcIssuer } from './oidc-issuer.ts';
import type { SecretBox } from './secret-box.ts';
import type { SsoStore } from './sso-store.ts';

const REFRESH_MS = 30_000;

/** Holds the current provider. */
export class ActiveIssuer {
  private cached: { issuer: OidcIssuer | undefined; at: number } | undefined;

  constructor(
    private readonly store: SsoStore,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** The configured provider, or undefined. */
  async current(): Promise<OidcIssuer | undefined> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.cached.at < REFRESH_MS) return this.cached.issuer;
    const [stored] = await this.store.providers();
    const issuer = stored
      ? await OidcIssuer.create(
          stored.metadata,
          stored.clientId,
          this.box.open(stored.clientSecretSealed),
          [stored.clientId, ...stored.audiences],
          stored.jitProvisioning,
        )
      : undefined;
    this.cached = { issuer, at: now };
    return issuer;
  }

  /** Forgets the cached provider (after a configuration change). */
  invalidate(): void {
    this.cached = undefined;
  }
}
