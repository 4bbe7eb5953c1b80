// The main-thread end of one worker thread: numbered requests, streamed tokens, cancellation,
// and failure handling. If the thread dies (an uncaught error, out of memory, terminate()), every
// pending request rejects with an OpenClawError that says so and later requests reject at once:
// callers never hang and the main process never crashes. The thread is unref'd while idle, so a
// forgotten engine never keeps the process alive; it is ref'd while a request is pending.

import { Worker } from 'node:worker_threads';
import { OpenClawError } from '../../errors/index.ts';
import { deserializeError, type WorkerReply, type WorkerRequest, type WorkerRole } from './worker_protocol.ts';

/** Options of one request. */
export interface RequestOptions {
  transfer?: ArrayBuffer[];
  onToken?: (tokenId: number, logprob: number) => void;
  /** Aborting rejects the request with the signal's reason at once and cancels it in the worker. */
  signal?: AbortSignal;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
  onToken?: (tokenId: number, logprob: number) => void;
  cleanup(): void;
}

// Run the TypeScript entry from a clone, the compiled one from a build.
const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url).href;
const BOOT = new URL('./worker_boot.mjs', import.meta.url);

/** One worker thread of a WorkerEngine. */
export class WorkerClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private lastError: Error | null = null;
  private dead: OpenClawError | null = null;
  private readonly exited: Promise<void>;

  /** `nice` > 0 lowers the thread's CPU priority (Linux). */
  constructor(readonly role: WorkerRole, nice = 0) {
    this.worker = new Worker(BOOT, { workerData: { role, entry: ENTRY, nice } });
    this.worker.unref();
    this.worker.on('message', (msg: WorkerReply) => this.onMessage(msg));
    // Without an 'error' listener a worker's uncaught exception would crash the main process.
    this.worker.on('error', (err) => { this.lastError = err; });
    this.worker.on('messageerror', (err) => { this.lastError = err; });
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
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onToken: opts.onToken, cleanup });
      try {
        this.post({ id, op, args }, opts.transfer);
      } catch (err) {
        this.finish(id)?.reject(new OpenClawError('internal', `could not send ${op} to the embedded ${this.role} worker: ${(err as Error).message}`, { cause: err }));
      }
    });
  }

  /** Stops the thread; pending requests reject. Resolves once it has exited. */
  async terminate(reason = 'the embedded engine was closed'): Promise<void> {
    if (this.dead === null) this.dead = new OpenClawError('internal', reason);
    await this.worker.terminate();
    await this.exited;
  }

  private post(msg: WorkerRequest, transfer?: ArrayBuffer[]): void {
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

  private onMessage(msg: WorkerReply): void {
    if (msg.type === 'token') {
      const p = this.pending.get(msg.id);
      if (p?.onToken === undefined) return;
      try {
        p.onToken(msg.tokenId, msg.logprob);
      } catch (err) {
        // The caller's callback failed: stop the generation, as an in-process engine would.
        this.finish(msg.id)?.reject(err);
        this.cancel(msg.id);
      }
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
      this.dead = new OpenClawError('internal', `the embedded engine's ${this.role} worker thread stopped (exit code ${code})${why}; restart openclaw-rl (the last checkpoint has the trained weights)`, { cause: this.lastError ?? undefined });
    }
    for (const id of [...this.pending.keys()]) this.finish(id)?.reject(this.dead);
  }
}
