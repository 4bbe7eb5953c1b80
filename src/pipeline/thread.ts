// ScoringThread: the scoring stage in a worker thread, so that storing, judging and resolving
// turns never take the gateway's event loop (docs/design.md §1: the four loops never block each other).
// The main thread keeps the intake queue and hands each drained batch over in one message; the
// worker owns the pipeline and its own connection to the sample store (WAL: the trainer and the
// dashboard keep reading and leasing through the main thread's connection). Judgements come back
// as events into the session views, numbers for /metrics and /healthz as periodic snapshots (and
// fresh ones with the answers to feedback, `whenIdle` and `close`), log lines into the main logger.
//
// If the thread stops, the server keeps serving: turns it can no longer take are counted as
// store errors and logged, and stay in records/turns.jsonl.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import type { SessionViews } from '../gateway/index.ts';
import type { Mode } from '../methods/index.ts';
import type { Turn } from '../sessions/index.ts';
import { ThreadClient } from '../threads/client.ts';
import type { FeedbackRequest } from './feedback.ts';
import type { FeedbackResult } from './feedback-service.ts';
import { IntakeQueue, type QueuedItem } from './intake.ts';
import type { ScoringStage } from './stage.ts';
import { packTurn, type IntakeItem, type ScoringEvent, type ScoringStats, type ScoringThreadArgs } from './thread-protocol.ts';

const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './thread-worker.ts' : './thread-worker.js', import.meta.url);

/** What a ScoringThread is started with. */
export interface ScoringThreadOptions {
  config: Config;
  /** The run's sample store file (already opened, and so created, by the main thread). */
  storePath: string;
  views: SessionViews;
  log: Logger;
  /** Longest a queued turn waits for `drainIntake` before a timer drains the queue (default 20 ms). */
  intakeDelayMs?: number;
  /** How often the worker reports its numbers (default 500 ms). */
  statsIntervalMs?: number;
}

/** The scoring stage in a worker thread; see the file header. */
export class ScoringThread implements ScoringStage {
  readonly mode: Mode;
  private readonly client: ThreadClient;
  private readonly views: SessionViews;
  private readonly log: Logger;
  /** Turns are packed when the batch leaves, not when queued. */
  private readonly intake: IntakeQueue<QueuedItem>;
  private stats: ScoringStats = { gauges: {}, health: {} };
  private lost = 0;

  private constructor(opts: ScoringThreadOptions) {
    this.mode = opts.config.mode;
    this.views = opts.views;
    this.log = opts.log;
    this.intake = new IntakeQueue(opts.intakeDelayMs ?? 20, () => this.drainIntake());
    const args: ScoringThreadArgs = {
      storePath: opts.storePath,
      synchronous: opts.config.storage.synchronous === 'full' ? 'FULL' : 'NORMAL',
      logLevel: opts.log.level,
      statsIntervalMs: opts.statsIntervalMs ?? 500,
    };
    this.client = new ThreadClient({
      entry: ENTRY,
      args,
      label: 'the scoring worker',
      remedy: 'turns are no longer judged; restart openclaw-rl (turns left pending are re-judged at start)',
      onEvent: (e) => this.onEvent(e as ScoringEvent),
      onNotifyError: (err) => this.log.error({ err }, 'the scoring thread could not take a batch of turns'),
    });
  }

  /** Starts the thread and builds its pipeline; rejects (and stops the thread) if that fails. */
  static async start(opts: ScoringThreadOptions): Promise<ScoringThread> {
    const stage = new ScoringThread(opts);
    try {
      stage.stats = await stage.client.request<ScoringStats>('init', opts.config);
    } catch (err) {
      await stage.client.terminate();
      throw err;
    }
    return stage;
  }

  queueTurnFinalized(turn: Turn): void {
    this.intake.push(turn);
  }

  queueSessionClosed(sessionId: string): void {
    this.intake.push({ closed: sessionId });
  }

  drainIntake(): void {
    const queued = this.intake.take();
    if (queued.length === 0) return;
    const turns = queued.filter((i) => !('closed' in i)).length;
    if (this.client.alive) {
      // Packed here, after the answers went out, not while the next request is being read.
      const transfer: ArrayBuffer[] = [];
      const batch = queued.map((i): IntakeItem => {
        if ('closed' in i) return { kind: 'closed', sessionId: i.closed };
        const packed = packTurn(i);
        transfer.push(...packed.transfer);
        return { kind: 'turn', turn: packed.turn };
      });
      if (this.client.notify('intake', batch, transfer)) return;
    }
    this.lost += turns;
    if (turns > 0)
      this.log.error(
        { turns, err: this.client.failure },
        'the scoring thread has stopped: finished turns are not judged (they stay in records/turns.jsonl)',
      );
  }

  start(): void {
    this.client
      .request<number>('start', null)
      .catch((err: unknown) => this.log.error({ err }, 'the scoring thread could not re-judge the turns left pending'));
  }

  async submitFeedback(req: FeedbackRequest): Promise<FeedbackResult> {
    // Feedback applies to turns already handed over, so those go first (messages keep their order).
    this.drainIntake();
    const known = this.views.turns(req.sessionId)?.map((t) => t.turn_id);
    const { result, stats } = await this.client.request<{ result: FeedbackResult; stats: ScoringStats }>('feedback', { req, known });
    this.stats = stats;
    return result;
  }

  async forget(sessionId: string, throughTurn: number): Promise<number> {
    // Turns handed over before the forget go first: the worker's store then refuses them.
    this.drainIntake();
    return this.client.request<number>('forget', { sessionId, throughTurn });
  }

  gauges(): Record<string, number> {
    return { ...this.stats.gauges, store_errors: (this.stats.gauges.store_errors ?? 0) + this.lost };
  }

  health(): Record<string, unknown> {
    const failure = this.client.failure;
    return { ...this.stats.health, ...(failure !== null ? { thread: 'stopped', thread_error: failure.message } : {}) };
  }

  async whenIdle(): Promise<void> {
    this.drainIntake();
    try {
      this.stats = await this.client.request<ScoringStats>('idle', null);
    } catch (err) {
      if (!(err instanceof OpenClawError)) throw err;
      // A stopped thread has nothing left to finish.
    }
  }

  async close(drainMs?: number): Promise<void> {
    this.drainIntake();
    try {
      this.stats = await this.client.request<ScoringStats>('close', drainMs);
    } catch (err) {
      this.log.error({ err }, 'the scoring thread did not close cleanly; turns it had not resolved are re-judged at the next start');
    }
    await this.client.terminate();
  }

  private onEvent(e: ScoringEvent): void {
    if (e.kind === 'judge') this.views.judge(e.sessionId, e.turnId, e.judgement);
    else if (e.kind === 'stats') this.stats = e.stats;
    else this.relog(e.record);
  }

  /** A pino line from the worker, logged again by the main logger at its level. */
  private relog(record: Record<string, unknown>): void {
    const { level, msg, time: _t, pid: _p, hostname: _h, ...fields } = record;
    const name = this.log.levels.labels[Number(level)] as 'info' | 'warn' | 'error' | 'fatal' | 'debug' | 'trace' | undefined;
    (this.log[name ?? 'info'] as (obj: object, msg?: string) => void).call(
      this.log,
      { ...fields, thread: 'scoring' },
      typeof msg === 'string' ? msg : undefined,
    );
  }
}
