// Outgoing mail: every message is written to mail_outbox; with SMTP_URL it is also sent by
// nodemailer, without it the message goes to the server log (a development set-up's only channel).
// With SMTP_URL a body is never logged.
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
}

export interface Mailer {
  send(db: Db, mail: Mail, log: FastifyBaseLogger): Promise<void>;
}

export const createMailer = (config: Pick<ServerConfig, 'smtpUrl' | 'mailFrom'>): Mailer => {
  const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  return {
    send: async (db, mail, log) => {
      const [row] = await db.insert(mailOutbox).values({ recipient: mail.to, subject: mail.subject, body: mail.text }).returning({ id: mailOutbox.id });
      if (!transport) {
        // Development only (no SMTP_URL): the server log is the one channel, so the body goes there.
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
