// The worker-thread end of a ThreadClient: runs each request through a handler and answers it
// exactly once (result or error); an in-flight request can be cancelled by id; `emit` sends events
// the main thread did not ask for.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { OpenClawError } from '../errors/index.ts';
import { ONE_WAY, serializeError, type ThreadReply, type ThreadRequest } from './protocol.ts';

/** What a handler gives back: the result and the buffers to transfer with it. */
export interface HandlerReply {
  result: unknown;
  transfer?: ArrayBuffer[];
}

/** Per-request context: the abort signal and where streamed partial values go. */
export interface HandlerContext {
  signal: AbortSignal;
  partial(value: unknown): void;
}

/** One worker's operations by name. */
export interface ThreadHandler {
  handle(op: string, args: unknown, ctx: HandlerContext): Promise<HandlerReply>;
}

/** The `args` the ThreadClient passed to this thread. */
export function threadArgs<T>(): T {
  return (workerData as { args: T }).args;
}

/**
 * Lowers this thread's CPU priority by `by` nice steps below the process's. On Linux `nice` is per
 * thread, so when cores are scarce the main thread (the gateway) wins the CPU over background
 * work (a training step, scoring); elsewhere this is a no-op.
 */
export function lowerThreadPriority(by: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + by));
  } catch {
    // No /proc/thread-self (not Linux) or not permitted: run at normal priority.
  }
}

/** Sends an event to the main thread. */
export function emit(event: unknown): void {
  parentPort?.postMessage({ type: 'event', event } satisfies ThreadReply);
}

/** Serves requests from the main thread with `handler`; `label` prefixes unexpected errors. */
export function serveThread(handler: ThreadHandler, label: string): void {
  const port = parentPort;
  if (port === null) throw new Error(`${label} must run in a worker thread`);
  const running = new Map<number, AbortController>();
  const send = (reply: ThreadReply, transfer?: ArrayBuffer[]) => port.postMessage(reply, transfer);
  port.on('message', (msg: ThreadRequest) => {
    if (msg.op === 'cancel') {
      const target = (msg as { target: number }).target;
      running.get(target)?.abort(new OpenClawError('invalid_request', 'request cancelled by the caller'));
      return;
    }
    const { id, op } = msg;
    if (id === ONE_WAY) {
      const ctx: HandlerContext = { signal: new AbortController().signal, partial: () => undefined };
      handler
        .handle(op, (msg as { args: unknown }).args, ctx)
        .catch((err: unknown) => send({ id, type: 'error', error: serializeError(err, label) }));
      return;
    }
    const abort = new AbortController();
    running.set(id, abort);
    const ctx: HandlerContext = { signal: abort.signal, partial: (value) => send({ id, type: 'partial', value }) };
    handler
      .handle(op, (msg as { args: unknown }).args, ctx)
      .then((reply) => send({ id, type: 'result', result: reply.result }, reply.transfer))
      .catch((err: unknown) => send({ id, type: 'error', error: serializeError(err, label) }))
      .finally(() => running.delete(id));
  });
}
