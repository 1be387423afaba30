// The permission identity guard (issue 9): roles store permission ids (sys_role_permission), so a
// seeded permission's id must mean the same identifier forever. This list is the seeded tree as
// installations hold it; it may only grow. If this test fails because an id moved, give the moved
// or new entry a NEW id in resources/menu.ts or the declaration's `permissionIds` instead.
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { permissionTree, placeSeedRows } from '../../server/seed/permissionTree';

const SEEDED: ReadonlyArray<readonly [string, number]> = [
  ['home:quarantineOverview', 9902],
  ['search', 1],
  ['installation', 2],
  ['installation:fleetManagement', 201],
  ['installation:rvmpage', 202],
  ['installation:rvmpage:Overview', 20201],
  ['installation:rvmpage:ProfileSetting', 20202],
  ['installation:rvmpage:RemoteControl', 20203],
  ['installation:rvmpage:StatusHistory', 20204],
  ['installation:rvmpage:OnlineOfflineHistory', 20205],
  ['installation:rvmpage:ServiceSessions', 20206],
  ['installation:rvmpage:EventHistory', 20207],
  ['installation:rvmpage:ConsumerSessions', 20208],
  ['reports', 3],
  ['reports:showreport', 301],
  ['reports:report', 302],
  ['reports:notifications', 303],
  ['service', 6],
  ['service:performance', 601],
  ['service:events', 602],
  ['service:eventNotifications', 603],
  ['service:setup', 604],
  ['service:softwareUpgrade', 605],
  ['service:ai', 606],
  ['service:assortment', 607],
  ['service:mainConfig', 608],
  ['service:langConfig', 609],
  ['service:group', 610],
  ['service:payout', 611],
  ['service:refund', 612],
  ['service:sorting', 613],
  ['service:h30config', 614],
  ['service:generateConfigFile', 615],
  ['service:personnalSetting', 616],
  ['service:personnalDeploy', 617],
  ['service:createServicePersonnelPackage', 618],
  ['service:banManagement', 619],
  ['service:getSamples', 620],
  ['service:imageLabeling', 621],
  ['service:imageClassify', 622],
  ['service:trainingTask', 623],
  ['promotion', 113],
  ['promotion:promotionResource', 11301],
  ['promotion:promotionDeployment', 11302],
  ['promotion:createPromotionOption', 11303],
  ['promotion:defaultPromotion', 11304],
  ['apis', 12],
  ['apis:csApi', 1201],
  ['apis:csApiTransaction', 1202],
  ['apis:csThridApp', 1203],
  ['apis:ciApi', 1204],
  ['apis:ciApiTransaction', 1205],
  ['apis:ciThridApp', 1206],
  ['apis:statusApi', 1207],
  ['apis:statusApiTransaction', 1208],
  ['apis:statusThridApp', 1209],
  ['apis:tcRvmList', 1210],
  ['apis:tcTransactionList', 1211],
  ['apis:notificationList', 1212],
  ['systemSettings', 21],
  ['systemSettings:account', 2101],
  ['systemSettings:user', 2102],
  ['systemSettings:role', 2103],
  ['systemSettings:permission', 2104],
  ['systemSettings:resourceTypes', 2105],
  ['systemSettings:auditLog', 2106],
  ['systemSettings:mailOutbox', 2107],
  ['account:page', 210101],
  ['account:add', 210102],
  ['account:edit', 210103],
  ['account:delete', 210104],
  ['account:export', 210105],
  ['user:page', 210201],
  ['user:add', 210202],
  ['user:edit', 210203],
  ['user:delete', 210204],
  ['user:export', 210205],
  ['user:resetPassword', 210206],
  ['user:disable', 210207],
  ['role:page', 210301],
  ['role:add', 210302],
  ['role:edit', 210303],
  ['role:delete', 210304],
  ['role:export', 210305],
  ['permission:page', 210401],
  ['permission:add', 210402],
  ['permission:edit', 210403],
  ['permission:delete', 210404],
  ['fleet:page', 20101],
  ['fleet:add', 20102],
  ['fleet:edit', 20103],
  ['fleet:delete', 20104],
  ['machine:page', 2020201],
  ['machine:add', 2020202],
  ['machine:edit', 2020203],
  ['machine:delete', 2020204],
  ['machine:export', 2020205],
  ['event:page', 60201],
  ['event:export', 60202],
  ['eventNotification:page', 60301],
  ['eventNotification:add', 60302],
  ['eventNotification:edit', 60303],
  ['eventNotification:delete', 60304],
  ['reportNotification:page', 30301],
  ['reportNotification:add', 30302],
  ['reportNotification:edit', 30303],
  ['reportNotification:delete', 30304],
  ['auditLog:page', 210601],
  ['auditLog:export', 210602],
  ['mailOutbox:page', 210701],
  ['deploymentPackage:page', 60401],
  ['deploymentPackage:add', 60402],
  ['deploymentPackage:edit', 60403],
  ['deploymentPackage:delete', 60404],
  ['deployment:page', 60405],
  ['deployment:add', 60406],
  ['deployment:control', 60407],
  ['deployment:approve', 60408],
  // Machine configurations (docs/machine-configuration.md)
  ['assortment:page', 60701],
  ['assortment:add', 60702],
  ['assortment:edit', 60703],
  ['assortment:delete', 60704],
  ['mainConfig:page', 60801],
  ['mainConfig:add', 60802],
  ['mainConfig:edit', 60803],
  ['mainConfig:delete', 60804],
  ['refund:page', 61201],
  ['refund:add', 61202],
  ['refund:edit', 61203],
  ['refund:delete', 61204],
  ['sorting:page', 61301],
  ['sorting:add', 61302],
  ['sorting:edit', 61303],
  ['sorting:delete', 61304],
  // Service personnel and bans (docs/service-personnel.md)
  ['servicePersonnel:page', 61601],
  ['servicePersonnel:add', 61602],
  ['servicePersonnel:edit', 61603],
  ['servicePersonnel:delete', 61604],
  ['personnelAccessLevel:page', 61606],
  ['personnelAccessLevel:edit', 61605],
  ['consumerBan:page', 61901],
  ['consumerBan:add', 61902],
  ['consumerBan:edit', 61903],
  ['consumerBan:delete', 61904],
  ['consumerBan:package', 61905],
  // Promotion area (docs/promotions.md)
  ['promotionResource:page', 1130101],
  ['promotionResource:add', 1130102],
  ['promotionResource:edit', 1130103],
  ['promotionResource:delete', 1130104],
  ['promotionOption:page', 1130301],
  ['promotionOption:add', 1130302],
  ['promotionOption:edit', 1130303],
  ['promotionOption:delete', 1130304],
  ['promotionItem:page', 1130305],
  ['promotionItem:add', 1130306],
  ['promotionItem:edit', 1130307],
  ['promotionItem:delete', 1130308],
  ['defaultPromotion:page', 1130401],
  ['defaultPromotion:add', 1130402],
  ['defaultPromotion:edit', 1130403],
  ['defaultPromotion:delete', 1130404],
  // APIs area (docs/api-hookups.md)
  ['csApi:page', 120101],
  ['csApi:add', 120102],
  ['csApi:edit', 120103],
  ['csApi:delete', 120104],
  ['csApiTransaction:page', 120201],
  ['csApiTransaction:export', 120202],
  ['csApiTransaction:resend', 120203],
  ['csThridApp:page', 120301],
  ['csThridApp:add', 120302],
  ['csThridApp:edit', 120303],
  ['csThridApp:delete', 120304],
  ['csThridApp:secret', 120305],
  ['ciApi:page', 120401],
  ['ciApi:add', 120402],
  ['ciApi:edit', 120403],
  ['ciApi:delete', 120404],
  ['ciApiTransaction:page', 120501],
  ['ciApiTransaction:export', 120502],
  ['ciApiTransaction:resend', 120503],
  ['ciThridApp:page', 120601],
  ['ciThridApp:add', 120602],
  ['ciThridApp:edit', 120603],
  ['ciThridApp:delete', 120604],
  ['ciThridApp:secret', 120605],
  ['statusApi:page', 120701],
  ['statusApi:add', 120702],
  ['statusApi:edit', 120703],
  ['statusApi:delete', 120704],
  ['statusApiTransaction:page', 120801],
  ['statusApiTransaction:export', 120802],
  ['statusApiTransaction:resend', 120803],
  ['statusThridApp:page', 120901],
  ['statusThridApp:add', 120902],
  ['statusThridApp:edit', 120903],
  ['statusThridApp:delete', 120904],
  ['statusThridApp:secret', 120905],
  ['tcRvmList:page', 121001],
  ['tcRvmList:export', 121002],
  ['tcTransactionList:page', 121101],
  ['tcTransactionList:export', 121102],
  ['notificationList:page', 121201],
  ['notificationList:export', 121202],
];

