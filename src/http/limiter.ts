// A counting semaphore: at most `max` tasks run at once, the rest wait in FIFO order. Used
// wherever a burst must not flood a server: turns being judged and judge-model calls
// (scoring.judge_concurrency), teacher requests (teacher.max_concurrency).
import { OpenClawError } from '../errors/index.ts';

/** Runs async tasks with at most `max` of them in flight. */
export class Limiter {
  readonly max: number;
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(max: number, setting: string) {
    if (!Number.isInteger(max) || max < 1)
      throw new OpenClawError('config', `${setting} must be a whole number ≥ 1, got ${max}`, { param: setting });
    this.max = max;
  }

  /** Tasks running now. */
  get running(): number {
    return this.active;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Waits for a slot, runs `task`, frees the slot however it ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.max) this.active++;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter so a newcomer cannot overtake the queue.
      const next = this.queue.shift();
      if (next !== undefined) next();
      else this.active--;
    }
  }
}
