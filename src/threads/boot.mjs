// Bootstrap of a worker thread (ThreadClient). Node 20 does not apply the parent's module hooks (tsx) to
// worker threads, and `--import tsx` in a worker's execArgv does not cover its entry module, so a
// worker running from a clone registers tsx itself before importing the TypeScript entry.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
