// The main-thread end of one WorkerEngine thread: a threads/ ThreadClient that starts
// worker.ts in the given role and names the engine in its errors.
import { ThreadClient } from '../../threads/client.ts';
import type { WorkerRole } from './worker-protocol.ts';

// Run the TypeScript entry from a clone, the compiled one from a build.
const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);

/** One worker thread of a WorkerEngine. */
export class WorkerClient extends ThreadClient {
  /** `nice` > 0 lowers the thread's CPU priority (Linux). */
  constructor(
    readonly role: WorkerRole,
    nice = 0,
  ) {
    super({
      entry: ENTRY,
      args: { role, nice },
      label: `the embedded engine's ${role} worker`,
      remedy: 'restart openclaw-rl (the last checkpoint has the trained weights)',
    });
  }
}
