// "Acknowledged only after commit" (docs/machine-protocol.md "Processing and delivery guarantees"): the
// PUBACK arrives when the message's rows are already committed, and a message whose transaction fails
// is not acknowledged, so the machine's client sends it again and it is stored then, once.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { beforeAll, expect, it } from 'vitest';
import { rvm } from '../../server/db/schema/fleet';
import { consumerSession } from '../../server/db/schema/fleetActivity';
import { UP_TOPIC } from '../../server/gateway/protocol';
import { seedSmallFleet } from './fleetHarness';
import { embeddedGateway, provisionMachine } from './gatewayHarness';
import { rowsOf } from '../../server/db/client';
import { describeBackends } from './helpers';

const session = (sessionId: string) =>
  JSON.stringify({
    v: 1,
    id: randomUUID(),
    ts: new Date().toISOString(),
    sessionId,
    startTime: new Date(Date.now() - 60_000).toISOString(),
    endTime: new Date().toISOString(),
    payoutMethod: 'receipt',
    totalRefund: 0.1,
    items: [{ seq: 1, itemType: 'can', refund: 0.1 }],
  });

describeBackends(
  'gateway acknowledgements',
  (server) => {
    let machine: { id: number; serial: string; secret: string };
    const stored = (sessionId: string) => server.db.select().from(consumerSession).where(eq(consumerSession.externalId, sessionId));

    beforeAll(async () => {
      const token = await server.login();
      const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId;
      await seedSmallFleet(server as never, account, { machines: 1, days: 1 });
      const [row] = await server.db.select({ id: rvm.id }).from(rvm).limit(1);
      machine = { id: row.id, ...(await provisionMachine(server.db, row.id)) };
    });

    it('acknowledges a message only once its rows are committed: they are there the moment the PUBACK arrives', async () => {
      const client = await mqtt.connectAsync(server.app.services.gateway.machineUrl!, {
        clientId: machine.serial,
        username: machine.serial,
        password: machine.secret,
        reconnectPeriod: 0,
      });
      try {
        for (let index = 0; index < 5; index++) {
          const sessionId = `ACK-${randomUUID()}`;
          await client.publishAsync(UP_TOPIC(machine.serial, 'session'), session(sessionId), { qos: 1 });
          expect(await stored(sessionId), `session ${index}`).toHaveLength(1);
        }
      } finally {
        await client.endAsync(true);
      }
    });

    it('does not acknowledge a message whose transaction failed; the client sends it again and it is stored once', async () => {
      const sessionId = `FAIL-${randomUUID()}`;
      // The first insert of this session fails inside the transaction (not a data error: the database "failed").
      // A sequence counts the attempts: unlike a row, nextval survives the rollback of the failed one. The
      // first delivery is tried twice (the batch, then message by message with savepoints): both fail.
      for (const statement of [
        'create sequence ack_test_attempts',
        `create function ack_test_fail_once() returns trigger language plpgsql as $$
        begin
          if new.external_id = '${sessionId}' then
            if nextval('ack_test_attempts') <= 2 then
              raise exception 'simulated failure' using errcode = 'XX000';
            end if;
          end if;
          return new;
        end $$`,
        'create trigger ack_test_fail_once before insert on consumer_session for each row execute function ack_test_fail_once()',
      ])
        await server.db.execute(sql.raw(statement));
      const client = mqtt.connect(server.app.services.gateway.machineUrl!, {
        clientId: machine.serial,
        username: machine.serial,
        password: machine.secret,
        reconnectPeriod: 200,
        clean: true,
      });
      let disconnects = 0;
      client.on('close', () => disconnects++);
      try {
        await new Promise<void>((resolve) => client.once('connect', () => resolve()));
        // Resolves only on a PUBACK: after the failed attempt the broker closed the connection without one,
        // and mqtt.js sent the message again after reconnecting.
        await client.publishAsync(UP_TOPIC(machine.serial, 'session'), session(sessionId), { qos: 1 });
        expect(disconnects).toBeGreaterThanOrEqual(1);
        expect(await stored(sessionId)).toHaveLength(1);
        expect(rowsOf<{ attempts: number }>(await server.db.execute(sql`select last_value::int as attempts from ack_test_attempts`))[0].attempts).toBe(3);
      } finally {
        client.end(true);
        for (const statement of ['drop trigger ack_test_fail_once on consumer_session', 'drop function ack_test_fail_once()', 'drop sequence ack_test_attempts']) {
          await server.db.execute(sql.raw(statement));
        }
      }
    });
  },
  { gateway: embeddedGateway() },
);
