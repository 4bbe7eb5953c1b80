// Waiting for the signal that ends a serving command (`api-server`, `train`, `demo
// --keep-serving`, `engine serve`), and the backstop that bounds the shutdown that follows.

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

/**
 * Ends the process with exit code 1 if shutdown has not finished within `ms` (a stuck close must
 * not turn a container stop into a SIGKILL). The timer does not keep the process alive.
 */
export function shutdownBackstop(ms: number, what: string): void {
  setTimeout(() => {
    process.stderr.write(`openclaw-rl: ${what} did not finish within ${(ms / 1000).toFixed(1)} s of the stop signal; exiting now\n`);
    process.exit(1);
  }, ms).unref();
}
