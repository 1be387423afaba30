// Names a new user trusts (issue 9): fleet names are unique among siblings (9450, naming the field,
// both languages; case and surrounding spaces do not make a new name) and user names have no spaces.
import { beforeAll, expect, it } from 'vitest';
import { describeOneBackend } from './helpers';

describeOneBackend('fleet and user names', (server) => {
  let admin: string;
  beforeAll(async () => {
    admin = await server.login();
  });
  const fleet = (method: 'POST' | 'PUT', body: Record<string, unknown>, lang?: 'en' | 'zh') => server.call(method, '/fleet', { token: admin, body, lang });

  it('refuses a second fleet of the same name under one parent, with an issue on the name', async () => {
    const north = await fleet('POST', { name: 'North' });
    expect(north.body.resCode, north.body.resMsg).toBe('00000');
    const again = await fleet('POST', { name: ' north ' });
    expect([again.status, again.body.resCode]).toEqual([400, '9450']);
    expect(again.body.resData.issues).toEqual([{ field: 'name', message: 'Another fleet under the same parent is already called "north"' }]);
    expect(again.body.resMsg).toContain('This fleet name is already used under the same parent fleet');
    const zh = await fleet('POST', { name: 'North' }, 'zh');
    expect(zh.body.resData.issues).toEqual([{ field: 'name', message: '同一上级车队下已有名为"North"的车队' }]);
    expect(zh.body.resMsg).toContain('同一上级车队下已有同名车队');

    // the same name elsewhere in the tree is fine
    const parentId = north.body.resData.id as number;
    const child = await fleet('POST', { name: 'North', parentId });
    expect(child.body.resCode, child.body.resMsg).toBe('00000');
    expect((await fleet('POST', { name: 'NORTH', parentId })).body.resCode).toBe('9450');
    const sibling = await fleet('POST', { name: 'Harbour', parentId });
    expect(sibling.body.resCode).toBe('00000');

    // renaming or moving onto a taken name is refused too; saving a fleet unchanged is not
    expect((await fleet('PUT', { id: sibling.body.resData.id, name: 'north' })).body.resCode).toBe('9450');
    expect((await fleet('PUT', { id: child.body.resData.id, parentId: null })).body.resCode).toBe('9450');
    expect((await fleet('PUT', { id: child.body.resData.id, name: 'North', parentId })).body.resCode).toBe('00000');
  });

  it('refuses spaces in user names, on create and on change', async () => {
    const answer = await server.call('POST', '/user', { token: admin, body: { name: 'ann lee', realname: 'Ann Lee', password: 'Passw0rd!', confirmPassword: 'Passw0rd!' } });
    expect(answer.body.resCode).toBe('1004');
    expect(answer.body.resData.issues).toEqual([{ field: 'name', message: 'The value cannot contain spaces' }]);
    const zh = await server.call('POST', '/user', {
      token: admin,
      lang: 'zh',
      body: { name: 'ann\tlee', realname: 'Ann Lee', password: 'Passw0rd!', confirmPassword: 'Passw0rd!' },
    });
    expect(zh.body.resData.issues).toEqual([{ field: 'name', message: '该值不能包含空格' }]);
    const ok = await server.createUser({ name: 'annlee' }, admin);
    const renamed = await server.call('PUT', '/user', { token: admin, body: { id: ok, name: 'ann lee' } });
    expect(renamed.body.resCode).toBe('1004');
  });
});
