// Lang config and H30 config (docs/machine-configuration.md#lang-config, #h30-config): a screen text once per text
// key and language (2002 naming both), texts of 1–500 characters, an H30 setting once, its value checked against
// its setting's type and range (1004 naming the range, in both languages, on create and on an edit), and their
// versions made into packages of types `lang` and `h30config`.
import { beforeAll, describe, expect, it } from 'vitest';
import { H30_SETTINGS } from '../../resources/configurationTexts';
import { en } from '../../i18n/en';
import { issueOf } from './answers';
import { describeBackends, describeOneBackend, type TestServer } from './helpers';

const create = (server: TestServer, token: string, path: string, body: Record<string, unknown>, lang?: string) =>
  server.call('POST', `/configuration/${path}`, { token, body, lang });

// the driver's unique violation names the index: both backends (docs/test-quality.md "One backend or both")
describeBackends('lang config and H30 config items do not repeat', (server) => {
  let token: string;
  beforeAll(async () => {
    token = await server.login();
  });

  it('refuses a text key repeated in one language with 2002 naming the key and the language, and takes it in another', async () => {
    expect((await create(server, token, 'lang', { textKey: 'welcome', language: 'en', text: 'Welcome!' })).body.resCode).toBe('00000');
    expect(issueOf(await create(server, token, 'lang', { textKey: 'welcome', language: 'en', text: 'Hello' }, 'en'))).toEqual({
      code: '2002',
      field: 'textKey',
      message: 'Screen text / Language "Welcome / English" already exists',
    });
    expect(issueOf(await create(server, token, 'lang', { textKey: 'welcome', language: 'en', text: 'Hello' }, 'zh'))).toEqual({
      code: '2002',
      field: 'textKey',
      message: '屏幕文本 / 语言“欢迎 / 英语”已存在',
    });
    expect((await create(server, token, 'lang', { textKey: 'welcome', language: 'zh', text: '欢迎！' })).body.resCode).toBe('00000');
    expect((await create(server, token, 'lang', { textKey: 'thankYou', language: 'en', text: 'Thanks!' })).body.resCode).toBe('00000');
  });

  it('refuses an H30 setting set twice with 2002 naming it', async () => {
    expect((await create(server, token, 'h30', { setting: 'conveyorSpeed', value: '5' })).body.resCode).toBe('00000');
    expect(issueOf(await create(server, token, 'h30', { setting: 'conveyorSpeed', value: '6' }))).toEqual({
      code: '2002',
      field: 'setting',
      message: 'Setting "Conveyor speed (1–10)" already exists',
    });
  });
});

describeOneBackend('lang config and H30 config rules', (server) => {
  let token: string;
  beforeAll(async () => {
    token = await server.login();
  });

  describe('lang config', () => {
    it('takes texts of 1 to 500 characters of a declared text key and language', async () => {
      expect(issueOf(await create(server, token, 'lang', { textKey: 'binFull', language: 'en', text: '' }))).toMatchObject({ field: 'text' });
      expect(issueOf(await create(server, token, 'lang', { textKey: 'binFull', language: 'en', text: 'x'.repeat(501) }))).toMatchObject({ code: '1002', field: 'text' });
      expect(issueOf(await create(server, token, 'lang', { textKey: 'goodbye', language: 'en', text: 'Bye' }))).toMatchObject({ field: 'textKey' });
      expect(issueOf(await create(server, token, 'lang', { textKey: 'binFull', language: 'fr', text: 'Plein' }))).toMatchObject({ field: 'language' });
      expect((await create(server, token, 'lang', { textKey: 'binFull', language: 'zhHant', text: '滿'.repeat(500) })).body.resCode).toBe('00000');
    });
  });

  describe('H30 config', () => {
    it.each([
      ['conveyorSpeed', '11', 'A whole number from 1 to 10'],
      ['conveyorSpeed', '0', 'A whole number from 1 to 10'],
      ['maxItemsPerSession', '501', 'A whole number from 1 to 500'],
      ['maxItemsPerSession', '2.5', 'A whole number from 1 to 500'],
      ['idleTimeoutSeconds', '9', 'A whole number from 10 to 600'],
      ['cameraExposure', 'on', 'A whole number from 1 to 100'],
      ['compaction', 'yes', 'Either on or off'],
      ['printerEnabled', '1', 'Either on or off'],
    ])('refuses %s = %s with 1004 naming its range', async (setting, value, message) => {
      expect(issueOf(await create(server, token, 'h30', { setting, value }))).toEqual({ code: '1004', field: 'value', message });
    });

    it('says the range in Chinese and takes the limits themselves', async () => {
      expect(issueOf(await create(server, token, 'h30', { setting: 'idleTimeoutSeconds', value: '601' }, 'zh'))).toEqual({
        code: '1004',
        field: 'value',
        message: '取值为 10 到 600 之间的整数',
      });
      expect(issueOf(await create(server, token, 'h30', { setting: 'compaction', value: 'maybe' }, 'zh'))).toMatchObject({ message: '取值为 on 或 off' });
      for (const [setting, value] of [
        ['idleTimeoutSeconds', '600'],
        ['cameraExposure', '1'],
        ['compaction', 'off'],
      ])
        expect((await create(server, token, 'h30', { setting, value })).body.resCode).toBe('00000');
    });

    it('checks an edit as the record will be stored', async () => {
      const created = await create(server, token, 'h30', { setting: 'screenBrightness', value: '100' });
      const id = created.body.resData.id as number;
      expect(issueOf(await server.call('PUT', '/configuration/h30', { token, body: { id, value: '101' } }))).toMatchObject({ code: '1004', field: 'value' });
      // a new setting checks the stored value against its own type
      expect(issueOf(await server.call('PUT', '/configuration/h30', { token, body: { id, setting: 'printerEnabled' } }))).toEqual({
        code: '1004',
        field: 'value',
        message: 'Either on or off',
      });
      expect((await server.call('PUT', '/configuration/h30', { token, body: { id, setting: 'printerEnabled', value: 'on' } })).body.resCode).toBe('00000');
    });

    it('labels every setting with its range', () => {
      const labels: Record<string, string> = en.resources.h30config.enums.setting;
      for (const [setting, declared] of Object.entries(H30_SETTINGS)) {
        expect(labels[setting]).toContain(declared.type === 'number' ? `(${declared.min}–${declared.max})` : '(on/off)');
      }
    });
  });

  describe('versions become packages of their types', () => {
    it.each([
      ['lang', 'lang', { textKey: 'insertItem', language: 'en', text: 'Insert an item' }],
      ['h30', 'h30config', { setting: 'maxItemsPerSession', value: '40' }],
    ])('%s → a %s package holding the items', async (path, resourceType, item) => {
      expect((await create(server, token, path, item)).body.resCode).toBe('00000');
      const versions = (await server.call('GET', `/configuration/${path}/versions`, { token })).body.resData;
      const latest = versions.list[0].version as number;
      const shown = (await server.call('GET', `/configuration/${path}/versions/${latest}`, { token })).body.resData;
      expect(shown.items).toContainEqual(item);
      const made = await server.call('POST', `/configuration/${path}/versions/${latest}/package`, { token, body: { name: `${path}-v${latest}`, adaptedModels: 'H30' } });
      expect(made.body.resCode, made.body.resMsg).toBe('00000');
      expect(made.body.resData).toMatchObject({ resourceType, version: `v${latest}` });
    });
  });
});
