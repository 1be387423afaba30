// Outgoing mail: every message is written to mail_outbox; with SMTP_URL it is also sent by
// nodemailer, without it the message goes to the server log (a development set-up's only channel).
// With SMTP_URL a body is never logged. A mail's secrets (a reset link's token) are never stored:
// mail_outbox keeps the text with each replaced by [redacted] (who sent what to whom, and when, for
// the operator), so whoever reads the table later cannot use them; the full text goes only to the
// recipient (SMTP) or, without SMTP_URL, to the log.
import { eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

export interface Mail {
  to: string | null;
  subject: string;
  text: string;
  /** Parts of `text` that must not be stored (each is replaced by [redacted] in mail_outbox). */
  secrets?: readonly string[];
  /** Files sent with the mail (not stored in mail_outbox: the caller keeps a reference, e.g. a generated report). */
  attachments?: readonly MailAttachment[];
  /** The license account the mail is sent for (a notification's): its Mails sent screen lists it. None: no account's (a reset link). */
  licenseAccountId?: number | null;
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** `delivered`: accepted by SMTP, or (without SMTP_URL) kept in mail_outbox and the log; else `error` says why. */
export interface MailResult {
  outboxId: number;
  delivered: boolean;
  error?: string;
}

export const REDACTED = '[redacted]';

const redact = (text: string, secrets: readonly string[] = []) =>
  secrets.filter((secret) => secret.length > 0).reduce((stored, secret) => stored.split(secret).join(REDACTED), text);

export interface Mailer {
  /** Mails leave the server (SMTP_URL is set); absent or false: they are kept in mail_outbox and the log only. */
  readonly smtpConfigured?: boolean;
  send(db: Db, mail: Mail, log: FastifyBaseLogger): Promise<void>;
  /** `send`, answering whether the mail went out (callers that retry failed mails). */
  deliver(db: Db, mail: Mail, log: FastifyBaseLogger): Promise<MailResult>;
}

/**
 * A mail is sent while its job's transaction holds the claim (a mail is sent once across instances), and on
 * PGlite that transaction holds the one connection: nodemailer's defaults (2 min to connect, 10 min of
 * silence) would let one dead SMTP server stall every request. These bound it; the URL's own
 * `?connectionTimeout=…&greetingTimeout=…&socketTimeout=…` win over them.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

export const createMailer = (config: Pick<ServerConfig, 'smtpUrl' | 'mailFrom'>): Mailer => {
  const smtpUrl = config.smtpUrl;
  // nodemailer loads with the first mail sent, not with every start (docs/test-quality.md "Lighter server start")
  let transport: Promise<Transporter> | undefined;
  const transportTo = (url: string) => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({ ...SMTP_TIMEOUTS, url })));
  const deliver: Mailer['deliver'] = async (db, mail, log) => {
    const [row] = await db
      .insert(mailOutbox)
      .values({ recipient: mail.to, subject: mail.subject, body: redact(mail.text, mail.secrets), licenseAccountId: mail.licenseAccountId ?? null })
      .returning({ id: mailOutbox.id });
    if (!smtpUrl) {
      // Development only (no SMTP_URL): the server log is the one channel, so the full body goes there.
      const attachments = mail.attachments?.map((file) => file.filename);
      log.info({ outboxId: row.id, to: mail.to, subject: mail.subject, body: mail.text, attachments }, 'mail not sent (no SMTP_URL): kept in mail_outbox');
      return { outboxId: row.id, delivered: true };
    }
    if (!mail.to) {
      // With SMTP configured a body (e.g. a reset link) never goes to the log.
      log.warn({ outboxId: row.id, subject: mail.subject }, 'mail not sent (no address)');
      await db.update(mailOutbox).set({ error: 'no address' }).where(eq(mailOutbox.id, row.id));
      return { outboxId: row.id, delivered: false, error: 'no address' };
    }
    try {
      await (
        await transportTo(smtpUrl)
      ).sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, attachments: mail.attachments?.map((file) => ({ ...file })) });
      await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
      return { outboxId: row.id, delivered: true };
    } catch (error) {
      // The caller's answer never reveals whether a mail went out (no account enumeration).
      log.warn({ err: error, outboxId: row.id }, 'sending mail failed');
      await db
        .update(mailOutbox)
        .set({ error: String(error) })
        .where(eq(mailOutbox.id, row.id));
      return { outboxId: row.id, delivered: false, error: String(error) };
    }
  };
  return {
    smtpConfigured: Boolean(smtpUrl),
    send: async (db, mail, log) => {
      await deliver(db, mail, log);
    },
    deliver,
  };
};
