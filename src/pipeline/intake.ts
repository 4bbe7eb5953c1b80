// The intake queue of the scoring stage: finalised turns and session ends wait here, in order,
// until the server drains them between requests (so storing and judging never sit between a
// request and its answer); a timer drains them anyway after `delayMs`. Used by the pipeline on
// its own thread (each drain is one group commit of the store) and by ScoringThread (each drain
// is one message to the worker).
import type { Turn } from '../sessions/index.ts';

/** What the intake carries: a finalised main turn, or the end of a session (behind its turns). */
export type QueuedItem = Turn | { closed: string };

/** A FIFO of items with a drain deadline; `take` empties it. */
export class IntakeQueue<T> {
  private items: T[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** `drain` is called by the timer `delayMs` after the first item queued since the last `take`. */
  constructor(
    private readonly delayMs: number,
    private readonly drain: () => void,
  ) {}

  push(item: T): void {
    this.items.push(item);
    this.timer ??= setTimeout(() => this.drain(), this.delayMs);
  }

  /** The queued items in order, leaving the queue empty and its timer stopped. */
  take(): T[] {
    clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.items;
    this.items = [];
    return items;
  }

  get size(): number {
    return this.items.length;
  }
}
