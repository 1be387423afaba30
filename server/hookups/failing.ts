// Apps that keep failing are switched off (docs/api-hookups.md "Failing apps"): no success for
// DISABLE_AFTER_DAYS while failing. One conditional update per app, so with several instances exactly one
// switches it off and mails its owners (the owners' list, else the app's creator), in both languages.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { translate } from '../../i18n';
import { rowsOf, type Db } from '../db/client';
import type { Mailer } from '../mail/mailer';

export const DISABLE_AFTER_DAYS = 5;

interface Disabled {
  id: number;
  name: string;
  url: string;
  ownerEmails: string | null;
  creatorEmail: string | null;
  failingSince: string | Date;
}

const recipientsOf = (app: Disabled) => {
  const listed = (app.ownerEmails ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
  return [...new Set(listed.length ? listed : app.creatorEmail ? [app.creatorEmail] : [])];
};

const mailText = (app: Disabled) => {
  const values = { name: app.name, url: app.url, days: DISABLE_AFTER_DAYS, since: new Date(app.failingSince).toISOString().slice(0, 19).replace('T', ' ') + ' UTC' };
  const both = (key: string) => `${translate('en', `hookups.mail.${key}`, values)}\n${translate('zh', `hookups.mail.${key}`, values)}`;
  return {
    subject: `${translate('en', 'hookups.mail.subject', values)} / ${translate('zh', 'hookups.mail.subject', values)}`,
    text: [both('body'), '', both('action')].join('\n'),
  };
};

/** Switches off apps failing for DISABLE_AFTER_DAYS at `now`; answers how many. */
export const disableFailingApps = async (db: Db, mailer: Mailer, now: Date, log: FastifyBaseLogger): Promise<number> => {
  const cutoff = new Date(now.getTime() - DISABLE_AFTER_DAYS * 86_400_000).toISOString();
  const disabled = rowsOf<Disabled>(
    await db.execute(sql`
      update hookup_app a set enabled = false, disabled_reason = 'failing'
      from (select id from hookup_app where enabled and failing_since <= ${cutoff}::timestamptz for update skip locked) due
      where a.id = due.id and a.enabled
      returning a.id, a.name, a.url, a.owner_emails as "ownerEmails", a.failing_since as "failingSince",
        (select u.email from sys_user u where u.id = a.created_by) as "creatorEmail"`),
  );
  for (const app of disabled) {
    const { subject, text } = mailText(app);
    for (const to of recipientsOf(app)) await mailer.send(db, { to, subject, text }, log);
  }
  return disabled.length;
};
