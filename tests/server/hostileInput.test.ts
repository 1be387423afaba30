// What an administrator or a caller can send that must not stall or break the server (issue 29):
// catastrophic patterns run on RE2 (resources/pattern.ts), names every JavaScript object inherits are
// refused as field names (resources/configuredTypes.ts).
import { beforeAll, expect, it } from 'vitest';
import { describeOneBackend } from './helpers';

const labels = (en: string) => ({ en, zh: en });

const typeWithPatterns = (patterns: string[]) => ({
  name: 'hostile',
  labels: labels('Hostile'),
  menuParent: 'systemSettings',
  fields: Object.fromEntries(
    patterns.map((regex, index) => [
      `note${index}`,
      { type: 'textarea', labels: labels(`Note ${index}`), maxLength: 4000, patterns: [{ regex, messages: labels(`Pattern ${index}`) }] },
    ]),
  ),
  list: { columns: ['note0'] },
  actions: ['page', 'show', 'create', 'edit', 'delete'],
});

describeOneBackend('hostile input', (server) => {
  let admin: string;
  beforeAll(async () => {
    admin = await server.login();
  });

  it('saves patterns that backtrack catastrophically in JavaScript, and a write against them answers at once', async () => {
    // Issue 29 measured 24 s, 86 s and 16 s of a frozen process for one write each before RE2.
    const patterns = ['^[A-Z0-9]+[A-Z0-9-]*[A-Z0-9]+$', '^(a?a?)+$', '^(a{1,30}){1,30}$'];
    expect((await server.call('POST', '/resource-types', { token: admin, body: typeWithPatterns(patterns) })).body.resCode).toBe('00000');
    for (const [index, text] of ['A'.repeat(3000) + '!', 'a'.repeat(3000) + '!', 'a'.repeat(3000) + '!'].entries()) {
      const [write, bystander] = await Promise.all([
        server.call('POST', '/custom/hostile', { token: admin, body: { [`note${index}`]: text } }),
        server.call('GET', '/login/current', { token: admin }),
      ]);
      expect([write.body.resCode, write.body.resData.issues[0]]).toEqual(['1004', expect.objectContaining({ field: `note${index}`, message: `Pattern ${index}` })]);
      expect(bystander.body.resCode).toBe('00000');
    }
    expect((await server.call('POST', '/custom/hostile', { token: admin, body: { note1: 'a'.repeat(3000) } })).body.resCode).toBe('00000');
  });

  it('refuses field names that every JavaScript object inherits', async () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString']) {
      const body = {
        name: 'inherits',
        labels: labels('Inherits'),
        menuParent: 'systemSettings',
        fields: { [name]: { type: 'text', labels: labels(name) } },
        list: { columns: [name] },
        actions: ['page'],
      };
      const answer = await server.call('POST', '/resource-types', { token: admin, body });
      expect([answer.body.resCode, answer.body.resData?.issues?.[0]?.message], name).toEqual(['1004', `"${name}" is reserved: choose another field name`]);
    }
    expect((await server.call('POST', '/custom/inherits/page', { token: admin, body: {} })).body.resCode).toBe('2003');
  });
});
