// The one request-with-retry loop of outgoing HTTP: attempts until an answer is a success, a
// failure that must not be retried, or the next wait would pass the call's deadline. Which
// outcomes retry and how long to wait is `retryDelay` (retry.ts); a client narrows it with its
// rules. A loop only ever repeats whole requests: a caller that streams retries nothing once it
// has used a byte of the answer (it gets the answer back unread).
import type { Dispatcher } from 'undici';
import { retryDelay } from './retry.ts';
import { sleep } from './sleep.ts';

/** What one attempt answered: its status and headers (for retry-after). */
export interface Answer {
  status: number;
  headers?: Record<string, string | string[] | undefined>;
}

/** How a client retries. */
export interface RetryRules {
  /** Retries after the first attempt (0 = none). */
  maxRetries: number;
  /** Aborts the call: the total deadline, the caller's cancel. Aborted = no more attempts. */
  signal: AbortSignal;
  /** No retry may start after this time (ms since epoch), e.g. a stream's first-byte deadline. */
  retryBy?: number;
  /** Narrows the retried statuses (default: every status `retryDelay` retries). */
  retryStatus?: (status: number) => boolean;
  /** Whether a failed attempt (no answer) may be retried (default: always). */
  retryFailure?: (err: unknown) => boolean;
  /** What a wait cut by `signal` rejects with (default: the signal's reason). */
  abortError?: () => unknown;
}

/** How a client explains what it gave up on. */
export interface GiveUp<A extends Answer> {
  /** No answer (connection failure); `attempts` made so far. */
  failure(err: unknown, attempts: number): unknown;
  /** An answer that is no success; `waitMs` is a wait asked for that would pass the deadline. */
  status(answer: A, ctx: { attempts: number; waitMs?: number }): unknown;
  /** Releases an answer that is retried (an unread body holds its connection). */
  discard?(answer: A): Promise<void>;
}

/** Sends with `send` until a 2xx answer, which it returns; otherwise throws what `giveUp` says. */
export async function withRetries<A extends Answer>(send: () => Promise<A>, rules: RetryRules, giveUp: GiveUp<A>): Promise<A> {
  const retryBy = rules.retryBy ?? Infinity;
  for (let attempt = 0; ; attempt++) {
    let answer: A;
    try {
      answer = await send();
    } catch (err) {
      if (rules.signal.aborted || (rules.retryFailure !== undefined && !rules.retryFailure(err))) throw err;
      const delay = retryDelay({ attempt, maxRetries: rules.maxRetries });
      if (delay === null || Date.now() + delay > retryBy) throw giveUp.failure(err, attempt + 1);
      await sleep(delay, rules.signal, rules.abortError);
      continue;
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    const allowed = rules.retryStatus === undefined || rules.retryStatus(answer.status);
    const delay = allowed ? retryDelay({ status: answer.status, headers: answer.headers, attempt, maxRetries: rules.maxRetries }) : null;
    if (delay === null || Date.now() + delay > retryBy) {
      throw await giveUp.status(answer, { attempts: attempt + 1, waitMs: delay ?? undefined });
    }
    await giveUp.discard?.(answer);
    await sleep(delay, rules.signal, rules.abortError);
  }
}

/** One request to a pool, as `withRetries` sees it: the undici answer with its body unread. */
export interface PoolAnswer extends Answer {
  res: Dispatcher.ResponseData;
}

/** Explains a non-2xx answer; its body text is read for the message. */
export interface PoolGiveUp {
  failure(err: unknown, attempts: number): unknown;
  status(status: number, body: string, ctx: { attempts: number; waitMs?: number }): unknown;
}

/**
 * `withRetries` over a pool: `req` sent as is on each attempt, bound to `rules.signal`. Resolves
 * with a 2xx response whose body is still unread (and still bound to the signal).
 */
export async function requestWithRetry(
  pool: Dispatcher,
  req: Omit<Dispatcher.RequestOptions, 'signal'>,
  rules: RetryRules,
  giveUp: PoolGiveUp,
): Promise<Dispatcher.ResponseData> {
  const send = async (): Promise<PoolAnswer> => {
    const res = await pool.request({ ...req, signal: rules.signal });
    return { status: res.statusCode, headers: res.headers, res };
  };
  const answer = await withRetries(send, rules, {
    failure: giveUp.failure,
    async status(a, ctx) {
      const text = await a.res.body.text().catch(() => '');
      return giveUp.status(a.status, text, ctx);
    },
    async discard(a) {
      await a.res.body.text().catch(() => '');
    },
  });
  return answer.res;
}
