// Entry point of a WorkerEngine thread (started through worker_boot.mjs). `workerData.role` picks
// the job: 'serving' (generate/score/swap) or 'training' (train/publish/save). Each request is
// answered exactly once; an in-flight request can be cancelled by id.

import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { OpenClawError } from '../../errors/index.ts';
import { serializeError, type WorkerReply, type WorkerRequest, type WorkerRole } from './worker_protocol.ts';
import { ServingHandler, type WorkerHandler } from './worker_serving.ts';
import { TrainingHandler } from './worker_training.ts';

const port = parentPort;
if (port === null) throw new Error('worker.ts must run in a worker thread');
const { role, nice } = workerData as { role: WorkerRole; nice?: number };

/**
 * Lowers this thread's CPU priority by `by` nice steps below the process's. On Linux `nice` is per
 * thread, so when cores are scarce the serving thread (and the gateway) win the CPU over a
 * training step; elsewhere this is a no-op.
 */
function lowerThreadPriority(by: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + by));
  } catch {
    // No /proc/thread-self (not Linux) or not permitted: run at normal priority.
  }
}
if (nice !== undefined && nice > 0) lowerThreadPriority(nice);

const handler: WorkerHandler = role === 'serving' ? new ServingHandler() : new TrainingHandler();
const running = new Map<number, AbortController>();

const send = (reply: WorkerReply, transfer?: ArrayBuffer[]) => port.postMessage(reply, transfer);

port.on('message', (msg: WorkerRequest) => {
  if (msg.op === 'cancel') {
    const target = (msg as { target: number }).target;
    running.get(target)?.abort(new OpenClawError('invalid_request', 'generation cancelled by the caller'));
    return;
  }
  const { id, op } = msg;
  const abort = new AbortController();
  running.set(id, abort);
  const ctx = { signal: abort.signal, token: (tokenId: number, logprob: number) => send({ id, type: 'token', tokenId, logprob }) };
  handler
    .handle(op, (msg as { args: unknown }).args, ctx)
    .then((reply) => send({ id, type: 'result', result: reply.result }, reply.transfer))
    .catch((err: unknown) => send({ id, type: 'error', error: serializeError(err) }))
    .finally(() => running.delete(id));
});
