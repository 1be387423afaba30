// The app shell: OpenAPI document and UI, unknown addresses (4004), the console's SPA fallback,
// unexpected failures (1000, logged, no stack on the wire) and logs without secrets.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { describeOneBackend } from './helpers';

describeOneBackend('app', (server) => {
  const consoleDir = mkdtempSync(join(tmpdir(), 'rvm-console-'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>RVM Console</title>');
  writeFileSync(join(consoleDir, 'app.js'), 'console.log(1)');
  afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/test-api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.components.securitySchemes.rvmToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'rvm-token' });
    expect(document.info.description).toContain('11016');
    const paths = Object.keys(document.paths);
    for (const path of [
      '/test-api/login/login',
      '/test-api/user/page',
      '/test-api/user/{id}',
      '/test-api/user/batchDelete',
      '/test-api/user/export',
      '/test-api/role',
      '/test-api/license-account-user-relation',
      '/test-api/saved-filter',
      '/test-api/user/password',
    ]) {
      expect(paths).toContain(path);
    }
    const createUser = document.paths['/test-api/user'].post;
    expect(createUser.security).toEqual([{ rvmToken: [] }]);
    expect(createUser.responses['401'].description).toContain('11013');
    const body = createUser.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['realname', 'name', 'password', 'confirmPassword']));
    expect(body.properties.name).toMatchObject({ maxLength: 8, minLength: 2 });
    expect(body.properties.createTime).toBeUndefined();
    const envelope = createUser.responses['200'].content['application/json'].schema;
    expect(Object.keys(envelope.properties)).toEqual(['resCode', 'resMsg', 'resData']);
    expect(envelope.properties.resData.properties.password).toBeUndefined();
    const ui = await server.app.inject({ method: 'GET', url: '/test-api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('answers 4004 (HTTP 404) for unknown API addresses, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const { status, body } = await server.call(method, '/no/such/thing');
      expect([status, body.resCode, body.resMsg]).toEqual([404, '4004', 'The requested address does not exist']);
    }
    expect((await server.call('GET', '/no', { lang: 'zh' })).body.resMsg).toBe('请求的地址不存在');
  });

  it('serves the console with the SPA fallback, but never for API paths', async () => {
    const app = await server.anotherInstance({ staticDir: consoleDir });
    const file = await app.inject({ method: 'GET', url: '/app.js' });
    expect([file.statusCode, file.payload]).toEqual([200, 'console.log(1)']);
    for (const url of ['/', '/login', '/systemSettings/user?x=1', '/resetPassword?token=abc']) {
      const page = await app.inject({ method: 'GET', url });
      expect([url, page.statusCode, page.headers['content-type']]).toEqual([url, 200, 'text/html; charset=utf-8']);
      expect(page.payload).toContain('<title>RVM Console</title>');
    }
    const api = await app.inject({ method: 'GET', url: '/test-api/nothing' });
    expect([api.statusCode, api.json().resCode]).toEqual([404, '4004']);
  });

  it('answers an unexpected failure with 1000 and the request id, logged, without a stack trace', async () => {
    const log = new PassThrough();
    let lines = '';
    log.on('data', (chunk: Buffer) => (lines += chunk.toString()));
    const app = await server.anotherInstance({
      logger: { level: 'info', stream: log },
      hooks: {
        role: {
          beforeCreate: async () => {
            throw new Error('boom in a hook');
          },
        },
      },
    });
    // Signed in through the helper (the forced first change done): tokens live in the shared database.
    const token = await server.login();
    const response = await app.inject({ method: 'POST', url: '/test-api/role', headers: { 'rvm-token': token }, payload: { name: 'x' } });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body.resCode).toBe('1000');
    expect(body.resMsg).toBe('Background service exception');
    // the id the operator can grep the log for: present, and the very reqId of the logged failure below
    expect(body.resData.requestId).toEqual(expect.stringMatching(/^\S+$/));
    expect(response.payload).not.toContain('boom');
    expect(lines).toContain('boom in a hook');
    expect(lines).toContain(`"reqId":"${body.resData.requestId}"`);
  });

  it('never writes a password or a token to the log', async () => {
    const log = new PassThrough();
    let lines = '';
    log.on('data', (chunk: Buffer) => (lines += chunk.toString()));
    const app = await server.anotherInstance({ logger: { level: 'debug', stream: log } });
    await server.createUser({ name: 'logme', password: 'Secret#123' });
    const login = await app.inject({ method: 'POST', url: '/test-api/login/login', payload: { username: 'logme', password: 'Secret#123' } });
    const token = login.json().resData.tokenInfo.tokenValue as string;
    await app.inject({ method: 'GET', url: '/test-api/login/current', headers: { 'rvm-token': token } });
    await app.inject({ method: 'PUT', url: '/test-api/user/password?password=Brand%23New1', headers: { 'rvm-token': token }, payload: { oldPassword: 'Secret#123' } });
    await app.inject({ method: 'POST', url: '/test-api/login/login', payload: { username: 'logme', password: 'Wrong#Pass9' } });
    expect(lines).toContain('/test-api/user/password?[redacted]');
    for (const secret of ['Secret#123', 'Brand%23New1', 'Brand#New1', 'Wrong#Pass9', token]) expect(lines).not.toContain(secret);
  });
});
