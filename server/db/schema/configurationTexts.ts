// Machine configuration kinds langConfig and h30config (resources/configurationTexts.ts, docs/machine-configuration.md):
// their items, one row each (property names equal their field names), unique per license account.
import { integer, pgTable, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { licenseAccount } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const account = () =>
  integer('license_account_id')
    .notNull()
    .references(() => licenseAccount.id, { onDelete: 'restrict' });

/** A text of the machine's screen in one language. */
export const langText = pgTable(
  'lang_text',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    textKey: varchar('text_key', { length: 32 }).notNull(),
    language: varchar('language', { length: 8 }).notNull().default('en'),
    text: varchar('text', { length: 500 }).notNull(),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  // a text key once per language (docs/machine-configuration.md#lang-config): the key first, so a repeat names it first
  (t) => [uniqueIndex('lang_text_account_key_language_uq').on(t.licenseAccountId, t.textKey, t.language)],
);

/** A setting of the H30 model. */
export const h30Setting = pgTable(
  'h30_setting',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    setting: varchar('setting', { length: 32 }).notNull(),
    value: varchar('value', { length: 8 }).notNull(),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('h30_setting_account_setting_uq').on(t.licenseAccountId, t.setting)],
);
