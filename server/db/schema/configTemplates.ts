// The configuration-template store (docs/machine-configuration.md#generate-config-file; declarations in
// resources/configTemplates.ts, property names equal their field names): template files, and their contents,
// each named by a content id unique within its template.
import { index, integer, pgTable, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { licenseAccount } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const account = () =>
  integer('license_account_id')
    .notNull()
    .references(() => licenseAccount.id, { onDelete: 'restrict' });

export const configTemplate = pgTable(
  'config_template',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    name: varchar('name', { length: 64 }).notNull(),
    /** Machine models (`rvm.term_type`), comma-separated. */
    targetModels: varchar('target_models', { length: 500 }).notNull(),
    description: varchar('description', { length: 500 }),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('config_template_account_name_uq').on(t.licenseAccountId, t.name)],
);

export const configTemplateContent = pgTable(
  'config_template_content',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    templateId: integer('template_id')
      .notNull()
      .references(() => configTemplate.id, { onDelete: 'cascade' }),
    contentId: varchar('content_id', { length: 64 }).notNull(),
    position: smallint('position').notNull().default(1),
    format: varchar('format', { length: 8 }).notNull().default('text'),
    /** Up to 64 kB (resources/configTemplates.ts CONFIG_CONTENT_MAX_LENGTH). */
    body: text('body').notNull(),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [
    // a content id once per template: what "replace content by id" finds
    uniqueIndex('config_template_content_template_content_uq').on(t.templateId, t.contentId),
    index('config_template_content_account_idx').on(t.licenseAccountId),
  ],
);
