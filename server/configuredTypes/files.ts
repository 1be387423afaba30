// Definitions kept in version control: every `*.json` of RESOURCE_TYPES_DIR (a ConfiguredType, or
// the export format of GET /resource-types/export) is created or updated at start, in one
// transaction under the migration lock; an unchanged definition is left alone (no version bump).
// A file that is not a valid definition fails the start with a message naming the file.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIGURED_TYPE_SCHEMA, EXPORT_FORMAT, type ConfiguredType } from '../../resources/configuredTypes';
import type { Db } from '../db/client';
import { AppError } from '../lib/errors';
import { issuesFromAjv } from '../lib/ajv';
import { translate } from '../../i18n';
import { saveTypes } from './store';
import { compileSchema } from './validate';

const validDefinition = compileSchema(CONFIGURED_TYPE_SCHEMA);

const definitionsOf = (file: string, content: unknown): ConfiguredType[] => {
  const list = (content as { format?: string }).format === EXPORT_FORMAT ? (content as { types: unknown[] }).types : [content];
  if (!Array.isArray(list)) throw new Error(`${file}: "types" must be an array`);
  return list.map((definition) => {
    if (!validDefinition(definition)) {
      const issues = issuesFromAjv(validDefinition.errors ?? []).map((issue) => `${issue.field}: ${translate('en', issue.message, issue.values)}`);
      throw new Error(`${file}: not a resource type definition (${issues.join('; ')})`);
    }
    return definition as ConfiguredType;
  });
};

export const loadTypeFiles = async (db: Db, dir: string | undefined, codeNames: ReadonlySet<string>) => {
  if (!dir || !existsSync(dir)) return { created: [], updated: [] };
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  const types = files.flatMap((name) => definitionsOf(name, JSON.parse(readFileSync(join(dir, name), 'utf8'))));
  if (types.length === 0) return { created: [], updated: [] };
  try {
    return await saveTypes({ db, locale: 'en', userId: null, codeNames }, types);
  } catch (error) {
    if (error instanceof AppError) {
      const issues = (error.issues ?? []).map((issue) => `${issue.field}: ${translate('en', issue.message, issue.values)}`).join('; ');
      throw new Error(`${dir}: ${error.resMsg ?? translate('en', `errors.${error.code}`)}${issues ? ` (${issues})` : ''}`);
    }
    throw error;
  }
};
