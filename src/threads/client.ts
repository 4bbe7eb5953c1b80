// The main-thread end of one worker thread: numbered requests, streamed partial values, events,
// cancellation and failure handling. If the thread dies (an uncaught error, out of memory,
// terminate()), every pending request rejects with an OpenClawError that says so and later
// requests reject at once: callers never hang and the main process never crashes. The thread is
// unref'd while idle, so a forgotten client never keeps the process alive; it is ref'd while a
// request is pending.
import { Worker } from 'node:worker_threads';
import { OpenClawError } from '../errors/index.ts';
import { deserializeError, ONE_WAY, type ThreadReply, type ThreadRequest } from './protocol.ts';

/** Options of one request. */
export interface RequestOptions {
  transfer?: ArrayBuffer[];
  /** Values the worker streams before its result (e.g. sampled tokens). */
  onPartial?: (value: unknown) => void;
  /** Aborting rejects the request with the signal's reason at once and cancels it in the worker. */
  signal?: AbortSignal;
}

/** How a thread is started and named. */
export interface ThreadOptions {
  /** URL of the entry module (a .ts entry is run through tsx). */
  entry: URL;
  /** Given to the entry as `workerData.args`. */
  args?: unknown;
  /** Names the thread in error messages, e.g. "the embedded engine's serving worker". */
  label: string;
  /** What to tell the user once the thread has stopped. */
  remedy: string;
  /** Events the worker sends on its own. */
  onEvent?: (event: unknown) => void;
  /** Failures of one-way messages (`notify`), which have no caller to reject. */
  onNotifyError?: (err: OpenClawError) => void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
  onPartial?: (value: unknown) => void;
  cleanup(): void;
}

const BOOT = new URL('./boot.mjs', import.meta.url);

/** One worker thread and its requests. */
export class ThreadClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private lastError: Error | null = null;
  private dead: OpenClawError | null = null;
  private readonly exited: Promise<void>;

  constructor(private readonly opts: ThreadOptions) {
    this.worker = new Worker(BOOT, { workerData: { entry: opts.entry.href, args: opts.args } });
    this.worker.unref();
    this.worker.on('message', (msg: ThreadReply) => this.onMessage(msg));
    // Without an 'error' listener a worker's uncaught exception would crash the main process.
    this.worker.on('error', (err) => {
      this.lastError = err;
    });
    this.worker.on('messageerror', (err) => {
      this.lastError = err;
    });
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', (code) => {
        this.onExit(code);
        resolve();
      });
    });
  }

  /** Whether the thread is still running. */
  get alive(): boolean {
    return this.dead === null;
  }

  /** Why the thread stopped, once it has. */
  get failure(): OpenClawError | null {
    return this.dead;
  }

  /** Sends one request; resolves with the worker's result or rejects with its OpenClawError. */
  request<T>(op: string, args: unknown, opts: RequestOptions = {}): Promise<T> {
    if (this.dead !== null) return Promise.reject(this.dead);
    if (opts.signal?.aborted === true) return Promise.reject(opts.signal.reason);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const p = this.finish(id);
        if (p === undefined) return;
        p.reject(opts.signal?.reason);
        this.cancel(id);
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => opts.signal?.removeEventListener('abort', onAbort);
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onPartial: opts.onPartial, cleanup });
      try {
        this.post({ id, op, args }, opts.transfer);
      } catch (err) {
        this.finish(id)?.reject(
          new OpenClawError('internal', `could not send ${op} to ${this.opts.label}: ${(err as Error).message}`, { cause: err }),
        );
      }
    });
  }

  /**
   * Sends a one-way message: no answer, no promise (a failure goes to `onNotifyError`). Returns
   * false when the thread has stopped.
   */
  notify(op: string, args: unknown, transfer?: ArrayBuffer[]): boolean {
    if (this.dead !== null) return false;
    this.post({ id: ONE_WAY, op, args }, transfer);
    return true;
  }

  /** Stops the thread; pending requests reject. Resolves once it has exited. */
  async terminate(reason = `${this.opts.label} was closed`): Promise<void> {
    if (this.dead === null) this.dead = new OpenClawError('internal', reason);
    await this.worker.terminate();
    await this.exited;
  }

  private post(msg: ThreadRequest, transfer?: ArrayBuffer[]): void {
    this.worker.postMessage(msg, transfer);
  }

  private cancel(target: number): void {
    if (this.dead === null) this.post({ id: this.nextId++, op: 'cancel', target });
  }

  private finish(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (p === undefined) return undefined;
    this.pending.delete(id);
    p.cleanup();
    if (this.pending.size === 0) this.worker.unref();
    return p;
  }

  private onMessage(msg: ThreadReply): void {
    if (msg.type === 'event') {
      this.opts.onEvent?.(msg.event);
      return;
    }
    if (msg.type === 'partial') {
      const p = this.pending.get(msg.id);
      if (p?.onPartial === undefined) return;
      try {
        p.onPartial(msg.value);
      } catch (err) {
        // The caller's callback failed: stop the request, as an in-process call would.
        this.finish(msg.id)?.reject(err);
        this.cancel(msg.id);
      }
      return;
    }
    if (msg.id === ONE_WAY) {
      if (msg.type === 'error') this.opts.onNotifyError?.(deserializeError(msg.error));
      return;
    }
    const p = this.finish(msg.id);
    if (p === undefined) return; // cancelled earlier: the late answer has no taker
    if (msg.type === 'result') p.resolve(msg.result);
    else p.reject(deserializeError(msg.error));
  }

  private onExit(code: number): void {
    if (this.dead === null) {
      const why = this.lastError !== null ? `: ${this.lastError.message}` : '';
      this.dead = new OpenClawError('internal', `${this.opts.label} thread stopped (exit code ${code})${why}; ${this.opts.remedy}`, {
        cause: this.lastError ?? undefined,
      });
    }
    for (const id of [...this.pending.keys()]) this.finish(id)?.reject(this.dead);
  }
}
