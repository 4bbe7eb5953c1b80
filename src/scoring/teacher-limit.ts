// A small counting semaphore: at most `max` teacher requests in flight, the rest wait in FIFO
// order. Keeps a busy session from flooding the teacher server (and its KV cache).
import { OpenClawError } from '../errors/index.ts';

/** Runs async tasks with at most `max` of them in flight at once. */
export class ConcurrencyLimit {
  readonly max: number;
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) {
      throw new OpenClawError('config', `teacher maxConcurrency must be a whole number ≥ 1, got ${max}`, { param: 'teacher.max_concurrency' });
    }
    this.max = max;
  }

  /** Tasks running now. */
  get inFlight(): number {
    return this.active;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Waits for a slot, runs `task`, and frees the slot however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.max) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    // Hand the slot straight to the next waiter so a newcomer cannot overtake the queue.
    const next = this.queue.shift();
    if (next !== undefined) next();
    else this.active -= 1;
  }
}
