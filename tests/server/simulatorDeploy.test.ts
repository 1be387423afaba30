// The simulator's machine side of deployments (docs/deployments.md, "Protocol" and "Simulator") against
// a real MQTT broker (aedes, no access rules) and a package server written from the doc
// (packageServer.ts): a machine downloads with Basic authentication, resumes a cut download with a
// Range request, checks size and SHA-256, applies at the activation time on its clock, reports every
// status and its new version; each failure mode at rate 1 gives its reported state; a bad package
// makes the machine reject more and serve fewer consumers. Every wait is for a condition.
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { schemaProblem } from '../../server/gateway/protocol';
import { APPLY_FAILURE_REASONS, BAD_PACKAGE_EFFECT, DEMO_DEPLOY_FAULTS } from '../../server/simulator/deploy';
import { deploySimulationFromEnv } from '../../server/simulator/deploySettings';
import { VirtualMachine, type VirtualMachineOptions } from '../../server/simulator/machine';
import { startPackageServer, testPackage, type PackageServer, type TestPackage } from './packageServer';
import { protocolProblems, startTestBroker, type TestBroker } from './simulatorHarness';

const WAIT = { timeout: 20_000, interval: 20 };

let broker: TestBroker;
let packages: PackageServer;
let publisher: MqttClient;
const machines: VirtualMachine[] = [];
let deployIds = 500;

beforeAll(async () => {
  broker = await startTestBroker();
  packages = await startPackageServer();
  publisher = await mqtt.connectAsync(broker.url, { clientId: 'test-deployer', reconnectPeriod: 0 });
});

afterAll(async () => {
  await Promise.all(machines.map((machine) => machine.stop()));
  await publisher?.endAsync();
  await packages?.close();
  await broker?.close();
});

const machine = async (serial: string, options: Partial<VirtualMachineOptions> = {}) => {
  const virtual = new VirtualMachine({
    profile: { serialNumber: serial, termType: 'T9', binCount: 3, onTime: '00:00', offTime: '23:59', softwareVersion: '5.1.0', sessionsPerDay: 40 },
    credentials: { serialNumber: serial, secret: `secret-of-${serial}`, brokerUrl: broker.url },
    seed: 'deploy-test',
    speed: 1000,
    failureRate: 0,
    autopilot: false,
    ...options,
  });
  machines.push(virtual);
  virtual.start();
  await vi.waitFor(() => expect(broker.of(serial, 'bins').length).toBeGreaterThan(0), WAIT);
  return virtual;
};

interface Deploy {
  deployId: number;
  pkg: TestPackage;
  resourceType?: string;
  name?: string;
  version?: string;
  activateAt?: string | null;
  /** What the server says about the bytes, when it should differ from the package. */
  size?: number;
  /** The secret the package server takes, when it should differ from the machine's. */
  servedSecret?: string;
}

/** Serves the package to this machine only and publishes the deploy message on its topic. */
const deploy = async (target: VirtualMachine, { deployId, pkg, resourceType = 'software', name = 'core', version = '6.0.0', activateAt = null, size, servedSecret }: Deploy) => {
  packages.serve({ deployId, serialNumber: target.serialNumber, secret: servedSecret ?? target.secret, pkg });
  const message = {
    v: 1,
    deployId,
    resourceType,
    name,
    version,
    url: packages.url(deployId),
    size: size ?? pkg.bytes.length,
    sha256: pkg.sha256,
    activateAt,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  };
  await publisher.publishAsync(`rvm/${target.serialNumber}/down/deploy`, JSON.stringify(message), { qos: 1 });
};

const statuses = (serial: string, deployId: number) => broker.of(serial, 'deployStatus').filter((m) => m.payload.deployId === deployId);
const states = (serial: string, deployId: number) => statuses(serial, deployId).map((m) => m.payload.state);
const finalState = async (serial: string, deployId: number, state: string) => {
  await vi.waitFor(() => expect(states(serial, deployId)).toContain(state), WAIT);
  return statuses(serial, deployId).find((m) => m.payload.state === state)!.payload;
};
/** What the machine reported follows the doc, and the gateway's own schema (server/gateway/protocol.ts) takes it. */
const expectProtocol = (serial: string) => {
  const reports = broker.of(serial, 'deployStatus');
  expect(reports.flatMap((m) => protocolProblems(m.kind, m.payload))).toEqual([]);
  expect(reports.map((m) => schemaProblem('deployStatus', m.payload)).filter(Boolean)).toEqual([]);
};

