/**
 * Events the kernel's auth layer emits, so an audit trail can record key changes and refused credentials without
 * the kernel knowing who listens. Payloads never carry a secret: a key is named by its public prefix only.
 */

/** A credential a request presented and the service refused (401), or a valid one without the needed role (403). */
export interface CredentialRefusedEvent {
  status: 401 | 403;
  reason: string;
  /** `api-key`, `bearer` (a JWT or other token), `session`, or `none` when nothing was sent. */
  credentialKind: 'api-key' | 'bearer' | 'session' | 'none';
  /** Public prefix of a presented API key (`wbk_<id>`), never the secret part. */
  keyPrefix?: string;
  /** Who holds the valid credential refused for its role (403 only): how it proved itself and its user or key id. */
  holder?: { kind: 'api-key' | 'jwt' | 'session'; subject: string };
  method: string;
  url: string;
  requestId: string;
  sourceAddress: string;
}

/** An API key was created or revoked (CLI `workbench keys` or any other caller of the key store). */
export interface ApiKeyChangedEvent {
  change: 'created' | 'revoked';
  keyId: string;
  prefix: string;
  role?: string;
}

declare module '../events.ts' {
  interface WorkbenchEvents {
    'auth.credential-refused': CredentialRefusedEvent;
    'auth.api-key-changed': ApiKeyChangedEvent;
  }
}
