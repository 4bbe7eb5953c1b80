// Entry point of a WorkerEngine thread (a util/thread ThreadClient). the `role` argument picks
// the job: 'serving' (generate/score/swap) or 'training' (train/publish/save). Each request is
// answered exactly once; an in-flight request can be cancelled by id.

import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { serveThread, threadArgs } from '../../util/thread/host.ts';
import type { WorkerRole } from './worker_protocol.ts';
import { ServingHandler } from './worker_serving.ts';
import { TrainingHandler } from './worker_training.ts';

const { role, nice } = threadArgs<{ role: WorkerRole; nice?: number }>();

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

serveThread(role === 'serving' ? new ServingHandler() : new TrainingHandler(), 'embedded engine worker');
