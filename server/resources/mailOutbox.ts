// System settings › Mails sent (resources/mailOutbox.ts): the caller's license account's mails, and for a
// superAdmin also the mails of no account (password-reset links, stored redacted), which no account's
// administrator may see. `status` says what came of each mail (server/mail/mailer.ts writes sent_at on
// SMTP's acceptance, error on a failure, neither without SMTP_URL).
import { eq, isNull, or, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ResourceHooks } from '../crud/hooks';
import { mailOutbox } from '../db/schema';

export const mailOutboxHooks: ResourceHooks = {
  scope: (caller) => {
    const account = caller.principal.licenseAccountId;
    const own = account === null ? sql`false` : eq(mailOutbox.licenseAccountId, account);
    return caller.principal.superAdmin ? or(own, isNull(mailOutbox.licenseAccountId)) : own;
  },
  computed: (table: PgTable) => {
    const mails = table as typeof mailOutbox;
    return {
      status: sql<string>`(case when ${mails.error} is not null then 'failed' when ${mails.sentAt} is not null then 'sent' else 'notSent' end)`,
    };
  },
};
