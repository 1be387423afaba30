// One engine (docs/ARCHITECTURE.md "One engine"): a configured type's references follow `onDelete` as a
// code-declared resource's do, in both directions: a code record (a fleet) held by a configured record,
// and configured records held by configured ones (restrict, setNull, cascade, and a cascade that meets a
// restrict further down). Before the engines were one, deleting the fleet simply left a dangling id.
import { beforeAll, expect, it } from 'vitest';
import { describeBackends } from './helpers';

const text = (en: string, zh: string) => ({ en, zh });
const type = (name: string, labels: { en: string; zh: string }, fields: Record<string, unknown>) => ({
  name,
  labels,
  menuParent: 'service',
  fields: { title: { type: 'text', labels: text('Title', '标题'), required: true }, ...fields },
  list: { columns: ['title'] },
  actions: ['page', 'show', 'create', 'edit', 'delete'],
});
const ref = (reference: string, onDelete?: string, required = false) => ({
  type: 'reference',
  reference,
  labels: text(reference, reference),
  ...(onDelete ? { onDelete } : {}),
  ...(required ? { required } : {}),
});

describeBackends('configured records follow onDelete', (server) => {
  let admin: string;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: Record<string, unknown>, lang?: string) => server.call(method, url, { token: admin, body, lang });
  const make = async (name: string, body: Record<string, unknown>) => {
    const answer = await call('POST', `/custom/${name}`, body);
    expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
    return answer.body.resData.id as number;
  };

  beforeAll(async () => {
    admin = await server.login();
    for (const definition of [
      type('bin', text('Bins', '料仓'), { fleet: ref('fleet') }),
      type('binNote', text('Bin notes', '料仓备注'), { bin: ref('bin', 'setNull') }),
      type('binPart', text('Bin parts', '料仓部件'), { bin: ref('bin', 'cascade', true) }),
      type('partTag', text('Part tags', '部件标签'), { part: ref('binPart', 'restrict') }),
    ]) {
      const saved = await call('POST', '/resource-types', definition);
      expect(saved.body.resCode, JSON.stringify(saved.body)).toBe('00000');
    }
  });

  it('a code record held by a configured one is refused (5002 naming the type in the request language), then deleted once free', async () => {
    const fleet = (await call('POST', '/fleet', { name: 'Bins fleet' })).body.resData.id as number;
    const bin = await make('bin', { title: 'Front', fleet });
    const refused = await call('DELETE', `/fleet?id=${fleet}`, undefined, 'zh');
    expect(refused.body.resCode).toBe('5002');
    expect(refused.body.resData.issues[0]).toEqual({ field: 'bin', message: '仍被 1 个料仓使用' });
    expect((await call('DELETE', `/custom/bin?id=${bin}`)).body.resCode).toBe('00000');
    expect((await call('DELETE', `/fleet?id=${fleet}`)).body.resCode).toBe('00000');
  });

  it('setNull empties the field, cascade deletes the holder, and a cascade stops at a restrict below it', async () => {
    const bin = await make('bin', { title: 'Back' });
    const note = await make('binNote', { title: 'Check weekly', bin });
    const part = await make('binPart', { title: 'Lid', bin });
    const tag = await make('partTag', { title: 'Spare', part });

    // the tag holds the part that would go with the bin: nothing is deleted
    const refused = await call('DELETE', `/custom/bin?id=${bin}`);
    expect(refused.body.resCode).toBe('5002');
    expect(refused.body.resData.issues[0]).toMatchObject({ field: 'partTag', message: 'Still used by 1 Part tags' });
    expect((await call('GET', `/custom/binNote/${note}`)).body.resData.bin).toBe(bin);

    expect((await call('DELETE', `/custom/partTag?id=${tag}`)).body.resCode).toBe('00000');
    expect((await call('DELETE', `/custom/bin?id=${bin}`)).body.resCode).toBe('00000');
    const kept = (await call('GET', `/custom/binNote/${note}`)).body.resData;
    expect(kept.title).toBe('Check weekly');
    expect(kept.bin ?? null).toBeNull();
    expect((await call('GET', `/custom/binPart/${part}`)).body.resCode).toBe('2003');
  });

  it('refuses a required reference that a delete would empty (9415)', async () => {
    const answer = await call('POST', '/resource-types', type('strictNote', text('Strict notes', '严格备注'), { bin: ref('bin', 'setNull', true) }));
    expect(answer.body.resCode).toBe('1004');
    expect(answer.body.resData.issues[0]).toMatchObject({ field: 'fields.bin.onDelete', message: expect.stringMatching(/cannot be emptied/) });
  });
});
