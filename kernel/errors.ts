/**
 * Errors are data: every failure a caller can see has a stable UPPER_SNAKE code, an HTTP status and a message
 * template. The kernel owns one catalogue (below); each plugin declares its own with {@link defineErrorCatalogue}
 * and docs/reference/error-codes.md lists every code of every catalogue (a test keeps them in step).
 */

/** One entry of an error catalogue. */
export interface ErrorDefinition {
  /** HTTP status the error maps to. */
  status: number;
  /** Message template; `{name}` placeholders are filled from the params given when the error is raised. */
  message: string;
}

/** A catalogue: code -> definition. */
export type ErrorCatalogue = Record<string, ErrorDefinition>;

/** An error a caller may see: code, status, human message and optional structured details. */
export class WorkbenchError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  /** Response headers that go with the error (e.g. `retry-after` on 503). */
  readonly headers?: Readonly<Record<string, string>>;

  constructor(code: string, status: number, message: string, details?: unknown, headers?: Record<string, string>) {
    super(message);
    this.name = 'WorkbenchError';
    this.code = code;
    this.status = status;
    this.details = details;
    if (headers) this.headers = headers;
  }
}

/** Fills `{name}` placeholders of a template; unknown names stay as they are. */
export function formatTemplate(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}

/** Factory returned by {@link defineErrorCatalogue}: `errors.create('CODE', {params}, details)` builds the error. */
export interface ErrorFactory<C extends ErrorCatalogue> {
  readonly catalogue: C;
  create(
    code: keyof C & string,
    params?: Record<string, unknown>,
    details?: unknown,
    headers?: Record<string, string>,
  ): WorkbenchError;
}

/**
 * Declares a catalogue of error codes and returns a factory for them. Catalogues are registered with the kernel's
 * error registry by the plugin context, so the documentation test can see every code.
 */
export function defineErrorCatalogue<C extends ErrorCatalogue>(catalogue: C): ErrorFactory<C> {
  return {
    catalogue,
    create(code, params, details, headers) {
      const def = catalogue[code];
      return new WorkbenchError(code, def.status, formatTemplate(def.message, params), details, headers);
    },
  };
}

/** The kernel's own error codes. */
export const kernelErrors = defineErrorCatalogue({
  VALIDATION_FAILED: { status: 400, message: 'The request is invalid: {summary}' },
  BAD_REQUEST: { status: 400, message: 'The request is malformed: {reason}' },
  WINDOW_INVALID: { status: 400, message: 'The time window is invalid: {problem}' },
  CURSOR_INVALID: { status: 400, message: 'Cursor "{cursor}" is not a position this list gave out; pass the next value of an earlier page.' },
  INVALID_URL: { status: 400, message: 'The request URL is malformed: {reason}' },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON: {reason}' },
  JSON_TOO_DEEP: { status: 400, message: '{where} nests JSON deeper than {limit} levels, more than the service accepts; send flatter JSON.' },
  TOO_MANY_PATTERNS: { status: 400, message: '{field} holds {count} patterns; at most {max} are accepted.' },
  PATTERN_TOO_LONG: { status: 400, message: '{field} is {length} characters long; a pattern may have at most {max}.' },
  UNAUTHORIZED: { status: 401, message: '{reason}' },
  TIER_REQUIRED: { status: 402, message: 'This feature needs the {tier} tier; the configured tier is {current}.' },
  FORBIDDEN: { status: 403, message: '{reason}' },
  HOST_NOT_ALLOWED: { status: 403, message: 'Host header "{host}" is not a loopback address of this service.' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Origin "{origin}" may not change state on this service.' },
  CROSS_SITE_REFUSED: {
    status: 403,
    message:
      'The browser marks this request as {site} (Sec-Fetch-Site): a page of another site or port may not read data or start work here; open this service\'s own page, or list that origin in http.allowedOrigins.',
  },
  NOT_FOUND: { status: 404, message: '{what} was not found.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No route {method} {url}.' },
  FEATURE_DISABLED: {
    status: 404,
    message:
      'This feature is switched off by the feature flag "{flag}"; an admin turns it on with PUT /api/monitor/admin/features/{flag} {"enabled": true}.',
  },
  ROUTE_ON_OTHER_BASE: {
    status: 404,
    message: 'No route {method} {url} on the {base} base; the {otherBase} base serves it: {method} {otherUrl}',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than the limit of {limit} bytes.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'Content-Type "{contentType}" is not supported here; send {accepted}.',
  },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time; send it again.' },
  PROCESSING_TIME_EXCEEDED: {
    status: 422,
    message: 'The work took longer than its time budget of {budgetMs} ms and was stopped; send a smaller input.',
  },
  PROCESSING_MEMORY_EXCEEDED: {
    status: 422,
    message: 'The work needed more memory than a worker may use ({limitMb} MB) and was stopped; send a smaller input.',
  },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are larger than the service accepts.' },
  INTERNAL_ERROR: { status: 500, message: 'An internal error occurred; the service log has the details.' },
  SERVER_BUSY: {
    status: 503,
    message: 'The service is busy with other large requests; retry in {retryAfter} seconds (Retry-After).',
  },
  WORKER_UNAVAILABLE: {
    status: 503,
    message: 'The worker threads that run large requests are unavailable ({reason}); the service retries by itself. Retry in {retryAfter} seconds (Retry-After).',
  },
  SERVICE_STOPPING: { status: 503, message: 'The service is stopping; the request was not completed.' },
  STORE_UNAVAILABLE: {
    status: 503,
    message: 'The database is unreachable; the request was not completed. Retry in {retryAfter} seconds (Retry-After).',
  },
  STORAGE_FULL: {
    status: 507,
    message: 'The disk of {where} is full; nothing of the request was stored. Free space there: the service resumes by itself.',
  },
});

/** Every catalogue known to the process, by owner (`kernel` or a plugin id). */
export class ErrorRegistry {
  private readonly owners = new Map<string, ErrorCatalogue>();

  constructor() {
    this.owners.set('kernel', kernelErrors.catalogue);
  }

  /**
   * Adds a plugin's catalogue. A code another owner already has is refused when its status differs (a caller could
   * not tell what the code means); the same code with the same status is shared (`UNKNOWN_MESSAGE_TYPE` of each
   * standard), and docs/reference/error-codes.md lists it once per owner.
   */
  register(owner: string, catalogue: ErrorCatalogue): void {
    for (const [code, def] of Object.entries(catalogue)) {
      for (const [otherOwner, other] of this.owners) {
        if (otherOwner !== owner && other[code] && other[code].status !== def.status) {
          throw new Error(`Error code ${code} of ${owner} clashes with ${otherOwner} (status ${other[code].status}).`);
        }
      }
    }
    this.owners.set(owner, { ...(this.owners.get(owner) ?? {}), ...catalogue });
  }

  /** All codes with their owner and definition. */
  list(): Array<{ owner: string; code: string; status: number; message: string }> {
    const rows: Array<{ owner: string; code: string; status: number; message: string }> = [];
    for (const [owner, catalogue] of this.owners) {
      for (const [code, def] of Object.entries(catalogue)) rows.push({ owner, code, ...def });
    }
    return rows;
  }
}
