// Field lengths, defaults, decimals, enums and uniqueness live once (issue 9): the declaration says
// them, the Drizzle column must agree. A declaration and its column that drift apart fail here
// (instead of a 22001 "wrong length" the API never announced, or a form default the API ignores).
import { describe, expect, it } from 'vitest';
import { getTableConfig, type IndexColumn, type PgColumn } from 'drizzle-orm/pg-core';
import { RESOURCES } from '../../resources';
import { buildModels } from '../../server/crud/model';
import { TABLES } from '../../server/db/registry';
import { HOOKUP_HOOKS, HOOKUP_VIEWS } from '../../server/hookups';
import { resourceHooks } from '../../server/resources';

// the hooks only add computed columns; a hasher is never called here (the APIs area's views and hooks as app.ts adds them)
const models = [...buildModels(RESOURCES, { ...TABLES, ...HOOKUP_VIEWS }, { ...resourceHooks({} as never), ...HOOKUP_HOOKS }).values()];
const TEXT_KINDS = new Set(['text', 'textarea', 'email', 'phone']);

const stored = () =>
  models.flatMap((model) =>
    Object.entries(model.columns).map(([name, column]) => ({ where: `${model.declaration.name}.${name}`, field: model.declaration.fields[name], column, model, name })),
  );

describe('declarations and their columns', () => {
  it('declares every varchar length as maxLength, and every enum value fits its column', () => {
    const drift: string[] = [];
    for (const { where, field, column } of stored()) {
      const length = (column as PgColumn & { length?: number }).length;
      if (column.columnType !== 'PgVarchar' || field.readOnly || field.type === 'password') continue;
      if (TEXT_KINDS.has(field.type) && field.maxLength !== length) drift.push(`${where}: maxLength ${field.maxLength} vs varchar(${length})`);
      if (field.type === 'enum' && field.options?.some((option) => String(option).length > (length ?? Infinity)))
        drift.push(`${where}: an option is longer than varchar(${length})`);
    }
    expect(drift).toEqual([]);
  });

  it('declares the column default as defaultValue for every field of the create form', () => {
    const drift: string[] = [];
    for (const { where, field, column, model, name } of stored()) {
      if (!model.creatable.includes(name) || !column.hasDefault || column.default === undefined || typeof column.default === 'object') continue;
      if (field.defaultValue !== column.default) drift.push(`${where}: defaultValue ${String(field.defaultValue)} vs column default ${String(column.default)}`);
    }
    expect(drift).toEqual([]);
  });

  it('declares the numeric scale as scale, and whole-number columns as integer', () => {
    const drift: string[] = [];
    for (const { where, field, column } of stored()) {
      if (field.type !== 'number' || field.readOnly) continue;
      const scale = (column as PgColumn & { scale?: number }).scale;
      if (column.columnType === 'PgNumeric' && field.scale !== scale) drift.push(`${where}: scale ${field.scale} vs numeric scale ${scale}`);
      if (['PgInteger', 'PgSmallInt', 'PgBigInt53'].includes(column.columnType) && !field.integer) drift.push(`${where}: a whole-number column without integer: true`);
    }
    expect(drift).toEqual([]);
  });

  it('backs every unique field by a unique index, and declares every unique index on a field', () => {
    const drift: string[] = [];
    for (const model of models) {
      const fieldOf = new Map(Object.entries(model.columns).map(([name, column]) => [column.name, name]));
      const indexed = new Set<string>();
      for (const index of getTableConfig(model.table).indexes) {
        // a partial index (e.g. refund: an item type once among the rows without a barcode) backs its field too
        if (!index.config.unique) continue;
        const fields = index.config.columns.map((column) => fieldOf.get((column as IndexColumn).name));
        // (license_account_id, field) is "unique in the account": the account column is no field; likewise
        // (parent, field) with a parent reference that cascades is "unique in its parent" (a template's content ids)
        const parent = (name: string) => model.declaration.fields[name]?.type === 'reference' && model.declaration.fields[name]?.onDelete === 'cascade';
        const own = fields.filter((name) => name && name !== 'licenseAccountId' && !parent(name));
        if (own.length === 1) indexed.add(own[0]!);
        // an index on several fields all declared unique backs each of them: the item is named by the combination
        // (a lang config text per text key and language, docs/machine-configuration.md#lang-config)
        else if (own.every((name) => model.declaration.fields[name!]?.unique)) for (const name of own) indexed.add(name!);
      }
      for (const [name, field] of Object.entries(model.declaration.fields)) {
        if (field.unique && !indexed.has(name)) drift.push(`${model.declaration.name}.${name}: unique without a unique index`);
        if (!field.unique && indexed.has(name)) drift.push(`${model.declaration.name}.${name}: a unique index the declaration does not say`);
      }
    }
    expect(drift).toEqual([]);
  });
});
