// Simulated time for one virtual machine: waits shrink by the speed factor, the simulated clock
// (what the usage curves and opening hours read) runs that much faster from a common epoch, every
// pending timer is dropped at stop, and random arrivals follow a rate that changes with the time of
// day. Timestamps in messages stay real: the server must accept them.
import type { Random } from '../seed/random';

const MAX_TIMEOUT = 2_147_483_647;
const HOUR = 3_600_000;

export class SimClock {
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;

  constructor(
    readonly speed: number,
    private readonly random: Random,
    /** Real time at which simulated time started (the fleet's machines share it). */
    private readonly epoch = Date.now(),
  ) {}

  /** The simulated time: the hour of day a machine lives in (equals real time at speed 1). */
  now() {
    return this.epoch + (Date.now() - this.epoch) * this.speed;
  }

  start() {
    this.running = true;
  }

  stop() {
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Runs `action` after `simulated` ms of simulated time (nothing once stopped). */
  after(simulated: number, action: () => void) {
    if (!this.running) return;
    const real = simulated / this.speed;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        // setTimeout cannot wait longer than ~24.8 days: chain the rest.
        if (real > MAX_TIMEOUT) this.after(simulated - MAX_TIMEOUT * this.speed, action);
        else if (this.running) action();
      },
      Math.min(MAX_TIMEOUT, Math.max(0, real)),
    );
    this.timers.add(timer);
  }

  every(period: number, action: () => void) {
    this.after(period, () => {
      action();
      this.every(period, action);
    });
  }

  /** Poisson arrivals: an exponential wait at the rate of the moment, re-read at least every simulated hour. */
  arrivals(perHour: () => number, action: () => void) {
    const rate = perHour();
    const wait = rate > 0 ? this.random.exponential(HOUR / rate) : Infinity;
    if (wait > HOUR) this.after(HOUR, () => this.arrivals(perHour, action));
    else {
      this.after(wait, () => {
        action();
        this.arrivals(perHour, action);
      });
    }
  }
}
