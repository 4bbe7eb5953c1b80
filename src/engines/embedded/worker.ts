// Entry point of a WorkerEngine thread (a threads/ ThreadClient). The `role` argument picks
// the job: 'serving' (generate/score/swap) or 'training' (train/publish/save). Each request is
// answered exactly once; an in-flight request can be cancelled by id.

import { lowerThreadPriority, serveThread, threadArgs } from '../../threads/host.ts';
import type { WorkerRole } from './worker-protocol.ts';
import { ServingHandler } from './worker-serving.ts';
import { TrainingHandler } from './worker-training.ts';

const { role, nice } = threadArgs<{ role: WorkerRole; nice?: number }>();

if (nice !== undefined && nice > 0) lowerThreadPriority(nice);

serveThread(role === 'serving' ? new ServingHandler() : new TrainingHandler(), 'embedded engine worker');
