/**
 * A tiny HTTP client over node:http for tests: unlike fetch it lets a test forge the Host header or leave it out,
 * which is exactly what the request guard must refuse.
 */
import http from 'node:http';

/** A response as tests read it. */
export interface TestResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // tests inspect arbitrary JSON
  json: any;
}

/** Request options. */
export interface TestRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** JSON-serialised unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string | Buffer;
  /** Send no Host header at all. */
  omitHost?: boolean;
  /** Loopback address to send from (127.0.0.2 and so on), so a test can be several sources. */
  localAddress?: string;
}

/** Sends one request to a base URL. */
export function send(baseUrl: string, request: TestRequest): Promise<TestResponse> {
  const url = new URL(request.path, baseUrl);
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  let payload: string | Buffer | undefined = request.rawBody;
  if (payload === undefined && request.body !== undefined) {
    payload = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        path: url.pathname + url.search,
        method: request.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers,
        setHost: !request.omitHost,
        agent: false,
        ...(request.localAddress ? { localAddress: request.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
