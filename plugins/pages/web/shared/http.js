// The pages' calls to the public JSON API of their own base (same origin; the strict policy allows nothing else). An
// error answer becomes an ApiError carrying the API's code, message and details, so a form can show each problem at
// its field. Plain module (no view library), so Node can run it too.

/** An error answer of the API: its status, code, message and details (for VALIDATION_FAILED: one per field). */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** The problems naming a field, by field name (`directoryPath` -> message), from the API's details. */
  fieldProblems() {
    const byField = {};
    for (const problem of Array.isArray(this.details) ? this.details : []) {
      if (problem && typeof problem.path === 'string' && typeof problem.message === 'string') {
        const field = problem.path.split('.')[0];
        byField[field] = byField[field] ? `${byField[field]}; ${problem.message}` : problem.message;
      }
    }
    return byField;
  }
}

/** Calls the API and answers its `data`; throws ApiError on an error answer. */
export async function api(path, options = {}) {
  return (await apiEnvelope(path, options)).data;
}

/**
 * Calls the API and answers its whole envelope (`data`, and on a list route `page: {next, truncated, limit}`); throws
 * ApiError on an error answer.
 */
export async function apiEnvelope(path, { method = 'GET', body, signal, headers = {} } = {}) {
  const init = { method, headers: { accept: 'application/json', ...headers }, signal };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const payload = await response.json().catch(() => null);
  if (!response.ok || !payload || payload.success !== true) {
    const error = payload && payload.error ? payload.error : {};
    throw new ApiError(response.status, error.code || `HTTP_${response.status}`, error.message || `${path} answered HTTP ${response.status}`, error.details);
  }
  return payload;
}

/** A query string from an object, leaving out empty values (`{a: 1, b: ''}` -> `?a=1`). */
export function queryString(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
