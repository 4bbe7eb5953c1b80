// The worker-thread end of a ThreadClient: runs each request through a handler and answers it
// exactly once (result or error); an in-flight request can be cancelled by id; `emit` sends events
// the main thread did not ask for.
import { parentPort, workerData } from 'node:worker_threads';
import { OpenClawError } from '../../errors/index.ts';
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
      handler.handle(op, (msg as { args: unknown }).args, ctx).catch((err: unknown) => send({ id, type: 'error', error: serializeError(err, label) }));
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
