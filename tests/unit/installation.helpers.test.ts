// Pure helpers of the installation screens: machine page tabs and paths, fleet tree and its URL
// filter, search hit routing, ProfileSetting validation, time ranges.
import { describe, expect, it } from 'vitest';
import { ancestorIds, moveTargets, searchWithFleet, selectedFleetOf, visibleFleetRows, type FleetNode } from '../../src/installation/fleet/fleetTree';
import { profileBody, validateProfile } from '../../src/installation/machine/profileValidation';
import { MACHINE_TABS, parseMachineId, permittedTabs, resolveTab } from '../../src/installation/machine/tabs';
import { canAccessAs } from '../../src/permissions/canAccess';
import { consumerSessionPath, machinePagePath } from '../../src/pages/machinePaths';
import { fromLocalInput, lastDays, toLocalInput } from '../../src/kit/timeRange';
import { directVoucherHit, groupHits, hitPath, type SearchHit } from '../../src/search/searchHits';
import { statusColor } from '../../src/generic/statusColors';

const grant = (...identifiers: string[]) => ({ superAdmin: false, permissions: identifiers.map((identifier, id) => ({ id: 100_000 + id, identifier })) });

describe('machine page tabs', () => {
  it('lists the machine page tabs in menu order', () => {
    expect(MACHINE_TABS).toEqual(['Overview', 'ProfileSetting', 'RemoteControl', 'StatusHistory', 'OnlineOfflineHistory', 'ServiceSessions', 'EventHistory', 'ConsumerSessions']);
  });

  it('shows every tab to a superAdmin and to a holder of the page or an ancestor', () => {
    expect(permittedTabs(canAccessAs({ superAdmin: true }))).toEqual(MACHINE_TABS);
    expect(permittedTabs(canAccessAs(grant('installation:rvmpage')))).toEqual(MACHINE_TABS);
    expect(permittedTabs(canAccessAs(grant('installation:*')))).toEqual(MACHINE_TABS);
  });

  it('shows only the tabs whose identifiers the user holds, in menu order', () => {
    expect(permittedTabs(canAccessAs(grant('installation:rvmpage:ConsumerSessions', 'installation:rvmpage:StatusHistory')))).toEqual(['StatusHistory', 'ConsumerSessions']);
    expect(permittedTabs(canAccessAs(grant('user:page')))).toEqual([]);
    expect(permittedTabs(canAccessAs(null))).toEqual([]);
    // the machine declaration lives under ProfileSetting: machine:edit opens that tab
    expect(permittedTabs(canAccessAs(grant('machine:edit')))).toEqual(['ProfileSetting']);
  });

  it('resolves a requested tab to itself when permitted, else to the first permitted one', () => {
    expect(resolveTab('EventHistory', ['Overview', 'EventHistory'])).toBe('EventHistory');
    expect(resolveTab('ProfileSetting', ['Overview', 'EventHistory'])).toBe('Overview');
    expect(resolveTab(undefined, ['StatusHistory'])).toBe('StatusHistory');
    expect(resolveTab('Overview', [])).toBeNull();
  });

  it('builds the machine page and session paths and reads machine ids strictly', () => {
    expect(machinePagePath(12)).toBe('/installation/rvmpage/12');
    expect(machinePagePath(12, 'Overview')).toBe('/installation/rvmpage/12/Overview');
    expect(consumerSessionPath(12, 345)).toBe('/installation/rvmpage/12/ConsumerSessions/345');
    expect(parseMachineId('42')).toBe(42);
    for (const bad of [undefined, '', '0', '-1', '1.5', 'abc', '12abc', '9999999999']) expect(parseMachineId(bad), String(bad)).toBeNull();
  });
});

const node = (id: number, name: string, parentId: number | null, children: FleetNode[] = []): FleetNode => ({
  id,
  name,
  parentId,
  level: 1,
  createTime: null,
  machineCount: 1,
  totalMachineCount: 1,
  statusCounts: { Up: 1, Offline: 0, Down: 0, Sleep: 0 },
  children,
});

describe('fleet tree', () => {
  const tree = [node(1, 'Kowloon', null, [node(2, 'Mong Kok', 1, [node(4, 'Langham', 2)]), node(3, 'Sham Shui Po', 1)]), node(5, 'Island', null)];

  it('shows the rows of expanded fleets only, with their depth', () => {
    expect(visibleFleetRows(tree, new Set()).map((row) => row.node.id)).toEqual([1, 5]);
    const rows = visibleFleetRows(tree, new Set([1, 2]));
    expect(rows.map((row) => [row.node.id, row.depth, row.hasChildren])).toEqual([
      [1, 0, true],
      [2, 1, true],
      [4, 2, false],
      [3, 1, false],
      [5, 0, false],
    ]);
  });

  it('finds the ancestors of a fleet (root first)', () => {
    expect(ancestorIds(tree, 4)).toEqual([1, 2]);
    expect(ancestorIds(tree, 5)).toEqual([]);
    expect(ancestorIds(tree, 99)).toBeNull();
  });

  it('never offers a fleet its own subtree or its current parent as a new parent', () => {
    expect(moveTargets(tree, tree[0].children[0]).map((target) => target.id)).toEqual([3, 5]);
    expect(moveTargets(tree, tree[0]).map((target) => target.id)).toEqual([5]);
  });

  it('keeps the selected fleet in the list URL filter, other filters kept, page reset', () => {
    const search = `?filter=${encodeURIComponent(JSON.stringify({ currentSts: 'Down' }))}&page=3&perPage=50`;
    const selected = searchWithFleet(search, 2);
    const params = new URLSearchParams(selected);
    expect(JSON.parse(params.get('filter')!)).toEqual({ currentSts: 'Down', fleetId: [2] });
    expect(params.get('page')).toBe('1');
    expect(params.get('perPage')).toBe('50');
    expect(selectedFleetOf(selected)).toBe(2);
    expect(JSON.parse(new URLSearchParams(searchWithFleet(selected, null)).get('filter')!)).toEqual({ currentSts: 'Down' });
    expect(selectedFleetOf('')).toBeNull();
    expect(selectedFleetOf('?filter=not-json')).toBeNull();
    expect(selectedFleetOf(`?filter=${encodeURIComponent(JSON.stringify({ fleetId: [1, 2] }))}`)).toBeNull();
  });
});

