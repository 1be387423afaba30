// `node --expose-gc --import tsx bench/uploadMemory.ts [--mb 50]`: the server's memory while one file field upload of
// that size streams in from another process (docs/files.md "Memory"). The server (PGlite in memory, files in a
// temporary folder) samples its RSS and Buffer memory every 25 ms, with a garbage collection before each sample
// when run with --expose-gc (what is still held) and without one otherwise (what has not been collected yet).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { buildApp } from '../server/app';
import { sysUser } from '../server/db/schema';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '50' } } });
const size = Math.round(Number(values.mb) * 1024 * 1024) - 1024;
const collect = (globalThis as { gc?: () => void }).gc;

const app = await buildApp({ config: { passwordHashLogN: 12 } });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/test-api`;
await app.services.db.update(sysUser).set({ mustChangePassword: false, passwordChangedAt: new Date() });
const signIn = (await (
  await fetch(`${base}/login/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Admin@123' }) })
).json()) as {
  resData: { tokenInfo: { tokenValue: string } };
};
const token = signIn.resData.tokenInfo.tokenValue;
const type = {
  name: 'benchAsset',
  labels: { en: 'Assets', zh: '资产' },
  menuParent: 'systemSettings',
  fields: { title: { type: 'text', labels: { en: 'Title', zh: '标题' } }, manual: { type: 'file', labels: { en: 'Manual', zh: '说明书' } } },
  list: { columns: ['title'] },
  actions: ['page', 'show', 'create', 'edit'],
};
await fetch(`${base}/resource-types`, { method: 'POST', headers: { 'rvm-token': token, 'content-type': 'application/json' }, body: JSON.stringify(type) });

// The client: another process, streaming with backpressure.
const client = `
const { request } = require('node:http');
const size = ${size};
const req = request(process.argv[1], { method: 'POST', headers: { 'rvm-token': process.argv[2], 'content-type': 'application/octet-stream', 'content-length': size } }, (res) => {
  let text = ''; res.on('data', (d) => (text += d)); res.on('end', () => process.stdout.write(text));
});
let offset = 0;
const write = () => { while (offset < size) { const chunk = Buffer.alloc(Math.min(65536, size - offset), offset % 251); offset += chunk.length; if (!req.write(chunk)) return req.once('drain', write); } req.end(); };
write();`;

collect?.();
const before = process.memoryUsage();
const peak = { rss: before.rss, buffers: before.arrayBuffers };
const sampler = setInterval(() => {
  collect?.();
  const now = process.memoryUsage();
  peak.rss = Math.max(peak.rss, now.rss);
  peak.buffers = Math.max(peak.buffers, now.arrayBuffers);
}, 25);
const started = performance.now();
const answer = await new Promise<string>((resolve, reject) => {
  const child = spawn(process.execPath, ['-e', client, `${base}/file?resource=benchAsset&field=manual&name=bench.bin`, token]);
  let text = '';
  child.stdout.on('data', (data: Buffer) => (text += data.toString()));
  child.on('error', reject);
  child.on('exit', () => resolve(text));
});
const elapsed = performance.now() - started;
clearInterval(sampler);
// the same bytes the client sent, hashed here (after the measurement) to check the answer
const expected = createHash('sha256');
for (let offset = 0; offset < size; offset += 65536) expected.update(Buffer.alloc(Math.min(65536, size - offset), offset % 251));
const info = (JSON.parse(answer) as { resData: { size: number; sha256: string } }).resData;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(`${mb(info.size)} MB uploaded in ${elapsed.toFixed(0)} ms, sha256 ${info.sha256 === expected.digest('hex') ? 'matches' : 'DIFFERS'}`);
console.log(`garbage collection before each sample: ${collect ? 'yes' : 'no (run with --expose-gc)'}`);
console.log(
  `RSS ${mb(before.rss)} MB before, ${mb(peak.rss)} MB peak (+${mb(peak.rss - before.rss)}); Buffers ${mb(before.arrayBuffers)} MB before, ${mb(peak.buffers)} MB peak (+${mb(peak.buffers - before.arrayBuffers)})`,
);
await app.close();
