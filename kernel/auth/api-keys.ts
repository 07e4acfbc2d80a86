/**
 * API keys: random, with a visible prefix (`wbk_<id>_...`), shown once at creation and stored only as a SHA-256
 * digest; checked in constant time; revocable.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { ApiKeyChangedEvent } from './auth-events.ts';

/** A stored key as listed (never the secret). */
export interface ApiKeyRecord {
  id: string;
  prefix: string;
  name: string;
  role: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** The one-time answer of a key creation. */
export interface CreatedApiKey extends ApiKeyRecord {
  /** The full key; shown once, never stored. */
  key: string;
}

interface ApiKeyRow {
  id: string;
  prefix: string;
  name: string;
  role: string;
  digest: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

const KEY_PATTERN = /^wbk_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

function digestOf(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    role: row.role,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

/** Why a presented key was refused (see {@link ApiKeyStore.verify}). */
export interface ApiKeyRefusal {
  refused: 'malformed' | 'unknown' | 'revoked' | 'mismatch';
}

/** Creates, lists, revokes and verifies API keys. */
export class ApiKeyStore {
  constructor(
    private readonly db: Kysely<{ kernel_api_keys: ApiKeyRow }>,
    private readonly clock: Clock,
    /** Told of every creation and revocation (the kernel forwards it to the event bus for the audit trail). */
    private readonly onChange?: (event: ApiKeyChangedEvent) => void,
  ) {}

  /** Makes a key with a role; the returned `key` is the only time the secret is visible. */
  async create(role: string, name = 'api key'): Promise<CreatedApiKey> {
    const id = randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 12);
    const secret = randomBytes(32).toString('base64url');
    const prefix = `wbk_${id}`;
    const key = `${prefix}_${secret}`;
    const row: ApiKeyRow = {
      id,
      prefix,
      name,
      role,
      digest: digestOf(key).toString('hex'),
      created_at: this.clock.now().toISOString(),
      revoked_at: null,
      last_used_at: null,
    };
    await this.db.insertInto('kernel_api_keys').values(row).execute();
    this.onChange?.({ change: 'created', keyId: id, prefix, role });
    return { ...toRecord(row), key };
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.selectFrom('kernel_api_keys').selectAll().orderBy('created_at').execute();
    return rows.map(toRecord);
  }

  /** Revokes a key by id or prefix; false when no such active key. */
  async revoke(idOrPrefix: string): Promise<boolean> {
    const id = idOrPrefix.replace(/^wbk_/, '').slice(0, 12);
    const result = await this.db
      .updateTable('kernel_api_keys')
      .set({ revoked_at: this.clock.now().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const revoked = Number(result.numUpdatedRows) > 0;
    if (revoked) this.onChange?.({ change: 'revoked', keyId: id, prefix: `wbk_${id}` });
    return revoked;
  }

  /** True when the text has the shape of one of our keys (so it is not tried as a JWT). */
  static looksLikeKey(text: string): boolean {
    return text.startsWith('wbk_');
  }

  /**
   * The active key matching the presented secret, compared in constant time; otherwise why not: `malformed` (not
   * the shape of a key), `unknown` (no key has its prefix in this store: made in another data folder, most likely),
   * `revoked`, or `mismatch` (the prefix is known, the secret is not its secret).
   */
  async verify(presented: string): Promise<ApiKeyRecord | ApiKeyRefusal> {
    const match = KEY_PATTERN.exec(presented);
    if (!match) return { refused: 'malformed' };
    const row = await this.db.selectFrom('kernel_api_keys').selectAll().where('id', '=', match[1]).executeTakeFirst();
    if (!row) return { refused: 'unknown' };
    if (row.revoked_at) return { refused: 'revoked' };
    const expected = Buffer.from(row.digest, 'hex');
    const actual = digestOf(presented);
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { refused: 'mismatch' };
    await this.db
      .updateTable('kernel_api_keys')
      .set({ last_used_at: this.clock.now().toISOString() })
      .where('id', '=', row.id)
      .execute();
    return toRecord(row);
  }
}