describe('permission identities', () => {
  const tree = permissionTree(RESOURCES);

  it('seeds exactly the recorded (identifier -> id) pairs', () => {
    expect(tree.map((row) => [row.identifier, row.id])).toEqual(SEEDED.map(([identifier, id]) => [identifier, id]));
  });

  it('has no duplicate id or identifier', () => {
    expect(new Set(tree.map((row) => row.id)).size).toBe(tree.length);
    expect(new Set(tree.map((row) => row.identifier)).size).toBe(tree.length);
  });

  it('writes every code-declared button id down (none derived from a position)', () => {
    for (const declaration of RESOURCES) {
      const identifiers = [...Object.values(declaration.permissions), ...Object.keys(declaration.extraPermissions ?? {})];
      for (const identifier of new Set(identifiers)) expect(declaration.permissionIds?.[identifier], `${declaration.name}: ${identifier}`).toBeTypeOf('number');
    }
  });

  it('seeds an existing table by identifier: a moved id never re-points a role', () => {
    const moved = tree.map((row) => (row.identifier === 'service:trainingTask' ? { ...row, id: 624 } : row));
    const stored = tree.map(({ id, identifier }) => ({ id, identifier }));
    // the identifier already stored keeps its row (roles holding 623 still mean trainingTask)
    expect(placeSeedRows(moved, stored).find((row) => row.identifier === 'service:trainingTask')?.id).toBe(623);
    // a new entry given an id that a declared identifier holds is refused
    const stolen = [...tree, { ...tree.find((row) => row.id === 623)!, identifier: 'service:newScreen' }];
    expect(() => placeSeedRows(stolen, stored)).toThrow(/re-point/);
    // a hand-edited seeded row gets its declared identity back
    const edited = stored.map((row) => (row.id === 623 ? { ...row, identifier: 'edited' } : row));
    expect(placeSeedRows(tree, edited).find((row) => row.id === 623)?.identifier).toBe('service:trainingTask');
  });

  it('seeds Home entries that need a permission (quarantine overview), not the always-open dashboard', () => {
    expect(tree.find((row) => row.identifier === 'home:quarantineOverview')).toMatchObject({ id: 9902, parentId: null, type: 'menu' });
    expect(tree.some((row) => row.identifier === 'home:index')).toBe(false);
  });
});
