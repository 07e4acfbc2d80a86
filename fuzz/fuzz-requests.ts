/**
 * Turns mutated messages into requests to the bridge's routes, the way callers send them: validate as JSON (standard
 * named or detected, either mode, a profile or a bogus one), validate with the message as the raw body, diff (with
 * pathological ignoredFields), generate and describe with odd parameters. Sending keeps connections alive and times
 * each request; a request that gets no answer within the hang limit is aborted and counted.
 */
import http from 'node:http';
import { type Chooser, type FuzzStandard, mutate, pathologicalIgnoredFields } from './mutations.ts';

/** One request to send. */
export interface FuzzRequest {
  /** Route label for the report (`POST /api/validate`). */
  route: string;
  method: 'GET' | 'POST';
  path: string;
  contentType?: string;
  body?: string;
  /** What was done to the message, for findings. */
  mutations: string[];
}

/** What came back. */
export interface FuzzAnswer {
  status: number;
  /** Milliseconds from sending to the whole answer; for a hang, the hang limit. */
  ms: number;
  /** Error code of the envelope, when there is one. */
  code?: string;
  hung?: boolean;
  /** A connection error (reset, refused) instead of an answer. */
  connectionError?: string;
}

/** Profiles per standard a request may name (one of each pack's, plus a name no pack has). */
const PROFILES: Record<FuzzStandard, string[]> = {
  hl7: ['cdc-elr-oru-r01', 'acme-adt', 'ihe-pam-adt-encounter', 'cdc-iz-vxu-v04', 'no-such-profile'],
  fhir: ['us-core-patient', 'us-core-observation-lab', 'no-such-profile'],
  ncpdp: ['no-such-profile'],
};

const MESSAGE_TYPES: Record<FuzzStandard, string[]> = {
  hl7: ['ADT^A01', 'ORU^R01', 'VXU^V04', 'SIU^S12', 'ADT^A40', 'XYZ^Z99', ''],
  fhir: ['Patient', 'Bundle', 'Observation', 'Nope'],
  ncpdp: ['NewRx', 'B1', 'Batch', 'CancelRx', 'Nope'],
};

const DESCRIBE_PATHS = ['PID.5', 'PID.5.1', 'MSH', 'OBX.5.2', 'ZZZ.1', 'Patient.name.family', 'NewRx.Patient', 'AM07.D2', '', '.'.repeat(500), 'PID.99999999999'];

/** Builds the next request for a standard from one of its corpus messages. */
export function nextRequest(standard: FuzzStandard, corpus: readonly string[], choose: Chooser): FuzzRequest {
  const original = choose.pick(corpus);
  const { text, applied } = mutate(original, standard, choose);
  const named = choose.int(0, 3) > 0 ? { standard } : {};
  const mode = choose.pick(['strict', 'compatibility', 'strict']);
  const profile = choose.int(0, 4) === 0 ? { profile: choose.pick(PROFILES[standard]) } : {};
  const kind = choose.int(0, 99);
  if (kind < 50) {
    return {
      route: 'POST /api/validate',
      method: 'POST',
      path: '/api/validate',
      contentType: 'application/json',
      body: JSON.stringify({ messageContent: text, mode, ...named, ...profile }),
      mutations: applied,
    };
  }
  if (kind < 65) {
    const query = new URLSearchParams({ mode });
    if (named.standard) query.set('standard', named.standard);
    if (profile.profile) query.set('profile', profile.profile);
    return {
      route: 'POST /api/validate (raw body)',
      method: 'POST',
      path: `/api/validate?${query.toString()}`,
      contentType: choose.pick(['text/plain', 'application/xml', 'application/fhir+json', 'x-application/hl7-v2+er7']),
      body: text,
      mutations: applied,
    };
  }
  if (kind < 90) {
    const right = mutate(original, standard, choose);
    const ignored = choose.int(0, 2) === 0 ? { ignoredFields: pathologicalIgnoredFields(choose) } : {};
    return {
      route: 'POST /api/diff',
      method: 'POST',
      path: '/api/diff',
      contentType: 'application/json',
      body: JSON.stringify({ leftMessage: choose.int(0, 1) === 0 ? original : text, rightMessage: right.text, ...named, ...ignored }),
      mutations: [...applied, ...right.applied, ...(ignored.ignoredFields ? ['pathological ignoredFields'] : [])],
    };
  }
  if (kind < 95) {
    const body: Record<string, unknown> = {
      standard: choose.int(0, 9) === 0 ? choose.pick(['HL7', 'x', '']) : standard,
      messageType: choose.pick(MESSAGE_TYPES[standard]),
      count: choose.pick([1, 2, 10, 100, 101, 0, -1, 1.5]),
    };
    if (choose.int(0, 1) === 0) body.seed = choose.pick([0, 1, 42, 4294967295, 4294967296, -1, 1e300, 2 ** 53]);
    if (choose.int(0, 2) === 0) body.version = choose.pick(['2.3', '2.5.1', '2.8', 'R4', '2017071', 'D0', '9.9', '']);
    return { route: 'POST /api/generate', method: 'POST', path: '/api/generate', contentType: 'application/json', body: JSON.stringify(body), mutations: ['odd generate parameters'] };
  }
  const query = new URLSearchParams({ standard, path: choose.pick(DESCRIBE_PATHS) });
  if (choose.int(0, 1) === 0) query.set('version', choose.pick(['2.5.1', 'R4', 'D0', 'x']));
  return { route: 'GET /api/describe', method: 'GET', path: `/api/describe?${query.toString()}`, mutations: ['odd describe parameters'] };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Sends a request to the bridge and times it; never rejects. */
export function sendFuzzRequest(bridge: string, request: FuzzRequest, hangMs: number): Promise<FuzzAnswer> {
  const url = new URL(request.path, bridge);
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (request.body !== undefined) {
      headers['content-type'] = request.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(request.body));
    }
    const req = http.request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: request.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const ms = performance.now() - started;
        let code: string | undefined;
        try {
          code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code?: string } }).error?.code;
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode ?? 0, ms, ...(code ? { code } : {}) });
      });
      res.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, connectionError: error.message }));
    });
    req.setTimeout(hangMs, () => {
      req.destroy();
      resolve({ status: 0, ms: hangMs, hung: true });
    });
    req.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, connectionError: error.message }));
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

/** Closes the kept-alive connections. */
export function closeFuzzConnections(): void {
  agent.destroy();
}
