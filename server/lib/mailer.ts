// Outgoing mail: every message is written to mail_outbox; with SMTP_URL it is also sent by
// nodemailer, without it the message goes to the server log (a development set-up's only channel).
// With SMTP_URL a body is never logged. A mail's secrets (a reset link's token) are never stored:
// mail_outbox keeps the text with each replaced by [redacted] (who sent what to whom, and when, for
// the operator), so whoever reads the table later cannot use them; the full text goes only to the
// recipient (SMTP) or, without SMTP_URL, to the log.
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
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
}

export const REDACTED = '[redacted]';

const redact = (text: string, secrets: readonly string[] = []) =>
  secrets.filter((secret) => secret.length > 0).reduce((stored, secret) => stored.split(secret).join(REDACTED), text);

export interface Mailer {
  send(db: Db, mail: Mail, log: FastifyBaseLogger): Promise<void>;
}

export const createMailer = (config: Pick<ServerConfig, 'smtpUrl' | 'mailFrom'>): Mailer => {
  const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  return {
    send: async (db, mail, log) => {
      const [row] = await db.insert(mailOutbox).values({ recipient: mail.to, subject: mail.subject, body: redact(mail.text, mail.secrets) }).returning({ id: mailOutbox.id });
      if (!transport) {
        // Development only (no SMTP_URL): the server log is the one channel, so the full body goes there.
        log.info({ outboxId: row.id, to: mail.to, subject: mail.subject, body: mail.text }, 'mail not sent (no SMTP_URL): kept in mail_outbox');
        return;
      }
      if (!mail.to) {
        // With SMTP configured a body (e.g. a reset link) never goes to the log.
        log.warn({ outboxId: row.id, subject: mail.subject }, 'mail not sent (no address)');
        await db.update(mailOutbox).set({ error: 'no address' }).where(eq(mailOutbox.id, row.id));
        return;
      }
      try {
        await transport.sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text });
        await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
      } catch (error) {
        // The caller's answer never reveals whether a mail went out (no account enumeration).
        log.warn({ err: error, outboxId: row.id }, 'sending mail failed');
        await db.update(mailOutbox).set({ error: String(error) }).where(eq(mailOutbox.id, row.id));
      }
    },
  };
};