describe('a simulated machine takes a deployment', () => {
  it('downloads with its credentials, resumes a cut download by Range, applies at the activation time, reports its new version', async () => {
    // speed 100: the activation 5 simulated minutes ahead is 3 real seconds away
    const target = await machine('SIMDEP01', { speed: 100, deployFaults: { broken: 1 } });
    const deployId = ++deployIds;
    const pkg = testPackage(1_500_000);
    const activateAt = new Date(target.simulatedNow() + 5 * 60_000).toISOString();
    const published = Date.now();
    await deploy(target, { deployId, pkg, version: '6.0.0', activateAt });

    const applied = await finalState('SIMDEP01', deployId, 'applied');
    expect(applied.version).toBe('6.0.0');
    expect(states('SIMDEP01', deployId)).toEqual(['received', 'applying', 'applied']);
    const applying = statuses('SIMDEP01', deployId)[1];
    expect(Date.parse(applying.payload.ts) - published).toBeGreaterThanOrEqual(2_500);

    // the first request was cut part-way (by the machine); the second asked for the rest only
    const requests = packages.requests.filter((request) => request.deployId === deployId);
    expect(requests.map((request) => request.user)).toEqual(['SIMDEP01', 'SIMDEP01']);
    expect(requests[0]).toMatchObject({ range: null, status: 200 });
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(requests[1].range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThan(pkg.bytes.length);
    expect(requests[1]).toMatchObject({ status: 206, completed: true, sent: pkg.bytes.length - resumedAt, ifRange: `"${pkg.sha256}"` });
    expect(target.stats.downloadResumes).toBe(1);
    // downloaded long before the activation time, applied at it
    expect(target.installed.software).toBe('6.0.0');

    // the same deployId again (a redelivery) changes nothing
    await deploy(target, { deployId, pkg });
    await vi.waitFor(() => expect(target.stats.deploysReceived).toBe(2), WAIT);
    expect(states('SIMDEP01', deployId)).toEqual(['received', 'applying', 'applied']);

    // the next hello says the new version
    broker.kick('SIMDEP01');
    await vi.waitFor(() => expect(broker.of('SIMDEP01', 'hello')).toHaveLength(2), WAIT);
    expect(broker.of('SIMDEP01', 'hello').map((m) => m.payload.softwareVersion)).toEqual(['5.1.0', '6.0.0']);
    expectProtocol('SIMDEP01');
  });

  it('keeps the version of another resource type apart from its software version', async () => {
    const target = await machine('SIMDEP02');
    const deployId = ++deployIds;
    // a type the simulator only stores (promotion, configuration and roster packages it reads, and a random package fails there)
    await deploy(target, { deployId, pkg: testPackage(20_000), resourceType: 'voice', name: 'greetings', version: 'voice-7' });
    expect((await finalState('SIMDEP02', deployId, 'applied')).version).toBe('voice-7');
    expect(target.installed.versions.get('voice')).toBe('voice-7');
    expect(target.installed.software).toBe('5.1.0');
    expect(packages.requests.filter((request) => request.deployId === deployId).map((request) => request.range)).toEqual([null]);
  });
});

describe('failure modes', () => {
  it('checksum mismatch at rate 1: received, then checksumFailed with the reason; nothing applied', async () => {
    const target = await machine('SIMDEPCS', { deployFaults: { checksum: 1 } });
    const deployId = ++deployIds;
    await deploy(target, { deployId, pkg: testPackage(200_000) });
    const failed = await finalState('SIMDEPCS', deployId, 'checksumFailed');
    expect(failed.reason).toMatch(/SHA-256 [0-9a-f]{64} does not match/);
    expect(states('SIMDEPCS', deployId)).toEqual(['received', 'checksumFailed']);
    expect(target.installed.software).toBe('5.1.0');
    expectProtocol('SIMDEPCS');
  });

  it('a size other than announced is a checksum failure too', async () => {
    const target = await machine('SIMDEPSZ');
    const deployId = ++deployIds;
    await deploy(target, { deployId, pkg: testPackage(50_000), size: 60_000 });
    expect((await finalState('SIMDEPSZ', deployId, 'checksumFailed')).reason).toBe('size 50000 bytes, announced 60000');
  });

  it('apply failure at rate 1: received, applying, failed with a reason; the version stays; sent again, it is tried again', async () => {
    const target = await machine('SIMDEPAF', { deployFaults: { applyFailure: 1 } });
    const deployId = ++deployIds;
    await deploy(target, { deployId, pkg: testPackage(30_000) });
    const failed = await finalState('SIMDEPAF', deployId, 'failed');
    expect(APPLY_FAILURE_REASONS).toContain(failed.reason);
    expect(states('SIMDEPAF', deployId)).toEqual(['received', 'applying', 'failed']);
    expect(target.installed.software).toBe('5.1.0');
    // the operator's "retry failed" sends the same delivery again: a failed one is taken again, not ignored
    await deploy(target, { deployId, pkg: testPackage(30_000) });
    await vi.waitFor(() => expect(states('SIMDEPAF', deployId)).toEqual(['received', 'applying', 'failed', 'received', 'applying', 'failed']), WAIT);
    expectProtocol('SIMDEPAF');
  });

  it('no answer at rate 1: the machine gets the delivery and never says a word about it, nor downloads', async () => {
    const target = await machine('SIMDEPNA', { deployFaults: { silent: 1 } });
    const deployId = ++deployIds;
    await deploy(target, { deployId, pkg: testPackage(30_000) });
    await vi.waitFor(() => expect(target.stats.deploysReceived).toBe(1), WAIT);
    // a later message goes out after anything the delivery could have caused at receipt
    await target.runSession();
    await vi.waitFor(() => expect(broker.of('SIMDEPNA', 'session')).toHaveLength(1), WAIT);
    expect(broker.of('SIMDEPNA', 'deployStatus')).toEqual([]);
    expect(packages.requests.filter((request) => request.deployId === deployId)).toEqual([]);
  });

  it("a refused download (credentials the server does not take) reports downloadFailed with the server's answer", async () => {
    const target = await machine('SIMDEPDF');
    const deployId = ++deployIds;
    // the server expects another secret (as after a rotation)
    await deploy(target, { deployId, pkg: testPackage(30_000), servedSecret: 'rotated' });
    const failed = await finalState('SIMDEPDF', deployId, 'downloadFailed');
    expect(failed.reason).toBe('HTTP 401: 401 Wrong credentials');
    expect(states('SIMDEPDF', deployId)).toEqual(['received', 'downloadFailed']);
    expect(packages.requests.filter((request) => request.deployId === deployId).map((request) => request.status)).toEqual([401]);
    expectProtocol('SIMDEPDF');
  });
});

describe('a bad package', () => {
  const rejectedAsLowConfidence = async (target: VirtualMachine, sessions: number) => {
    for (const bin of target.bins) bin.count = 0; // no "bin full" rejects in the way
    let items = 0;
    let lowConfidence = 0;
    for (let i = 0; i < sessions; i++) {
      const message = await target.runSession();
      for (const item of (message?.items ?? []) as Array<{ rejectReason?: number }>) {
        items++;
        if (item.rejectReason === 4) lowConfidence++;
      }
    }
    return lowConfidence / items;
  };

  it('(version ending in -bad, or a name listed as bad) makes the machine reject many more items and serve fewer consumers', async () => {
    const epoch = Date.now();
    const good = await machine('SIMBAD01', { epoch });
    const badVersion = await machine('SIMBAD02', { epoch });
    const badName = await machine('SIMBAD03', { epoch, badPackages: ['recogniser-x'] });
    const pkg = testPackage(10_000);
    const ids = [++deployIds, ++deployIds, ++deployIds];
    await deploy(good, { deployId: ids[0], pkg, resourceType: 'ai', name: 'recogniser', version: '3.1' });
    await deploy(badVersion, { deployId: ids[1], pkg, resourceType: 'ai', name: 'recogniser', version: '3.1-bad' });
    await deploy(badName, { deployId: ids[2], pkg, resourceType: 'ai', name: 'recogniser-x', version: '3.2' });
    await finalState('SIMBAD01', ids[0], 'applied');
    await finalState('SIMBAD02', ids[1], 'applied');
    await finalState('SIMBAD03', ids[2], 'applied');
    expect([good, badVersion, badName].map((m) => m.installed.degraded)).toEqual([false, true, true]);

    const goodShare = await rejectedAsLowConfidence(good, 40);
    const badShare = await rejectedAsLowConfidence(badVersion, 40);
    expect(await rejectedAsLowConfidence(badName, 40)).toBeGreaterThan(goodShare + 0.2);
    expect(badShare).toBeGreaterThan(goodShare + 0.2);
    expect(badShare).toBeGreaterThan(0.25);
    // same sessions per day and clock: the degraded machine expects fewer consumers
    expect(badVersion.sessionsPerHourNow() / good.sessionsPerHourNow()).toBeCloseTo(BAD_PACKAGE_EFFECT.sessionsFactor, 5);

    // a good package of the same type puts it right
    const fix = ++deployIds;
    await deploy(badVersion, { deployId: fix, pkg, resourceType: 'ai', name: 'recogniser', version: '3.3' });
    await finalState('SIMBAD02', fix, 'applied');
    expect(badVersion.installed.degraded).toBe(false);
    expect(await rejectedAsLowConfidence(badVersion, 40)).toBeLessThan(goodShare + 0.15);
  });
});

describe('settings', () => {
  it('default to small failure rates for the demo, read SIMULATE_* and refuse a rate outside 0-1', () => {
    const defaults = deploySimulationFromEnv({});
    expect(defaults).toEqual({ deployFaults: DEMO_DEPLOY_FAULTS, badPackages: [] });
    expect(Object.values(defaults.deployFaults).every((rate) => rate > 0 && rate < 0.1)).toBe(true);
    expect(deploySimulationFromEnv({ SIMULATE_DEPLOY_BROKEN: '0', SIMULATE_DEPLOY_SILENT: '1', SIMULATE_BAD_PACKAGES: 'core-x, ai-y ,' })).toEqual({
      deployFaults: { ...DEMO_DEPLOY_FAULTS, broken: 0, silent: 1 },
      badPackages: ['core-x', 'ai-y'],
    });
    expect(() => deploySimulationFromEnv({ SIMULATE_DEPLOY_CHECKSUM: '1.5' })).toThrow(/SIMULATE_DEPLOY_CHECKSUM must be a number between 0 and 1/);
  });
});
