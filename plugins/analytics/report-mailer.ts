/**
 * Sends report e-mails over SMTP with nodemailer, configured from `plugins.analytics.smtp`. The transport's own
 * logging is off (it would print the conversation, credentials included), and the password lives only inside the
 * transport: errors are reduced to the server's answer and never carry the config.
 */
import type { SmtpConfig } from './analytics-config.ts';

/** One e-mail with its attachments. */
export interface ReportMail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments: Array<{ filename: string; content: string; contentType: string }>;
}

/** Anything that can send a report mail (the SMTP mailer; a test may pass its own). */
export interface MailSender {
  send(mail: ReportMail): Promise<void>;
  close(): void;
}

/** Sends through one pooled-less nodemailer transport (a report a day needs no pool). */
export class SmtpMailer implements MailSender {
  private transport: import('nodemailer').Transporter | undefined;

  constructor(
    private readonly config: SmtpConfig,
    private readonly timeoutMs: number,
  ) {}

  private async transporter(): Promise<import('nodemailer').Transporter> {
    if (this.transport) return this.transport;
    // loaded on the first mail: most runs send none
    const nodemailer = await import('nodemailer');
    const { host, port, secure, user, password } = this.config;
    this.transport = nodemailer.createTransport({
      host,
      port,
      secure,
      ...(user ? { auth: { user, pass: password ?? '' } } : {}),
      logger: false,
      debug: false,
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs,
    });
    return this.transport;
  }

  /** Sends one mail; rejects with the SMTP server's reason. */
  async send(mail: ReportMail): Promise<void> {
    const transport = await this.transporter();
    try {
      await transport.sendMail({
        from: this.config.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        attachments: mail.attachments,
      });
    } catch (error) {
      // nodemailer errors may hold the command sent (AUTH lines): keep only the code and the server's words
      const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
      const reason = e.response ?? e.message ?? 'unknown SMTP failure';
      throw new Error(`${e.code ?? 'SMTP'}${e.responseCode ? ` ${e.responseCode}` : ''}: ${reason.replace(/AUTH\s+\S+\s+\S+/gi, 'AUTH ***')}`.slice(0, 500));
    }
  }

  /** Closes the transport's connection, if any. */
  close(): void {
    this.transport?.close();
    this.transport = undefined;
  }
}
