// Per-model ordering of the Tinker training calls (SeqQueue: the hosted profile; ArrivalQueue:
// SkyRL's, below). Each call carries seq_id = 1, 2, 3, …; calls
// run one at a time in seq_id order, whatever order the HTTP requests arrive in. (model, seq_id)
// is an idempotency key: the same payload again gets the same request_id (a client retrying after
// a timeout), a different payload under a used seq_id is refused with 409, as SkyRL does.
// A missing seq_id (a client that gave up on one) would stall the model forever, so after
// `gapMs` without it the queue moves on to the lowest waiting one; a call arriving later under a
// skipped number is refused (running it now would train out of order). Calls without seq_id run
// after everything submitted before them.

import { OpenClawError, invalidRequest } from '../../errors/index.ts';

/** One model's queue of training calls. */
export class SeqQueue {
  private readonly seen = new Map<number, { key: string; requestId: string }>();
  private readonly waiting = new Map<number, () => void>();
  private nextSeq = 1;
  private tail: Promise<unknown> = Promise.resolve();
  private gapTimer: NodeJS.Timeout | undefined;
  /** New calls accepted so far (replays of a seq_id not counted). */
  submitted = 0;

  constructor(
    private readonly track: (work: Promise<unknown>) => string,
    private readonly gapMs: number,
  ) {}

  /** Runs `run` after every call released so far (first of all: the model's creation). */
  first(run: () => Promise<unknown>): Promise<unknown> {
    const p = this.tail.then(run);
    this.tail = p.catch(() => undefined);
    return p;
  }

  /**
   * Queues a call and returns its request id (or the id of the same call submitted before).
   * `key` identifies the payload; `before` may refuse the call (it runs only for new calls).
   */
  submit(seqId: number | undefined, key: string, run: () => Promise<unknown>, before?: () => void): string {
    if (seqId !== undefined) {
      const prev = this.seen.get(seqId);
      if (prev !== undefined) {
        if (prev.key === key) return prev.requestId;
        throw new OpenClawError(
          'invalid_request',
          `seq_id ${seqId} was already used on this model for a different request: each seq_id names one request (send the next unused number)`,
          { status: 409, param: 'seq_id', code: 'seq_id_reused' },
        );
      }
      if (seqId < this.nextSeq) {
        throw invalidRequest(
          `seq_id ${seqId} arrived after seq_id ${this.nextSeq - 1} had already run on this model: calls must come in seq_id order (1, 2, 3, …)`,
          'seq_id',
        );
      }
    }
    before?.();
    this.submitted += 1;
    let start!: () => void;
    const gate = new Promise<void>((resolve) => {
      start = resolve;
    });
    const work = gate.then(() => this.chain(run));
    const requestId = this.track(work);
    if (seqId === undefined) start();
    else {
      this.seen.set(seqId, { key, requestId });
      this.waiting.set(seqId, start);
      this.pump();
    }
    return requestId;
  }

  private chain(run: () => Promise<unknown>): Promise<unknown> {
    const p = this.tail.then(run);
    this.tail = p.catch(() => undefined);
    return p;
  }

  private pump(): void {
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    for (let go = this.waiting.get(this.nextSeq); go !== undefined; go = this.waiting.get(this.nextSeq)) {
      this.waiting.delete(this.nextSeq);
      this.nextSeq += 1;
      go();
    }
    if (this.waiting.size === 0) return;
    this.gapTimer = setTimeout(() => {
      this.nextSeq = Math.min(...this.waiting.keys());
      this.pump();
    }, this.gapMs);
    this.gapTimer.unref();
  }
}

/**
 * SkyRL's order: calls on a model run in the order they arrive (its futures table's request_id
 * order, engine.py L380-511), seq_id is not an ordering key. (model_id, seq_id) is remembered only
 * for the calls SkyRL stores it with — forward_backward, forward, optim_step (api.py L1133-1175) —
 * and then the same call again gets the same future, anything else under that seq_id a 409
 * "Training request sequence number was reused" (api.py L372-382). Other calls ignore seq_id.
 */
export class ArrivalQueue {
  private readonly seen = new Map<number, { key: string; requestId: string }>();
  private tail: Promise<unknown> = Promise.resolve();
  submitted = 0;

  constructor(
    private readonly track: (work: Promise<unknown>) => string,
    private readonly idempotentOps: ReadonlySet<string>,
  ) {}

  first(run: () => Promise<unknown>): Promise<unknown> {
    const p = this.tail.then(run);
    this.tail = p.catch(() => undefined);
    return p;
  }

  submit(op: string, seqId: number | undefined, key: string, run: () => Promise<unknown>, before?: () => void): string {
    const keyed = seqId !== undefined && this.idempotentOps.has(op);
    if (keyed) {
      const prev = this.seen.get(seqId);
      if (prev !== undefined) {
        if (prev.key === key) return prev.requestId;
        throw new OpenClawError('invalid_request', 'Training request sequence number was reused', { status: 409, param: 'seq_id' });
      }
    }
    before?.();
    this.submitted += 1;
    const requestId = this.track(this.first(run));
    if (keyed) this.seen.set(seqId, { key, requestId });
    return requestId;
  }
}

/** A model's call queue: seq_id-ordered (hosted) or arrival-ordered (SkyRL). */
export type ModelQueue = SeqQueue | ArrivalQueue;
