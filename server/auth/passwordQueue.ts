// The bound on password hashing in one server instance. One scrypt computation takes 32 MiB and a
// libuv thread for ~0.2 s (N=2^15 r=8 p=3; a hash made before that default, N=2^17, takes 128 MiB until
// it is re-hashed), so unbounded checks let anyone without an account exhaust memory and threads
// (README "Permissions and security"). At most PASSWORD_CHECK_CONCURRENCY computations run at once,
// at most PASSWORD_CHECK_QUEUE wait in line (first come, first served); beyond that a check is refused
// at once (PasswordQueueFull, answered 4029 with Retry-After) instead of piling up. Memory stays
// under concurrency × 128 MiB (× 32 MiB once every hash is current), and libuv keeps threads free for file and DNS work.
import type { FastifyReply } from 'fastify';
import type { ServerConfig } from '../config';
import { AppError } from '../lib/errors';
import type { PasswordHasher } from './passwords';

export class PasswordQueueFull extends Error {
  constructor() {
    super('password-check queue full');
  }
}

export interface PasswordQueue {
  /** Runs `task` when a slot is free; rejects with PasswordQueueFull, without running it, when the line is full. */
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
  /** True when `run` would refuse. */
  readonly full: boolean;
}

export const createPasswordQueue = ({ concurrency, maxWaiting }: { concurrency: number; maxWaiting: number }): PasswordQueue => {
  let active = 0;
  const line: Array<() => void> = [];
  const isFull = () => active >= concurrency && line.length >= maxWaiting;
  const start = async <T>(task: () => Promise<T>): Promise<T> => {
    try {
      return await task();
    } finally {
      const next = line.shift();
      // The slot passes straight to the next in line (active stays the same), or is freed.
      if (next) next();
      else active -= 1;
    }
  };
  return {
    run: <T>(task: () => Promise<T>) => {
      if (active < concurrency) {
        active += 1;
        return start(task);
      }
      if (line.length >= maxWaiting) return Promise.reject(new PasswordQueueFull());
      return new Promise<void>((resolve) => line.push(resolve)).then(() => start(task));
    },
    get active() {
      return active;
    },
    get waiting() {
      return line.length;
    },
    get full() {
      return isFull();
    },
  };
};

/** The hasher's calls, each through the instance's queue. */
export interface PasswordChecks extends PasswordHasher {
  queue: PasswordQueue;
}

const checksByHasher = new WeakMap<PasswordHasher, PasswordChecks>();

/**
 * One queue per app instance (keyed by its hasher, which buildApp creates once per app), shared by
 * every route that hashes or verifies a password on request.
 */
export const passwordChecksOf = ({ hasher, config }: { hasher: PasswordHasher; config: Pick<ServerConfig, 'passwordCheckConcurrency' | 'passwordCheckQueue'> }): PasswordChecks => {
  let checks = checksByHasher.get(hasher);
  if (!checks) {
    const queue = createPasswordQueue({ concurrency: config.passwordCheckConcurrency, maxWaiting: config.passwordCheckQueue });
    // Each call looks the method up when it runs (tests spy on the hasher).
    checks = {
      queue,
      parameters: hasher.parameters,
      // Parsing only: no computation, no slot.
      needsRehash: (stored) => hasher.needsRehash(stored),
      hash: (password) => queue.run(() => hasher.hash(password)),
      verify: (password, stored) => queue.run(() => hasher.verify(password, stored)),
      verifyDummy: (password) => queue.run(() => hasher.verifyDummy(password)),
    };
    checksByHasher.set(hasher, checks);
  }
  return checks;
};

/** Runs a route's password work, answering 4029 (Retry-After: 1) when the instance's queue is full. */
export const boundedPasswordWork = async <T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PasswordQueueFull)) throw error;
    reply.header('Retry-After', '1');
    throw new AppError('4029');
  }
};
