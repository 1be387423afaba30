// Service › generateConfigFile (docs/machine-configuration.md#generate-config-file): template contents named by ids
// unique within their template, a content replaced by its id (2003 for an unknown id or another account's template,
// the audit entry of the engine's write), a JSON body that must parse (1004 in both languages), the generated
// file's preview (contents in order, each kind's latest version) and that file made into a `config` package.
import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, configTemplate, deploymentPackage, licenseAccount } from '../../server/db/schema';
import { issueOf, readStoredText } from './answers';
import { describeOneBackend } from './helpers';

describeOneBackend('config templates', (server) => {
  let token: string;
  let templateId: number;
  beforeAll(async () => {
    token = await server.login();
    const made = await server.call('POST', '/configuration/template', { token, body: { name: 'H30 main file', targetModels: 'H30' } });
    expect(made.body.resCode).toBe('00000');
    templateId = made.body.resData.id;
    const contents = [
      { contentId: 'header', position: 1, format: 'text', body: '# RVM config' },
      { contentId: 'limits', position: 2, format: 'json', body: '{"maxItems": 200}' },
    ];
    for (const content of contents) {
      expect((await server.call('POST', '/configuration/template-content', { token, body: { templateId, ...content } })).body.resCode).toBe('00000');
    }
  });

  describe('contents', () => {
    it('names a content once per template (2002 on contentId), the same id in another template is another content', async () => {
      const again = await server.call('POST', '/configuration/template-content', { token, body: { templateId, contentId: 'header', body: 'x' } });
      expect(issueOf(again)).toMatchObject({ code: '2002', field: 'contentId' });
      const other = await server.call('POST', '/configuration/template', { token, body: { name: 'Other file', targetModels: 'H20' } });
      const elsewhere = await server.call('POST', '/configuration/template-content', { token, body: { templateId: other.body.resData.id, contentId: 'header', body: 'x' } });
      expect(elsewhere.body.resCode).toBe('00000');
    });

    it('refuses a JSON body that does not parse with 1004, in English and Chinese, on create and on replace', async () => {
      const body = { templateId, contentId: 'broken', format: 'json', body: '{"a": ' };
      expect(issueOf(await server.call('POST', '/configuration/template-content', { token, body, lang: 'en' }))).toEqual({
        code: '1004',
        field: 'body',
        message: 'The body is not valid JSON',
      });
      expect(issueOf(await server.call('POST', '/configuration/template-content', { token, body, lang: 'zh' }))).toEqual({
        code: '1004',
        field: 'body',
        message: '内容不是有效的 JSON',
      });
      const replaced = await server.call('PUT', `/configuration/template/${templateId}/contents/limits`, { token, body: { body: 'not json' }, lang: 'zh' });
      expect(issueOf(replaced)).toEqual({ code: '1004', field: 'body', message: '内容不是有效的 JSON' });
      // a text content takes any text
      expect((await server.call('PUT', `/configuration/template/${templateId}/contents/header`, { token, body: { body: '{"a": ' } })).body.resCode).toBe('00000');
      expect((await server.call('PUT', `/configuration/template/${templateId}/contents/header`, { token, body: { body: '# RVM config' } })).body.resCode).toBe('00000');
    });
  });

  describe('replace content by id', () => {
    it("replaces the body of the content with that id, and the engine's audit entry says so", async () => {
      const answer = await server.call('PUT', `/configuration/template/${templateId}/contents/limits`, { token, body: { body: '{"maxItems": 300}' } });
      expect(answer.body.resCode).toBe('00000');
      expect(answer.body.resData).toMatchObject({ contentId: 'limits', format: 'json', body: '{"maxItems": 300}' });
      const page = await server.call('POST', '/configuration/template-content/page', { token, body: { pageNum: 1, pageSize: 10, templateId } });
      expect(page.body.resData.list.map((row: { contentId: string; body: string }) => [row.contentId, row.body])).toEqual([
        ['header', '# RVM config'],
        ['limits', '{"maxItems": 300}'],
      ]);
      const [entry] = await server.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource, 'configTemplateContent'), eq(auditLog.recordId, answer.body.resData.id)))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(entry).toMatchObject({ action: 'update', outcome: 'success' });
      const changes: unknown = typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes;
      expect(changes).toEqual({ body: { before: '{"maxItems": 200}', after: '{"maxItems": 300}' } });
    });

    it("answers 2003 for a content id the template lacks, a template that does not exist, and another account's template", async () => {
      expect((await server.call('PUT', `/configuration/template/${templateId}/contents/nothere`, { token, body: { body: 'x' } })).body.resCode).toBe('2003');
      expect((await server.call('PUT', '/configuration/template/999999/contents/header', { token, body: { body: 'x' } })).body.resCode).toBe('2003');
      const [{ id: otherAccount }] = await server.db.insert(licenseAccount).values({ licenseAccountName: 'Templates elsewhere' }).returning({ id: licenseAccount.id });
      const [{ id: foreign }] = await server.db
        .insert(configTemplate)
        .values({ licenseAccountId: otherAccount, name: 'Foreign', targetModels: 'H30' })
        .returning({ id: configTemplate.id });
      expect((await server.call('PUT', `/configuration/template/${foreign}/contents/header`, { token, body: { body: 'x' } })).body.resCode).toBe('2003');
      expect((await server.call('POST', '/configuration/template/generate', { token, body: { templateId: foreign } })).body.resCode).toBe('2003');
    });

    it('needs the template edit permission', async () => {
      await server.createUser({ name: 'tplnone' }, token);
      const plain = await server.login('tplnone', 'Passw0rd!');
      expect((await server.call('PUT', `/configuration/template/${templateId}/contents/header`, { token: plain, body: { body: 'x' } })).body.resCode).toBe('4003');
      expect((await server.call('POST', '/configuration/template/generate', { token: plain, body: { templateId } })).body.resCode).toBe('4003');
    });
  });

  describe('generate', () => {
    let sortingVersion: number;
    beforeAll(async () => {
      expect((await server.call('POST', '/configuration/sorting', { token, body: { itemType: 'can', binNo: 2 } })).body.resCode).toBe('00000');
      sortingVersion = (await server.call('GET', '/configuration/sorting/versions', { token })).body.resData.list[0].version;
    });

    it("previews the template's contents in order, then each kind's latest version; a kind never saved is left out", async () => {
      const answer = await server.call('POST', '/configuration/template/generate', { token, body: { templateId, kinds: ['sorting', 'assortment'] } });
      expect(answer.body.resCode).toBe('00000');
      const preview = answer.body.resData;
      expect(preview).toMatchObject({
        templateId,
        templateName: 'H30 main file',
        fileName: 'H30_main_file.json',
        sections: [{ kind: 'sorting', version: sortingVersion, itemCount: 1 }],
      });
      expect(preview.missing).toEqual(['assortment']);
      expect(preview.bytes).toBe(Buffer.byteLength(preview.content, 'utf8'));
      expect(JSON.parse(preview.content)).toEqual({
        format: 'rvm-config-file',
        v: 1,
        template: { name: 'H30 main file', targetModels: 'H30' },
        contents: [
          { id: 'header', format: 'text', value: '# RVM config' },
          { id: 'limits', format: 'json', value: { maxItems: 300 } },
        ],
        configurations: [{ kind: 'sorting', resourceType: 'sorting', version: sortingVersion, items: [{ itemType: 'can', binNo: 2 }] }],
      });
      // without kinds: every kind with a saved version
      const all = await server.call('POST', '/configuration/template/generate', { token, body: { templateId } });
      expect(all.body.resData.sections.map((section: { kind: string }) => section.kind)).toContain('sorting');
      expect((await server.call('POST', '/configuration/template/generate', { token, body: { templateId, kinds: ['nope'] } })).body.resCode).toMatch(/^100/);
    });

    it('makes the generated file a package of type config holding exactly the previewed bytes', async () => {
      const preview = (await server.call('POST', '/configuration/template/generate', { token, body: { templateId, kinds: ['sorting'] } })).body.resData;
      const made = await server.call('POST', '/configuration/template/generate/package', {
        token,
        body: { templateId, kinds: ['sorting'], name: 'h30-config', version: 'v1', adaptedModels: 'H30' },
      });
      expect(made.body.resCode).toBe('00000');
      expect(made.body.resData).toMatchObject({ name: 'h30-config', version: 'v1', resourceType: 'config', adaptedModels: 'H30' });
      const [row] = await server.db.select().from(deploymentPackage).where(eq(deploymentPackage.id, made.body.resData.id));
      expect(row.resourceType).toBe('config');
      expect(await readStoredText(server, row.file!)).toBe(preview.content);
      const again = await server.call('POST', '/configuration/template/generate/package', {
        token,
        body: { templateId, name: 'h30-config', version: 'v2', adaptedModels: 'H30' },
      });
      expect(issueOf(again)).toMatchObject({ code: '2002', field: 'name' });
    });

    it('deletes the contents with their template', async () => {
      const made = await server.call('POST', '/configuration/template', { token, body: { name: 'Short-lived', targetModels: 'H30' } });
      const id = made.body.resData.id;
      await server.call('POST', '/configuration/template-content', { token, body: { templateId: id, contentId: 'a', body: 'x' } });
      expect((await server.call('DELETE', `/configuration/template?id=${id}`, { token })).body.resCode).toBe('00000');
      const page = await server.call('POST', '/configuration/template-content/page', { token, body: { pageNum: 1, pageSize: 10, templateId: id } });
      expect(page.body.resData.total).toBe(0);
    });
  });
});
