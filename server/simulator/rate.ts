// The fleet's publish budget: a token bucket shared by all virtual machines, so a large fleet at a
// high speed factor cannot flood the broker. Waiters are served in order (a machine's messages keep
// their order); heartbeats are dropped instead of queued when a second's worth is already waiting,
// since the next one says the same.

export class PublishGate {
  private tokens: number;
  private last = Date.now();
  private readonly queue: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private unlimited = false;

  constructor(private readonly perSecond: number) {
    this.tokens = perSecond;
  }

  get waiting() {
    return this.queue.length;
  }

  private refill() {
    const now = Date.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) * this.perSecond) / 1000);
    this.last = now;
  }

  /** Resolves true when the message may go, false when it should be dropped. */
  take = (kind: string): Promise<boolean> => {
    if (this.unlimited) return Promise.resolve(true);
    this.refill();
    if (this.queue.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve(true);
    }
    if (kind === 'heartbeat' && this.queue.length >= this.perSecond) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.queue.push(() => resolve(true));
      this.drain();
    });
  };

  private drain() {
    if (this.timer) return;
    this.refill();
    while (this.queue.length && this.tokens >= 1) {
      this.tokens -= 1;
      this.queue.shift()!();
    }
    if (this.queue.length) {
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.drain();
        },
        Math.max(1, Math.ceil(1000 / this.perSecond)),
      );
    }
  }

  /** Lets every waiter go (shutdown: the goodbyes must not wait behind a backlog). */
  release() {
    this.unlimited = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const waiter of this.queue.splice(0)) waiter();
  }
}
