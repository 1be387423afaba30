// Definitions of configured multiReference fields and of image/file fields with their own limits
// (resources/configuredTypes.ts), and the type editor's side of them (src/resourceTypes/editorModel.ts,
// editorValidation.ts): what the server and the console both check before anything is stored.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CONFIGURED_TYPE_SCHEMA, toDeclaration, type ConfiguredType } from '../../resources/configuredTypes';
import { definitionIssues } from '../../resources/configuredTypeIssues';
import { fileLimitsOf } from '../../resources/files';
import { formOf, issuePath, operatorsFor, typeOf } from '../../src/resourceTypes/editorModel';
import { validateTypeForm } from '../../src/resourceTypes/editorValidation';

const MB = 1024 * 1024;
const TYPE: ConfiguredType = {
  name: 'depot',
  labels: { en: 'Depots', zh: '仓库' },
  menuParent: 'service',
  fields: {
    title: { type: 'text', labels: { en: 'Title', zh: '标题' }, required: true },
    fleets: { type: 'multiReference', reference: 'fleet', onDelete: 'setNull', labels: { en: 'Fleets', zh: '机群' } },
    photo: { type: 'image', labels: { en: 'Photo', zh: '照片' }, maxBytes: 2 * MB, accept: ['image/png', 'image/*'] },
    manual: { type: 'file', labels: { en: 'Manual', zh: '手册' }, accept: ['application/pdf'] },
  },
  list: { columns: ['title', 'fleets', 'photo'], filters: [{ field: 'fleets', operator: 'in' }] },
  actions: ['page', 'show', 'create', 'edit', 'delete'],
};
const known = new Set(['fleet', 'depot']);
const validSchema = new Ajv({ strict: false }).compile(CONFIGURED_TYPE_SCHEMA);

describe('configured multiReference and file limits', () => {
  it('pass the schema and the checks, and become declarations the engine and the upload route use', () => {
    expect(validSchema(TYPE)).toBe(true);
    expect(definitionIssues(TYPE, known)).toEqual([]);
    const declaration = toDeclaration(TYPE);
    expect(declaration.fields.fleets).toEqual({ type: 'multiReference', reference: 'fleet', onDelete: 'setNull' });
    expect(declaration.list.filters).toEqual([{ name: 'fleetsIn', field: 'fleets', operator: 'in' }]);
    expect(fileLimitsOf(declaration.fields.photo)).toEqual({ maxBytes: 2 * MB, accept: ['image/png', 'image/*'] });
    // no limits of its own: the kind's defaults
    expect(fileLimitsOf(declaration.fields.manual)).toEqual({ maxBytes: 50 * MB, accept: ['application/pdf'] });
  });

  it('refuse what the kinds cannot take, each on its path', () => {
    const bad: ConfiguredType = {
      ...TYPE,
      fields: {
        title: { type: 'text', labels: TYPE.labels, accept: ['text/plain'] },
        fleets: { type: 'multiReference', reference: 'nosuch', onDelete: 'setNull', required: true, default: 1, labels: TYPE.labels },
        photo: { type: 'image', labels: TYPE.labels, maxBytes: 5 * MB + 1, accept: ['application/pdf'] },
        manual: { type: 'file', labels: TYPE.labels, maxBytes: 50 * MB },
      },
      list: {
        columns: ['title'],
        filters: [
          { field: 'fleets', operator: 'like' },
          { field: 'photo', operator: 'eq' },
        ],
        defaultSort: { field: 'fleets', order: 'ASC' },
      },
    };
    expect(definitionIssues(bad, known)).toEqual([
      { field: 'fields.title.accept', message: 'errors.9418' },
      { field: 'fields.fleets.reference', message: 'errors.9412', values: { resource: 'nosuch' } },
      { field: 'fields.fleets.onDelete', message: 'errors.9415' },
      { field: 'fields.fleets.default', message: 'errors.9414' },
      { field: 'fields.photo.maxBytes', message: 'errors.9419', values: { max: 5 * MB } },
      { field: 'fields.photo.accept.0', message: 'errors.9420', values: { type: 'application/pdf' } },
      { field: 'list.filters.0.operator', message: 'errors.9413' },
      { field: 'list.filters.1.field', message: 'errors.9413' },
      { field: 'list.defaultSort.field', message: 'errors.9413' },
    ]);
    // shapes the schema refuses: no MIME type, upper case, a size of 0, the same type twice
    for (const accept of [['PDF'], ['Image/PNG'], ['image/png', 'image/png'], []])
      expect(validSchema({ ...TYPE, fields: { manual: { type: 'file', labels: TYPE.labels, accept } } })).toBe(false);
    expect(validSchema({ ...TYPE, fields: { manual: { type: 'file', labels: TYPE.labels, maxBytes: 0 } } })).toBe(false);
  });

  it('the editor: MB in the form and bytes on the wire, types as a comma list, a multiReference with its target and filters', () => {
    const form = formOf(TYPE);
    const photo = form.fields.find((field) => field.name === 'photo')!;
    expect([photo.maxMegabytes, photo.accept]).toEqual([2, 'image/png, image/*']);
    expect(typeOf(form).fields).toEqual(TYPE.fields);
    expect(operatorsFor('multiReference')).toEqual(['eq', 'in']);
    const edited = { ...form, fields: form.fields.map((field) => (field.name === 'manual' ? { ...field, maxMegabytes: 0.5, accept: ' Application/PDF,  text/plain ' } : field)) };
    expect(typeOf(edited).fields.manual).toEqual({ type: 'file', labels: { en: 'Manual', zh: '手册' }, maxBytes: 0.5 * MB, accept: ['application/pdf', 'text/plain'] });
    expect(issuePath('fields.photo.maxBytes', form)).toBe('fields.2.maxMegabytes');
    expect(issuePath('fields.photo.accept.1', form)).toBe('fields.2.accept');
  });

  it("the editor's own checks: a target for a multiReference, sizes within the kind's maximum, MIME types, images only on an image field", () => {
    const form = formOf(TYPE);
    const withFields = (changes: Record<string, object>) => ({ ...form, fields: form.fields.map((field) => ({ ...field, ...changes[field.name] })) });
    expect(validateTypeForm(form, [], true)).toEqual({});
    const errors = validateTypeForm(
      withFields({ fleets: { reference: null }, photo: { maxMegabytes: 6, accept: 'application/pdf' }, manual: { maxMegabytes: -1, accept: 'pdf files' } }),
      [],
      true,
    ) as { fields: Record<string, Record<string, unknown>> };
    expect(errors.fields['1']).toEqual({ reference: 'resourceTypes.validation.referenceRequired' });
    expect(errors.fields['2']).toEqual({
      maxMegabytes: { message: 'resourceTypes.validation.maxMegabytes', args: { max: 5 } },
      accept: { message: 'resourceTypes.validation.imageTypesOnly', args: { type: 'application/pdf' } },
    });
    expect(errors.fields['3']).toEqual({ maxMegabytes: 'resourceTypes.validation.positive', accept: { message: 'resourceTypes.validation.mimeFormat', args: { type: 'pdf' } } });
  });
});
