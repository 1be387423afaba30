// Work done after the answer has gone out, so the answer's time cannot depend on it (forgot-password:
// whether the account exists, whether a mail is written and sent). The work starts once the response
// is finished (or the connection closed); failures are logged. Pending work is tracked per owner
// (the app's services) so closing the app, and tests, can wait for it.
import type { FastifyBaseLogger, FastifyReply } from 'fastify';

const pendingByOwner = new WeakMap<object, Set<Promise<void>>>();

export const afterAnswer = (reply: FastifyReply, owner: object, log: FastifyBaseLogger, work: () => Promise<unknown>) => {
  const pending = pendingByOwner.get(owner) ?? new Set<Promise<void>>();
  pendingByOwner.set(owner, pending);
  const done = new Promise<void>((resolve) => {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      // setImmediate: after the last bytes of the answer were handed over.
      setImmediate(() => {
        work()
          .catch((error: unknown) => log.error({ err: error }, 'work after the answer failed'))
          .finally(resolve);
      });
    };
    if (reply.raw.writableFinished || reply.raw.destroyed) start();
    else {
      reply.raw.once('finish', start);
      reply.raw.once('close', start);
    }
  });
  pending.add(done);
  void done.finally(() => pending.delete(done));
};

/** Resolves when the owner's work started so far (and any it starts meanwhile) is done. */
export const answeredWorkSettled = async (owner: object): Promise<void> => {
  const pending = pendingByOwner.get(owner);
  while (pending?.size) await Promise.all(pending);
};
