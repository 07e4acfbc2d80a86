/**
 * A real SMTP server for tests (the `smtp-server` package on a loopback ephemeral port) that keeps every mail it
 * receives, and a small MIME reader that gives back the subject, the recipients and each decoded part.
 */
import { SMTPServer } from 'smtp-server';

/** One decoded MIME part. */
export interface MailPart {
  contentType: string;
  fileName: string | null;
  body: string;
}

/** A received mail. */
export interface CapturedMail {
  from: string;
  recipients: string[];
  subject: string;
  parts: MailPart[];
  raw: string;
}

/** A running capture server. */
export interface MailCapture {
  port: number;
  mails: CapturedMail[];
  /** Logins the server saw (user names only). */
  logins: string[];
  close(): Promise<void>;
}

function headerBlock(text: string): { headers: Map<string, string>; body: string } {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : text.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decode(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`) as text. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decode(text.replace(/_/g, ' '), 'quoted-printable'),
  ).replace(/\?=\s+=\?/g, '');
}

function parts(text: string): MailPart[] {
  const { headers, body } = headerBlock(text);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((chunk) => !chunk.startsWith('--'))
      .flatMap((chunk) => parts(chunk.replace(/^\r\n/, '')));
  }
  const fileName = /filename="?([^";]+)"?/i.exec(headers.get('content-disposition') ?? '')?.[1] ?? null;
  return [{ contentType: type.split(';')[0]?.trim().toLowerCase() ?? 'text/plain', fileName, body: decode(body.replace(/\r\n$/, ''), headers.get('content-transfer-encoding')) }];
}

/** Starts a capture server; `password` set: logins must use it (a wrong one is refused with 535). */
export async function startMailCapture(options: { password?: string; refuse?: () => boolean } = {}): Promise<MailCapture> {
  const mails: CapturedMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    authOptional: options.password === undefined,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      if (auth.password !== options.password) return callback(new Error('Invalid username or password'));
      callback(null, { user: auth.username });
    },
    onRcptTo(_address, _session, callback) {
      if (options.refuse?.()) {
        const error = new Error('Mailbox temporarily unavailable') as Error & { responseCode: number };
        error.responseCode = 450;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers } = headerBlock(raw);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          subject: decodeWords(headers.get('subject') ?? ''),
          parts: parts(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, mails, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
