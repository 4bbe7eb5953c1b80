/**
 * Waits `ms`, or rejects as soon as `signal` aborts: with `abortError()` when given (a client's own
 * "deadline passed while waiting"), else with the signal's reason. The one back-off wait of every
 * outgoing client.
 */
export function sleep(ms: number, signal?: AbortSignal, abortError?: () => unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const reason = () => (abortError ? abortError() : signal?.reason);
    if (signal?.aborted) return reject(reason());
    const onAbort = () => {
      clearTimeout(t);
      reject(reason());
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
