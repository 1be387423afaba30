// The Promotion area (docs/promotions.md): each size and format rule of the three media areas checked on upload
// from the bytes, with its catalogue code and both languages' message naming what was expected and what was
// found; the default promotion's one-per-account rule; deploying an option as a promotion package through the
// deployments engine, and which machines show it once they reported it applied.
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, deploymentPackage, deploymentTarget, uploadedFile } from '../../server/db/schema';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { describeOneBackend, type TestServer } from './helpers';
import { mp4 } from './mp4Fixture';

const picture = (width: number, height: number, format: 'png' | 'jpeg' | 'gif' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: '#2e86c1' } })
    [format]()
    .toBuffer();

const upload = (server: TestServer, token: string, field: string, body: Buffer, lang = 'en') =>
  server.call('POST', `/file?resource=promotionResource&field=${field}&name=${field}.bin`, { token, body, lang, headers: { 'content-type': 'application/octet-stream' } });

describeOneBackend('promotions', (server) => {
  let admin: string;
  let account: number;
  const uploaded = async (field: string, body: Buffer) => {
    const answer = await upload(server, admin, field, body);
    expect(answer.body.resCode).toBe('00000');
    return answer.body.resData as { id: number; hasThumbnail: boolean; mimeType: string };
  };

  beforeAll(async () => {
    admin = await server.login();
    const relations = (await server.call('GET', '/license-account-user-relation', { token: admin })).body.resData as Array<{ id: number; licenseAccountName: string }>;
    account = relations.find((row) => row.licenseAccountName === 'Default')!.id;
  });

  it('promotion 1 must be 1080×1110: a 1080×610 picture is refused with 9603 naming both sizes, in English and Chinese', async () => {
    const wrong = await picture(1080, 610);
    const en = await upload(server, admin, 'promotion1', wrong);
    expect(en.status).toBe(400);
    expect(en.body.resCode).toBe('9603');
    expect(en.body.resMsg).toBe('Wrong size: this picture or video must be 1080×1110 pixels, this file is 1080×610');
    expect(en.body.resData).toEqual({ expected: { width: 1080, height: 1110 }, actual: { width: 1080, height: 610 } });
    const zh = await upload(server, admin, 'promotion1', wrong, 'zh');
    expect(zh.body.resMsg).toBe('尺寸不符：此图片或视频必须为 1080×1110 像素，此文件为 1080×610');
    // nothing of a refused file is kept
    expect(await server.db.select().from(uploadedFile).where(eq(uploadedFile.size, wrong.length))).toEqual([]);
    const right = await uploaded('promotion1', await picture(1080, 1110, 'jpeg'));
    expect(right).toMatchObject({ mimeType: 'image/jpeg', hasThumbnail: true });
  });

  it('promotion 2 must be 1080×610 and the logo 280×100', async () => {
    const promotion2 = await upload(server, admin, 'promotion2', await picture(1080, 1110));
    expect([promotion2.body.resCode, promotion2.body.resMsg]).toEqual(['9603', 'Wrong size: this picture or video must be 1080×610 pixels, this file is 1080×1110']);
    expect((await uploaded('promotion2', await picture(1080, 610))).hasThumbnail).toBe(true);
    const logo = await upload(server, admin, 'logo', await picture(281, 100), 'zh');
    expect([logo.body.resCode, logo.body.resMsg]).toEqual(['9603', '尺寸不符：此图片或视频必须为 280×100 像素，此文件为 281×100']);
    expect((await uploaded('logo', await picture(280, 100, 'jpeg'))).mimeType).toBe('image/jpeg');
  });

  it('a photo stored sideways (EXIF orientation 6) counts as it is shown', async () => {
    const sideways = await sharp(await picture(1110, 1080, 'jpeg'))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect((await uploaded('promotion1', sideways)).mimeType).toBe('image/jpeg');
  });

  it('formats: jpg, png and mp4 for the promotions, jpg and png for the logo; 9604 names both, judged from the bytes', async () => {
    const gif = await upload(server, admin, 'promotion1', await picture(1080, 1110, 'gif'));
    expect(gif.body.resCode).toBe('9604');
    expect(gif.body.resMsg).toBe('Wrong format: this field takes JPG/PNG/MP4, this file is GIF');
    const logoVideo = await upload(server, admin, 'logo', mp4(280, 100), 'zh');
    expect([logoVideo.body.resCode, logoVideo.body.resMsg]).toEqual(['9604', '格式不符：此处只接受 JPG/PNG，此文件为 MP4']);
    const text = await upload(server, admin, 'promotion2', Buffer.from('not a picture at all'));
    expect([text.body.resCode, text.body.resMsg]).toEqual(['9604', 'Wrong format: this field takes JPG/PNG/MP4, this file is text/plain']);
  });

  it("reads an MP4's size from its video track, wherever its moov sits", async () => {
    expect(await uploaded('promotion1', mp4(1080, 1110))).toMatchObject({ mimeType: 'video/mp4', hasThumbnail: false });
    expect((await uploaded('promotion2', mp4(1080, 610, { moovLast: true }))).mimeType).toBe('video/mp4');
    // a quarter-turned track is shown as height × width
    expect((await uploaded('promotion2', mp4(610, 1080, { quarterTurn: true }))).mimeType).toBe('video/mp4');
    const wrong = await upload(server, admin, 'promotion1', mp4(1920, 1080, { moovLast: true }), 'zh');
    expect([wrong.body.resCode, wrong.body.resMsg]).toEqual(['9603', '尺寸不符：此图片或视频必须为 1080×1110 像素，此文件为 1920×1080']);
    const noVideo = await upload(server, admin, 'promotion1', mp4(1080, 1110, { handler: 'soun' }));
    expect([noVideo.body.resCode, noVideo.body.resMsg]).toEqual(['9605', 'The size of this file could not be read: it must be a readable MP4 of 1080×1110 pixels']);
  });

  it('one default promotion per license account (9800), and the option rules', async () => {
    const first = await uploaded('promotion1', await picture(1080, 1110));
    const resource = await server.call('POST', '/promotion/resource', { token: admin, body: { name: 'Summer', promotion1: first.id } });
    expect(resource.body.resCode).toBe('00000');
    const created = await server.call('POST', '/promotion/default', { token: admin, body: { resourceId: resource.body.resData.id, durationSeconds: 20 } });
    expect(created.body.resCode).toBe('00000');
    const second = await server.call('POST', '/promotion/default', { token: admin, body: { resourceId: resource.body.resData.id } });
    expect(second.body.resCode).toBe('9800');
    const hours = await server.call('POST', '/promotion/option', {
      token: admin,
      body: { name: 'Bad hours', startDate: '2026-12-01', endDate: '2026-12-31', startHour: 18, endHour: 9 },
    });
    expect(hours.body.resCode).toBe('1004');
    expect(hours.body.resData.issues).toEqual([{ field: 'endHour', message: '"Until hour" must be after "From hour"' }]);
    const dates = await server.call('POST', '/promotion/option', { token: admin, body: { name: 'Bad dates', startDate: '2026-12-31', endDate: '2026-12-01' } });
    expect(dates.body.resData.issues).toEqual([{ field: 'startDate', message: 'The first day must not be after the last day' }]);
  });

  it('deploys an option as a promotion package to its models, and lists which machines show it once applied', async () => {
    const [root] = await server.db.insert(fleet).values({ licenseAccountId: account, name: 'Promo fleet', level: 1 }).returning({ id: fleet.id });
    const machines = await server.db
      .insert(rvm)
      .values(
        ['PM001', 'PM002', 'PM003'].map((termNo, index) => ({
          licenseAccountId: account,
          fleetId: root.id,
          termNo,
          serialNumber: `SN${termNo}`,
          termType: index < 2 ? 'P1' : 'P2',
        })),
      )
      .returning({ id: rvm.id, termNo: rvm.termNo });
    const media = await uploaded('promotion1', await picture(1080, 1110));
    const resource = await server.call('POST', '/promotion/resource', { token: admin, body: { name: 'Winter', promotion1: media.id } });
    // an export names the file as it was uploaded, not by its id
    const exported = await server.call('POST', '/promotion/resource/export', { token: admin, body: { format: 'csv', columns: ['name', 'promotion1'] } });
    expect(exported.raw.body).toContain('Winter,promotion1.bin');
    const option = await server.call('POST', '/promotion/option', {
      token: admin,
      body: { name: 'Winter weekends', startDate: '2026-12-01', endDate: '2027-02-28', days: 'sat, sun', models: 'P1' },
    });
    expect(option.body.resCode).toBe('00000');
    const empty = await server.call('POST', '/promotion/deploy', { token: admin, body: { optionId: option.body.resData.id } });
    expect(empty.body.resCode).toBe('9801');
    const item = await server.call('POST', '/promotion/item', {
      token: admin,
      body: { optionId: option.body.resData.id, position: 1, resourceId: resource.body.resData.id, durationSeconds: 30 },
    });
    expect(item.body.resCode).toBe('00000');
    // an item is named by its position (a number): the picker's name search reads it as text
    const named = await server.call('GET', '/promotion/item/list?nameLike=1', { token: admin });
    expect(named.body).toMatchObject({ resCode: '00000', resData: [{ id: item.body.resData.id, name: '1' }] });

    // to a fleet without machines and a model nobody has: the deployment is refused (8203) and no package, file or audit entry of it is left
    const [bare] = await server.db.insert(fleet).values({ licenseAccountId: account, name: 'Promo fleet without machines', level: 1 }).returning({ id: fleet.id });
    const packagesBefore = await server.db.select({ id: deploymentPackage.id }).from(deploymentPackage);
    const filesBefore = await server.db.select({ id: uploadedFile.id }).from(uploadedFile);
    const auditBefore = await server.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.resource, 'deploymentPackage'));
    const refused = await server.call('POST', '/promotion/deploy', { token: admin, body: { optionId: option.body.resData.id, fleetIds: [bare.id], models: ['Z9'] } });
    expect(refused.body.resCode).toBe('8203');
    expect(await server.db.select({ id: deploymentPackage.id }).from(deploymentPackage)).toEqual(packagesBefore);
    expect(await server.db.select({ id: uploadedFile.id }).from(uploadedFile)).toEqual(filesBefore);
    expect(await server.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.resource, 'deploymentPackage'))).toEqual(auditBefore);

    const deployed = await server.call('POST', '/promotion/deploy', { token: admin, body: { optionId: option.body.resData.id } });
    expect(deployed.body.resCode).toBe('00000');
    expect(deployed.body.resData.targeted).toBe(2); // the two P1 machines
    const [pkg] = await server.db.select().from(deploymentPackage).where(eq(deploymentPackage.id, deployed.body.resData.packageId));
    expect(pkg).toMatchObject({ resourceType: 'promotion', adaptedModels: 'P1' });
    const archive = await server.call('GET', `/file/${pkg.file}`, { token: admin });
    const bytes = archive.raw.rawPayload;
    expect(bytes.toString('latin1', 257, 262)).toBe('ustar');
    const manifest = JSON.parse(bytes.toString('utf8', 512, 512 + Number.parseInt(bytes.toString('latin1', 124, 135), 8)));
    expect(manifest.option).toMatchObject({ name: 'Winter weekends', days: ['sat', 'sun'] });
    expect(manifest.items[0]).toMatchObject({ position: 1, durationSeconds: 30, resource: { name: 'Winter', promotion1: { format: 'PNG' } } });
    expect(manifest.default).toMatchObject({ durationSeconds: 20, resource: { name: 'Summer' } });

    const list = await server.call('GET', '/promotion/deployments', { token: admin });
    expect(list.body.resData[0]).toMatchObject({ id: deployed.body.resData.deploymentId, total: 2, applied: 0 });
    // the first P1 machine reports it applied (the gateway's part: deploymentDelivery tests)
    await server.db
      .update(deploymentTarget)
      .set({ status: 'applied', finishedTime: new Date(), reportedVersion: deployed.body.resData.version })
      .where(eq(deploymentTarget.rvmId, machines[0].id));
    const showing = await server.call('POST', '/promotion/showing', { token: admin, body: { pageNum: 1, pageSize: 10, termNoLike: 'PM' } });
    expect(showing.body.resData.total).toBe(3);
    const byNumber = Object.fromEntries(
      (showing.body.resData.list as Array<{ termNo: string; shown: { version: string } | null }>).map((row) => [row.termNo, row.shown?.version ?? null]),
    );
    expect(byNumber).toEqual({ PM001: deployed.body.resData.version, PM002: null, PM003: null });
  });
});
