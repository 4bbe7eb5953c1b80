// Entry of the scoring thread (started by ScoringThread through threads/). It opens its own
// connection to the run's sample store, builds the pipeline the config asks for (rules or a judge
// model, an HTTP teacher) and runs it: turns arrive in batches, judgements, log lines and the
// numbers for /metrics and /healthz go back as events.
import pino from 'pino';
import type { Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { SampleStore } from '../samples/index.ts';
import { emit, lowerThreadPriority, serveThread, threadArgs, type HandlerReply, type ThreadHandler } from '../threads/host.ts';
import type { FeedbackRequest } from './feedback.ts';
import { createScoringPipeline } from './from-config.ts';
import type { ScoringPipeline } from './pipeline.ts';
import type { JudgementViews } from './types.ts';
import {
  SCORING_NICE,
  unpackTurn,
  type IntakeItem,
  type ScoringEvent,
  type ScoringStats,
  type ScoringThreadArgs,
} from './thread-protocol.ts';

const args = threadArgs<ScoringThreadArgs>();
// Scoring is background work: where cores are scarce, serving (the main thread) goes first.
lowerThreadPriority(SCORING_NICE);

class ScoringHandler implements ThreadHandler {
  private pipeline: ScoringPipeline | null = null;
  private store: SampleStore | null = null;
  private statsTimer: NodeJS.Timeout | undefined;

  async handle(op: string, a: unknown): Promise<HandlerReply> {
    const reply = await this.run(op, a);
    // Whoever gets an answer may read the store next through another connection: commit first.
    if (op !== 'intake') this.store?.flush();
    return reply;
  }

  private async run(op: string, a: unknown): Promise<HandlerReply> {
    switch (op) {
      case 'init':
        return { result: await this.init(a as Config) };
      case 'intake':
        this.intake(a as IntakeItem[]);
        return { result: null };
      case 'start':
        return { result: this.open().start() };
      case 'feedback': {
        const { req, known } = a as { req: FeedbackRequest; known: number[] | undefined };
        // Fresh numbers with the answer: feedback changes them, and the caller may look next.
        return { result: { result: this.open().submitFeedback(req, known), stats: this.stats() } };
      }
      case 'forget': {
        const { sessionId, throughTurn } = a as { sessionId: string; throughTurn: number };
        return { result: this.open().forget(sessionId, throughTurn) };
      }
      case 'idle':
        await this.open().whenIdle();
        return { result: this.stats() };
      case 'close':
        return { result: await this.close(a as number | undefined) };
      default:
        throw new OpenClawError('internal', `scoring thread: unknown operation '${op}'`);
    }
  }

  private async init(config: Config): Promise<ScoringStats> {
    // Logs go to the main thread's logger, so a run has one log wherever its parts run.
    const log = pino(
      { level: args.logLevel },
      { write: (line: string) => send({ kind: 'log', record: JSON.parse(line) as Record<string, unknown> }) },
    );
    // The main thread returned leases at open; a second open must not take back leases it holds.
    this.store = SampleStore.open(args.storePath, { synchronous: args.synchronous, recoverLeases: false });
    const views: JudgementViews = { judge: (sessionId, turnId, judgement) => send({ kind: 'judge', sessionId, turnId, judgement }) };
    this.pipeline = await createScoringPipeline(config, { store: this.store, views, log });
    this.statsTimer = setInterval(() => send({ kind: 'stats', stats: this.stats() }), args.statsIntervalMs);
    this.statsTimer.unref();
    return this.stats();
  }

  private open(): ScoringPipeline {
    if (this.pipeline === null) throw new OpenClawError('internal', 'scoring thread: used before init');
    return this.pipeline;
  }

  private intake(items: IntakeItem[]): void {
    const pipeline = this.open();
    for (const item of items) {
      if (item.kind === 'turn') pipeline.queueTurnFinalized(unpackTurn(item.turn));
      else pipeline.queueSessionClosed(item.sessionId);
    }
    pipeline.drainIntake();
  }

  private stats(): ScoringStats {
    const p = this.open();
    return { gauges: p.gauges(), health: { ...p.health(), thread: 'worker' } };
  }

  private async close(drainMs: number | undefined): Promise<ScoringStats> {
    clearInterval(this.statsTimer);
    const p = this.open();
    await p.close(drainMs);
    const stats = this.stats();
    this.store?.close();
    return stats;
  }
}

function send(event: ScoringEvent): void {
  emit(event);
}

serveThread(new ScoringHandler(), 'scoring thread');
