// Waiting for the signal that ends a serving command (`api-server`, `train`, `demo
// --keep-serving`, `engine serve`), and the backstop that bounds the shutdown that follows.
import { Worker } from 'node:worker_threads';

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Resolves with the first SIGINT or SIGTERM. Only the first is caught: a second one while the
 * server is shutting down gets Node's default action and ends the process at once (Ctrl-C twice).
 */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const s of STOP_SIGNALS) process.off(s, stop);
      resolve(signal);
    };
    for (const s of STOP_SIGNALS) process.on(s, stop);
  });
}

// The watchdog's own thread: a timer there fires whatever the main thread is doing, and SIGKILL
// cannot be caught, delayed or blocked. Plain CommonJS (no tsx): it must boot in milliseconds.
const WATCHDOG_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { writeSync } = require('node:fs');
let timer;
parentPort.on('message', ({ ms, message }) => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    try { writeSync(2, message); } catch {}
    process.kill(process.pid, 'SIGKILL');
  }, ms);
});
`;

/**
 * The bound on a shutdown: once armed, the process is killed (SIGKILL) if it still runs `ms`
 * later, so a stuck close never turns a container stop into a hang.
 *
 * Why not a timer and `process.exit`: on the main thread a timer never fires while that thread
 * is busy (a synchronous loop), and `process.exit` first joins every worker thread — a worker
 * stuck in native code never joins (issue 24: the embedded engine's worker was looping in Node's
 * recursive mkdir after its run folder was removed, and the old backstop printed "exiting now"
 * and hung for 55 minutes). So the timer runs in a thread of its own, started with the server
 * (a worker cannot start once the working directory is gone), and ends the process with the one
 * signal nothing in it can hold up. If that thread cannot run, a main-thread timer does the same.
 */
export class ShutdownBackstop {
  private worker: Worker | null = null;
  /** Resolves once the watchdog thread runs (or could not start). */
  ready: Promise<void> = Promise.resolve();

  /** Starts the watchdog thread (idle until armed; it never keeps the process alive). */
  static start(): ShutdownBackstop {
    const b = new ShutdownBackstop();
    try {
      // execArgv []: no `--import tsx` or other loader in it, so it boots without the main thread's help.
      const w = new Worker(WATCHDOG_SOURCE, { eval: true, execArgv: [] });
      w.unref();
      b.ready = new Promise((resolve) => {
        w.once('online', () => resolve());
        w.once('error', () => resolve());
        w.once('exit', () => resolve());
      });
      w.on('error', () => {
        if (b.worker === w) b.worker = null;
      });
      w.on('exit', () => {
        if (b.worker === w) b.worker = null;
      });
      b.worker = w;
    } catch {
      b.worker = null;
    }
    return b;
  }

  /** Kills the process if it has not exited `ms` from now; `what` names what did not finish. */
  arm(ms: number, what: string): void {
    const message = `openclaw-rl: ${what} did not finish within ${(ms / 1000).toFixed(1)} s of the stop signal; killing the process (SIGKILL)\n`;
    if (this.worker !== null) {
      try {
        this.worker.postMessage({ ms, message });
        return;
      } catch {
        // the thread is gone: fall back to this thread's timer
      }
    }
    setTimeout(() => {
      process.stderr.write(message);
      process.kill(process.pid, 'SIGKILL');
    }, ms).unref();
  }

  /** Stops the watchdog thread (a clean shutdown that needs no backstop). */
  stop(): void {
    void this.worker?.terminate();
    this.worker = null;
  }
}

/** Starts a backstop and arms it now (see ShutdownBackstop; prefer starting it before a fault can happen). */
export function shutdownBackstop(ms: number, what: string): ShutdownBackstop {
  const b = ShutdownBackstop.start();
  b.arm(ms, what);
  return b;
}
