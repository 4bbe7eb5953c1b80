// The serving worker's state: one served model snapshot at a time, swapped by publish. A request
// pins the snapshot it started on, so a generation that is running when new weights arrive
// finishes on the old weights and reports the old version; the old snapshot is freed when its
// last request ends. Swaps happen between messages, i.e. between two sampled tokens of a running
// generation, never inside a forward pass (the thread runs one thing at a time).

import { ServedSnapshot } from './snapshot.ts';
import { OpenClawError } from '../../errors/index.ts';
import type { GenerateRequest, GenerateResult, ScoreRequest, ScoreResult } from '../types.ts';
import { initBackend } from './backend.ts';
import { fromHost, readCheckpoint } from './checkpoint.ts';
import { Gpt } from './model.ts';
import { generateTokens, scoreTokens } from './sampling.ts';
import type { HostWeights, WorkerInit, WorkerReady } from './worker-protocol.ts';
import type { HandlerContext, HandlerReply, ThreadHandler } from '../../threads/host.ts';

/** Generate and score on the served snapshot; swap in published weights. */
export class ServingHandler implements ThreadHandler {
  private served: ServedSnapshot | null = null;

  async handle(op: string, args: unknown, ctx: HandlerContext): Promise<HandlerReply> {
    switch (op) {
      case 'init':
        return { result: await this.init(args as WorkerInit) };
      case 'generate':
        return { result: await this.generate(args as GenerateRequest & { stream: boolean }, ctx) };
      case 'score':
        return { result: await this.score(args as ScoreRequest) };
      case 'swap': {
        const { weights, version } = args as { weights: HostWeights; version: number };
        this.install(new Gpt(this.current().model.config, fromHost(weights)), version);
        return { result: version };
      }
      case 'close':
        this.retire();
        return { result: null };
      default:
        throw new OpenClawError('internal', `serving worker: unknown operation ${op}`);
    }
  }

  private async init(init: WorkerInit): Promise<WorkerReady> {
    await initBackend();
    if (init.kind === 'weights') {
      this.install(new Gpt(init.config, fromHost(init.weights)), init.version);
      return { config: init.config, version: init.version, tokenizer: null };
    }
    if (init.kind === 'create') {
      this.install(Gpt.create(init.config, init.seed), 0);
      return { config: init.config, version: 0, tokenizer: init.tokenizer };
    }
    const data = await readCheckpoint(init.dir);
    const version = init.version ?? data.config.version;
    this.install(new Gpt(data.config.model, fromHost(data.weights)), version);
    return { config: data.config.model, version, tokenizer: data.tokenizer };
  }

  private async generate(req: GenerateRequest & { stream: boolean }, ctx: HandlerContext): Promise<GenerateResult> {
    return this.withServed(async (snap) => {
      const out = await generateTokens(
        snap.model,
        { ...req, signal: ctx.signal },
        req.stream ? (id, lp) => ctx.partial([id, lp]) : undefined,
      );
      return { ...out, version: snap.version };
    });
  }

  private async score(req: ScoreRequest): Promise<ScoreResult> {
    return this.withServed(async (snap) => ({
      ...scoreTokens(snap.model, req.promptIds, req.responseIds, req.temperature, req.topK),
      version: snap.version,
    }));
  }

  private current(): ServedSnapshot {
    if (this.served === null) throw new OpenClawError('internal', 'serving worker has no model yet (init did not run)');
    return this.served;
  }

  private install(model: Gpt, version: number): void {
    this.retire();
    this.served = new ServedSnapshot(model, version);
  }

  private retire(): void {
    const old = this.served;
    if (old === null) return;
    old.retire();
    this.served = null;
  }

  private withServed<T>(fn: (snap: ServedSnapshot) => Promise<T>): Promise<T> {
    return this.current().use(fn);
  }
}
