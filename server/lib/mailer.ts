// Outgoing mail: every message is written to mail_outbox; with SMTP_URL it is also sent by
// nodemailer, without it the message goes to the server log (a development set-up's only channel).
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
      if (!transport || !mail.to) {
        log.info({ outboxId: row.id, to: mail.to, subject: mail.subject, body: mail.text }, 'mail not sent (no SMTP_URL or no address): kept in mail_outbox');
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
