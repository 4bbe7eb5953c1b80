// Prompt shutdown of the gateway: once closing, new requests get a 503 in OpenAI's shape; answers
// in flight get up to `server.shutdown_grace_s` to finish, and those still running then are
// aborted — a stream ends with an error event and `[DONE]`, a plain request gets the 503 — so the
// process exits within the grace period whatever the upstream or the client does.
import type { ServerResponse } from 'node:http';
import { OpenClawError } from '../errors/index.ts';

/** The error of a request refused or cut because the server is shutting down. */
export function shuttingDownError(): OpenClawError {
  return new OpenClawError('internal', 'The server is shutting down; retry the request (it was not recorded).', {
    status: 503,
    code: 'server_shutting_down',
  });
}

/** How a drain ended: answers that finished within the grace period, and those cut. */
export interface DrainResult {
  finished: number;
  cut: number;
}

/** Cut answers get this long to write their error and end before connections are closed. */
const CUT_SETTLE_MS = 500;

/** Tracks the requests whose answers are in flight, so shutdown can wait for them or cut them. */
export class ShutdownGate {
  private closingNow = false;
  private readonly running = new Set<AbortController>();
  private emptyWaiters: Array<() => void> = [];
  private ended = 0;

  /** True once `drain` began: new requests are refused. */
  get closing(): boolean {
    return this.closingNow;
  }

  /** Registers a request's abort controller; call the returned function when its answer ended. */
  enter(ac: AbortController): () => void {
    this.running.add(ac);
    return () => {
      if (!this.running.delete(ac)) return;
      this.ended++;
      if (this.running.size === 0) for (const w of this.emptyWaiters.splice(0)) w();
    };
  }

  private whenEmpty(ms: number): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.emptyWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Refuses new requests, waits up to `graceMs` for those in flight, then aborts the rest. */
  async drain(graceMs: number): Promise<DrainResult> {
    this.closingNow = true;
    const endedBefore = this.ended;
    await this.whenEmpty(graceMs);
    const cut = this.running.size;
    const error = shuttingDownError();
    for (const ac of this.running) ac.abort(error);
    await this.whenEmpty(CUT_SETTLE_MS);
    return { finished: this.ended - endedBefore - cut, cut };
  }
}

/**
 * Back-pressure: resolves once `res` can take more (its buffer drained), or it closed, or
 * `signal` aborted. Callers stop reading the upstream meanwhile, so a client that does not read
 * holds the upstream instead of filling our memory.
 */
export function writable(res: ServerResponse, signal: AbortSignal): Promise<void> {
  if (!res.writableNeedDrain || res.destroyed || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
    signal.addEventListener('abort', done);
  });
}
