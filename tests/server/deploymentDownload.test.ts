// Package downloads (docs/deployments.md "Download"): the URL of a real deploy message, fetched with the
// machine's serial number and secret over HTTP Basic authentication; whole, by ranges and resumed after
// a cut (the pieces hash to the package's SHA-256); refused when expired, when its signature or expiry
// was changed, with another machine's credentials or none, and once the delivery was voided.
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deploymentTarget } from '../../server/db/schema/deployments';
import { claimDeliveries } from '../../server/deployments/delivery';
import { downloadUrl, signingKey } from '../../server/deployments/signing';
import { connectDeployMachine, insertDeployment, setUpDeliveryFleet, uploadPackage, type DeliveryFleet, type DeployMachine } from './deliveryHarness';
import { embeddedGateway, machineRow, waitFor } from './gatewayHarness';
import { describeOneBackend } from './helpers';

const basic = (serial: string, secret: string) => `Basic ${Buffer.from(`${serial}:${secret}`).toString('base64')}`;

describeOneBackend(
  'package download',
  (server) => {
    let fleet: DeliveryFleet;
    let machine: DeployMachine;
    let bytes: Buffer;
    let sha256: string;
    let deployId: number;
    let url: string;
    const API_BASE = 'http://packages.example:8080/test-api';

    /** GETs a URL of a deploy message through the app (its path and query; the host is PUBLIC_URL's). */
    const download = (address: string, headers: Record<string, string> = {}) => {
      const { pathname, search } = new URL(address);
      return server.app.inject({ method: 'GET', url: `${pathname}${search}`, headers });
    };
    const owner = () => ({ authorization: basic(fleet.machines[0].serial, fleet.machines[0].secret) });

    beforeAll(async () => {
      fleet = await setUpDeliveryFleet(server, 2);
      // larger than a stream's chunk, so ranges cut through the middle of stored chunks
      bytes = randomBytes(300_000);
      sha256 = createHash('sha256').update(bytes).digest('hex');
      const item = await uploadPackage(server, fleet.token, { name: 'firmware', bytes });
      const deployed = await insertDeployment(server, fleet.account, item.id, [fleet.machines[0].id]);
      deployId = deployed.targetOf.get(fleet.machines[0].id)!;
      await waitFor(async () => server.app.services.gateway.connected, Boolean, 'gateway connected');
      machine = await connectDeployMachine(server.app.services.gateway.machineUrl!, fleet.machines[0].serial, fleet.machines[0].secret, fleet.machines[0].id);
      await machine.send('hello', {});
      await waitFor(
        () => machineRow(server.db, fleet.machines[0].id),
        (row) => row.online,
        'online',
      );
      await waitFor(
        async () => machine.deploys.length,
        (n) => n === 1,
        'deploy message',
      );
      url = machine.deploys[0].url;
    });
    afterAll(async () => {
      await machine?.close().catch(() => undefined);
    });

    it('serves the whole package to its machine, with its length, SHA-256 ETag and byte ranges offered', async () => {
      expect(url.startsWith(`${server.app.services.config.publicUrl}/test-api/gateway/package/${deployId}?`)).toBe(true);
      const answer = await download(url, owner());
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-length']).toBe(String(bytes.length));
      expect(answer.headers.etag).toBe(`"${sha256}"`);
      expect(answer.headers['accept-ranges']).toBe('bytes');
      expect(answer.headers['content-type']).toBe('application/octet-stream');
      expect(createHash('sha256').update(answer.rawPayload).digest('hex')).toBe(sha256);
      expect(machine.deploys[0]).toMatchObject({ size: bytes.length, sha256 });
    });

    it('answers ranges, so a download cut in the middle resumes where it stopped', async () => {
      const first = await download(url, { ...owner(), range: 'bytes=0-99999' });
      expect(first.statusCode).toBe(206);
      expect(first.headers['content-range']).toBe(`bytes 0-99999/${bytes.length}`);
      expect(first.headers['content-length']).toBe('100000');
      // the connection broke after 70,001 bytes: the machine asks for the rest, if the bytes are still the same
      const kept = first.rawPayload.subarray(0, 70_001);
      const rest = await download(url, { ...owner(), range: `bytes=${kept.length}-`, 'if-range': `"${sha256}"` });
      expect(rest.statusCode).toBe(206);
      expect(rest.headers['content-range']).toBe(`bytes ${kept.length}-${bytes.length - 1}/${bytes.length}`);
      expect(
        createHash('sha256')
          .update(Buffer.concat([kept, rest.rawPayload]))
          .digest('hex'),
      ).toBe(sha256);
      // the last bytes alone; a range past the end; an If-Range naming other bytes gets the whole file
      const tail = await download(url, { ...owner(), range: 'bytes=-10' });
      expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
      const beyond = await download(url, { ...owner(), range: `bytes=${bytes.length}-` });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${bytes.length}`);
      const changed = await download(url, { ...owner(), range: 'bytes=0-9', 'if-range': '"0000"' });
      expect(changed.statusCode).toBe(200);
      expect(changed.rawPayload.length).toBe(bytes.length);
    });

    it('refuses an expired URL, a changed signature or expiry, and a voided delivery', async () => {
      const key = await signingKey(server.db);
      const expired = await download(downloadUrl(API_BASE, key, deployId, new Date(Date.now() - 1000)), owner());
      expect(expired.statusCode).toBe(410);
      expect(expired.json()).toMatchObject({ resCode: '8103' });
      const tampered = new URL(url);
      tampered.searchParams.set(
        'signature',
        tampered.searchParams.get('signature')!.replace(/^./, (char) => (char === '0' ? '1' : '0')),
      );
      const badSignature = await download(tampered.toString(), owner());
      expect(badSignature.statusCode).toBe(403);
      expect(badSignature.json()).toMatchObject({ resCode: '8102' });
      const stretched = new URL(url);
      stretched.searchParams.set('expires', String(Number(stretched.searchParams.get('expires')) + 86_400));
      expect((await download(stretched.toString(), owner())).json()).toMatchObject({ resCode: '8102' });
      // a signature made for another delivery does not open this one
      const otherId = new URL(url);
      otherId.pathname = otherId.pathname.replace(/\/\d+$/, `/${deployId + 1}`);
      expect((await download(otherId.toString(), owner())).json()).toMatchObject({ resCode: '8102' });
      const chinese = await download(tampered.toString(), { ...owner(), lang: 'zh' });
      expect(chinese.json().resMsg).toBe('下载链接无效');

      await server.db.update(deploymentTarget).set({ status: 'voided' }).where(eq(deploymentTarget.id, deployId));
      try {
        expect((await download(url, owner())).json()).toMatchObject({ resCode: '8102' });
      } finally {
        await server.db.update(deploymentTarget).set({ status: 'issued' }).where(eq(deploymentTarget.id, deployId));
      }
    });

    it("refuses another machine's credentials, wrong ones and none", async () => {
      const other = fleet.machines[1];
      const stranger = await download(url, { authorization: basic(other.serial, other.secret) });
      expect(stranger.statusCode).toBe(403);
      expect(stranger.json()).toMatchObject({ resCode: '8104' });
      const wrong = await download(url, { authorization: basic(fleet.machines[0].serial, 'not-the-secret') });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ resCode: '8105' });
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
      const none = await download(url);
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ resCode: '8105' });
      // the other machine's own delivery of the same package opens for it, not for the first machine
      const item = (await server.db.select({ deploymentId: deploymentTarget.deploymentId }).from(deploymentTarget).where(eq(deploymentTarget.id, deployId)))[0];
      const [theirs] = await server.db
        .insert(deploymentTarget)
        .values({ deploymentId: item.deploymentId, licenseAccountId: fleet.account, rvmId: other.id, wave: 1 })
        .returning({ id: deploymentTarget.id });
      const [message] = await claimDeliveries(server.db, other.id, API_BASE);
      expect(message.deployId).toBe(theirs.id);
      expect((await download(message.url, { authorization: basic(other.serial, other.secret) })).statusCode).toBe(200);
      expect((await download(message.url, owner())).json()).toMatchObject({ resCode: '8104' });
    });
  },
  { gateway: embeddedGateway() },
);