describe('search hits', () => {
  const machineHit: SearchHit = { type: 'machine', id: 7, termNo: 'HK0007', serialNumber: 'SN7', address: 'Nathan Road', termType: 'H30', currentSts: 'Up', matched: 'termNo' };
  const session = (id: number, voucherCode: string | null, userId: string | null = null): SearchHit => ({
    type: 'consumerSession',
    id,
    rvmId: 7,
    termNo: 'HK0007',
    startTime: null,
    payoutMethod: 'receipt',
    totalRefund: 1.2,
    voucherCode,
    userId,
    matched: voucherCode ? 'voucherCode' : 'userId',
  });

  it('opens a machine hit on its machine page and a session hit on its details', () => {
    expect(hitPath(machineHit)).toBe('/installation/rvmpage/7');
    expect(hitPath(session(99, 'RC123'))).toBe('/installation/rvmpage/7/ConsumerSessions/99');
  });

  it('opens a session straight away only for one exact voucher code match (any case)', () => {
    expect(directVoucherHit(' rc0001abcd12 ', [machineHit, session(1, 'RC0001ABCD12')])).toMatchObject({ id: 1 });
    expect(directVoucherHit('RC0001', [session(1, 'RC0001ABCD12')])).toBeNull();
    expect(directVoucherHit('U123', [session(1, null, 'U123'), session(2, null, 'U123')])).toBeNull();
    expect(directVoucherHit('', [session(1, '')])).toBeNull();
  });

  it('groups hits by type', () => {
    const groups = groupHits([session(1, 'A'), machineHit]);
    expect(groups.machines.map((hit) => hit.id)).toEqual([7]);
    expect(groups.sessions.map((hit) => hit.id)).toEqual([1]);
  });
});

describe('ProfileSetting validation', () => {
  const valid = { binEmptyHeight: 120, binFullHeight: 30, binAlmostFull: 80, binAlreadyFull: 95, onTime: '07:00', offTime: '22:00', sts: 'active', fleetId: 1 };

  it('accepts a valid profile', () => {
    expect(validateProfile(valid)).toEqual({});
  });

  it('wants the empty height above the full height', () => {
    expect(validateProfile({ ...valid, binEmptyHeight: 30, binFullHeight: 30 }).binEmptyHeight?.message).toBe('fleet.validation.binEmptyAboveFull');
  });

  it('bounds heights to whole numbers above 10 and below 150, worded as one rule', () => {
    for (const height of [10, 150, 12.5]) expect(validateProfile({ ...valid, binFullHeight: height }).binFullHeight?.message, String(height)).toBe('fleet.validation.binHeight');
    expect(validateProfile({ ...valid, binFullHeight: 11, binEmptyHeight: 149 })).toEqual({});
  });

  it('keeps almost-full at or below already-full', () => {
    expect(validateProfile({ ...valid, binAlmostFull: 96 }).binAlmostFull?.message).toBe('fleet.validation.almostFullNotAboveFull');
    expect(validateProfile({ ...valid, binAlmostFull: 95 })).toEqual({});
  });

  it('wants the off time after the on time (HH:mm)', () => {
    expect(validateProfile({ ...valid, offTime: '07:00' }).offTime?.message).toBe('validation.endAfterStart');
    expect(validateProfile({ ...valid, offTime: '06:59' }).offTime?.message).toBe('validation.endAfterStart');
    expect(validateProfile({ ...valid, offTime: '7pm' }).offTime?.message).toBe('fleet.validation.timeOfDay');
  });

  it('sends only profile fields, empty ones as null', () => {
    expect(profileBody(3, { ...valid, termNo: 'X', note: '', id: 3 })).toEqual({ id: 3, ...valid, note: null });
  });
});

describe('time ranges', () => {
  it('counts presets back from now and round-trips datetime-local values', () => {
    const now = new Date(2026, 4, 10, 12, 30);
    const range = lastDays(7, now);
    expect(range.to).toBe(now);
    expect(now.getTime() - range.from.getTime()).toBe(7 * 86_400_000);
    expect(toLocalInput(now)).toBe('2026-05-10T12:30');
    expect(fromLocalInput('2026-05-10T12:30')?.getTime()).toBe(now.getTime());
    expect(fromLocalInput('')).toBeNull();
  });
});

describe('status chip colours', () => {
  it('colours the machine statuses (Up, Offline, Down, Sleep) and falls back to neutral', () => {
    expect(['Up', 'Offline', 'Down', 'Sleep'].map(statusColor)).toEqual(['success', 'default', 'error', 'info']);
    expect(statusColor('online')).toBe('success');
    expect(statusColor('somethingElse')).toBe('default');
  });
});
