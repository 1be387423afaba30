// The license account's currency: stored per account (default HKD, the demo fleet's), chosen from the
// declared list, and told to the console in the LoginAnswer and the dashboard's answer, so refund values
// show in it (src/kit/format.ts).
import { expect, it } from 'vitest';
import { describeOneBackend } from './helpers';

describeOneBackend('license account currency', (server) => {
  it('defaults to HKD, can be changed to another listed code, refuses an unknown one, and reaches the login answer and the dashboard', async () => {
    const admin = await server.login();
    const current = async () => (await server.call('GET', '/login/current', { token: admin })).body.resData;
    const before = await current();
    expect(before.currency).toBe('HKD');
    const accountId = before.licenseAccountId as number;

    const shown = await server.call('GET', `/license-account/${accountId}`, { token: admin });
    expect(shown.body.resData.currency).toBe('HKD');
    const created = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Currency default' } });
    expect(created.body.resCode, created.body.resMsg).toBe('00000');
    expect(created.body.resData.currency).toBe('HKD');

    const refused = await server.call('PUT', '/license-account', { token: admin, body: { id: accountId, licenseAccountName: before.accountName, currency: 'XYZ' } });
    expect(refused.body.resCode).toBe('1004');
    const emptied = await server.call('PUT', '/license-account', { token: admin, body: { id: accountId, licenseAccountName: before.accountName, currency: null } });
    // no currency is no account's: a catalogue code, never a server error
    expect(emptied.body.resCode).toBe('1001');

    const changed = await server.call('PUT', '/license-account', { token: admin, body: { id: accountId, licenseAccountName: before.accountName, currency: 'MOP' } });
    expect(changed.body.resCode, changed.body.resMsg).toBe('00000');
    expect((await current()).currency).toBe('MOP');
    const dashboard = await server.call('GET', '/dashboard', { token: admin });
    expect(dashboard.body.resCode, dashboard.body.resMsg).toBe('00000');
    expect(dashboard.body.resData.currency).toBe('MOP');

    const back = await server.call('PUT', '/license-account', { token: admin, body: { id: accountId, licenseAccountName: before.accountName, currency: 'HKD' } });
    expect(back.body.resCode, back.body.resMsg).toBe('00000');
  });
});
