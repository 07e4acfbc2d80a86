/**
 * Tables of single sign-on: the configured provider (client secret sealed, discovery metadata kept so tokens verify
 * without asking the issuer again), the users seen per issuer, and browser sessions (only a SHA-256 digest of the
 * session cookie is stored, so a copy of the database signs nobody in).
 */
import { createHash } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

interface ProviderRow {
  provider_type: string;
  display_name: string;
  client_id: string;
  client_secret_sealed: string;
  issuer_url: string;
  /** The issuer's discovery document (JSON). */
  metadata: string;
  jit_provisioning: number;
  /** Extra accepted audience of access tokens (JSON array), besides the client id. */
  audiences: string;
  configured_at: string;
  updated_at: string;
}

interface UserRow {
  issuer: string;
  subject: string;
  user_id: string;
  email: string | null;
  first_seen_at: string;
  last_seen_at: string;
}

interface SessionRow {
  digest: string;
  user_id: string;
  issuer: string;
  created_at: string;
  expires_at: string;
}

interface SsoTables {
  sso_providers: ProviderRow;
  sso_users: UserRow;
  sso_sessions: SessionRow;
}

/** A configured provider, secret still sealed. */
export interface StoredProvider {
  providerType: string;
  displayName: string;
  clientId: string;
  clientSecretSealed: string;
  issuerUrl: string;
  metadata: Record<string, unknown>;
  jitProvisioning: boolean;
  audiences: string[];
  configuredAt: string;
  updatedAt: string;
}

/** A browser session. */
export interface SsoSession {
  userId: string;
  issuer: string;
  createdAt: string;
  expiresAt: string;
}

/** Migrations of the single sign-on tables. */
export const ssoMigrations: Record<string, Migration> = {
  '001_sso': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sso_providers')
        .ifNotExists()
        .addColumn('provider_type', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
        .addColumn('client_id', 'varchar(500)', (c) => c.notNull())
        .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
        .addColumn('issuer_url', 'varchar(2000)', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('jit_provisioning', 'integer', (c) => c.notNull())
        .addColumn('audiences', 'text', (c) => c.notNull())
        .addColumn('configured_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sso_users')
        .ifNotExists()
        .addColumn('issuer', 'varchar(2000)', (c) => c.notNull())
        .addColumn('subject', 'varchar(500)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('email', 'varchar(500)')
        .addColumn('first_seen_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('last_seen_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('sso_users_pk', ['issuer', 'subject'])
        .execute();
      await db.schema
        .createTable('sso_sessions')
        .ifNotExists()
        .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('issuer', 'varchar(2000)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
        .execute();
    },
  },
};

/** SHA-256 (hex) of a session cookie value: what the sessions table stores. */
export function sessionDigest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function toProvider(row: ProviderRow): StoredProvider {
  return {
    providerType: row.provider_type,
    displayName: row.display_name,
    clientId: row.client_id,
    clientSecretSealed: row.client_secret_sealed,
    issuerUrl: row.issuer_url,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    jitProvisioning: Boolean(row.jit_provisioning),
    audiences: JSON.parse(row.audiences) as string[],
    configuredAt: row.configured_at,
    updatedAt: row.updated_at,
  };
}

/** Reads and writes the single sign-on tables. */
export class SsoStore {
  constructor(private readonly db: Kysely<SsoTables>) {}

  /** Every configured provider. */
  async providers(): Promise<StoredProvider[]> {
    const rows = await this.db.selectFrom('sso_providers').selectAll().orderBy('provider_type').execute();
    return rows.map(toProvider);
  }

  /** Stores (or replaces) a provider; keeps the first configuration time. */
  async saveProvider(provider: Omit<StoredProvider, 'configuredAt'>): Promise<StoredProvider> {
    return this.db.transaction().execute(async (trx) => {
      const previous = await trx
        .selectFrom('sso_providers')
        .select('configured_at')
        .where('provider_type', '=', provider.providerType)
        .executeTakeFirst();
      const row: ProviderRow = {
        provider_type: provider.providerType,
        display_name: provider.displayName,
        client_id: provider.clientId,
        client_secret_sealed: provider.clientSecretSealed,
        issuer_url: provider.issuerUrl,
        metadata: JSON.stringify(provider.metadata),
        jit_provisioning: provider.jitProvisioning ? 1 : 0,
        audiences: JSON.stringify(provider.audiences),
        configured_at: previous?.configured_at ?? provider.updatedAt,
        updated_at: provider.updatedAt,
      };
      await trx.deleteFrom('sso_providers').where('provider_type', '=', provider.providerType).execute();
      await trx.insertInto('sso_providers').values(row).execute();
      return toProvider(row);
    });
  }

  /** Removes a provider and ends the sessions it signed in; false when none was configured. */
  async removeProvider(providerType: string): Promise<StoredProvider | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('sso_providers').selectAll().where('provider_type', '=', providerType).executeTakeFirst();
      if (!row) return undefined;
      await trx.deleteFrom('sso_providers').where('provider_type', '=', providerType).execute();
      await trx.deleteFrom('sso_sessions').where('issuer', '=', String(JSON.parse(row.metadata).issuer ?? row.issuer_url)).execute();
      return toProvider(row);
    });
  }

  /** The user id an issuer's subject maps to, if seen before. */
  async userFor(issuer: string, subject: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('sso_users')
      .select('user_id')
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Records a user as seen now (creating the mapping on first sight). */
  async rememberUser(issuer: string, subject: string, userId: string, email: string | null, at: string): Promise<void> {
    const updated = await this.db
      .updateTable('sso_users')
      .set({ last_seen_at: at, email })
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    await this.db
      .insertInto('sso_users')
      .values({ issuer, subject, user_id: userId, email, first_seen_at: at, last_seen_at: at })
      .execute();
  }

  /** Stores a session by the digest of its cookie value. */
  async createSession(value: string, session: SsoSession): Promise<void> {
    await this.db
      .insertInto('sso_sessions')
      .values({
        digest: sessionDigest(value),
        user_id: session.userId,
        issuer: session.issuer,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  /** The session of a cookie value, when it exists and has not expired at `now`. */
  async session(value: string, now: string): Promise<SsoSession | undefined> {
    const row = await this.db
      .selectFrom('sso_sessions')
      .selectAll()
      .where('digest', '=', sessionDigest(value))
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? { userId: row.user_id, issuer: row.issuer, createdAt: row.created_at, expiresAt: row.expires_at } : undefined;
  }

  /** Ends a session; false when there was none. */
  async endSession(value: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sso_sessions').where('digest', '=', sessionDigest(value)).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Removes expired sessions; answers how many. */
  async removeExpiredSessions(now: string): Promise<number> {
    const result = await this.db.deleteFrom('sso_sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
