// A consumer session the machine refused (docs/service-personnel.md#bans): stored once per sessionId like any
// session, so the machine page lists it with its refusal, but with no items and nothing paid, and left out of
// the usage roll-ups (dashboard, reports, the business gate count the consumers a machine served).
import { consumerSession } from '../db/schema/fleetActivity';
import type { Db } from '../db/client';
import type { MessageBodies } from './protocol';

export const refusedSession = async (tx: Db, machine: { id: number; licenseAccountId: number }, message: MessageBodies['session']) => {
  await tx
    .insert(consumerSession)
    .values({
      licenseAccountId: machine.licenseAccountId,
      rvmId: machine.id,
      externalId: message.sessionId,
      startTime: new Date(message.startTime),
      endTime: new Date(message.endTime),
      payoutMethod: message.payoutMethod,
      totalRefund: 0,
      itemCount: 0,
      acceptedCount: 0,
      rejectedCount: 0,
      userId: message.userId ?? null,
      voucherCode: message.voucherCode ?? null,
      cardNo: message.cardNo ?? null,
      refusal: message.refusal ?? null,
    })
    .onConflictDoNothing();
};
