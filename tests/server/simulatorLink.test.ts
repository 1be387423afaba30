// A machine's connection (server/simulator/link.ts) ends with its goodbye: a message that was waiting for the
// fleet's publish budget when the goodbye began is dropped, not sent after it. Sent after it, it reached the
// server newer than the goodbye and showed the machine online again until the offline time-out (a CI run's
// simulatorApp test saw a machine still online 30 s after the simulation stopped).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MachineLink } from '../../server/simulator/link';
import { startTestBroker, type TestBroker } from './simulatorHarness';
import { waitFor } from './gatewayHarness';

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
});
afterAll(async () => {
  await broker.close();
});

it('drops a message still waiting for the publish budget when the goodbye begins', async () => {
  let releaseHeartbeat: (go: boolean) => void = () => undefined;
  let ids = 0;
  let ready: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (ready = resolve));
  const link = new MachineLink({
    credentials: { serialNumber: 'LINK0001', secret: 'secret', brokerUrl: broker.url },
    nextId: () => `m${++ids}`,
    // the budget holds heartbeats back (until the test lets them go) and lets everything else through
    gate: (kind) => (kind === 'heartbeat' ? new Promise<boolean>((resolve) => (releaseHeartbeat = resolve)) : Promise.resolve(true)),
    handlers: {
      onReady: () => ready(),
      onCommand: () => undefined,
      onDeploy: () => undefined,
      onDeployRefused: () => undefined,
      onError: () => undefined,
      onClosed: () => undefined,
    },
  });
  link.connect();
  await connected;
  expect(await link.publish('status', { status: 'Up' })).not.toBeNull();

  const heartbeat = link.publish('heartbeat');
  const goodbye = link.goodbye('shutdown');
  releaseHeartbeat(true);
  await goodbye;
  expect(await heartbeat).toBeNull();
  await waitFor(
    async () => broker.of('LINK0001').map((message) => message.kind),
    (kinds) => kinds.includes('goodbye'),
    'the goodbye received',
  );
  expect(broker.of('LINK0001').map((message) => message.kind)).toEqual(['status', 'goodbye']);
});
