// The training worker's state: an EmbeddedEngine that owns the policy, AdamW state and frozen
// reference. A training step blocks this thread only. `publish` advances the version here (so
// checkpoints record it) and hands back fresh host copies of the weights for the serving worker.

import { OpenClawError } from '../../errors/index.ts';
import type { GenerateRequest, ScoreRequest, TrainOptions, TrainSample } from '../types.ts';
import { EmbeddedEngine } from './engine.ts';
import type { AdamWConfig } from './optimizer.ts';
import { Tokenizer } from './tokenizer.ts';
import { weightBuffers, type WorkerInit, type WorkerReady } from './worker-protocol.ts';
import type { HandlerContext, HandlerReply, ThreadHandler } from '../../threads/host.ts';

/** Train, publish (export weights), save; score and sample with the trained weights (gate, replay evaluation). */
export class TrainingHandler implements ThreadHandler {
  private engine: EmbeddedEngine | null = null;
  private keepReference = true;
  private adamw: Partial<AdamWConfig> | undefined;

  async handle(op: string, args: unknown, _ctx: HandlerContext): Promise<HandlerReply> {
    switch (op) {
      case 'init':
        return { result: await this.init(args as WorkerInit) };
      case 'weights':
        return this.weights();
      case 'train': {
        const { samples, opts } = args as { samples: TrainSample[]; opts: TrainOptions };
        return { result: await this.current().trainStep(samples, opts) };
      }
      case 'publish':
        await this.current().publish();
        return this.weights();
      case 'score':
        return { result: await this.current().scoreTrained(args as ScoreRequest) };
      case 'score-many':
        return { result: await this.current().scoreTrainedMany(args as ScoreRequest[]) };
      case 'generate-many':
        return { result: await this.current().generateTrainedMany(args as GenerateRequest[]) };
      case 'generate':
        return { result: await this.current().generateTrained(args as GenerateRequest) };
      case 'save':
        await this.current().save((args as { dir: string }).dir);
        return { result: null };
      case 'restore': {
        // Rollback: the checkpoint's weights, optimizer and reference replace the current engine.
        const { dir, version } = args as { dir: string; version: number };
        const old = this.current();
        this.engine = await EmbeddedEngine.load(dir, { keepReference: this.keepReference, adamw: this.adamw, version });
        await old.close();
        return this.weights();
      }
      case 'close':
        await this.engine?.close();
        this.engine = null;
        return { result: null };
      default:
        throw new OpenClawError('internal', `training worker: unknown operation ${op}`);
    }
  }

  private async init(init: WorkerInit): Promise<WorkerReady> {
    if (init.kind === 'weights') throw new OpenClawError('internal', 'training worker: init from weights is not supported');
    const opts = { keepReference: init.keepReference, adamw: init.adamw };
    this.keepReference = init.keepReference;
    this.adamw = init.adamw;
    this.engine =
      init.kind === 'create'
        ? await EmbeddedEngine.create(init.config, {
            ...opts,
            seed: init.seed,
            tokenizer: init.tokenizer !== null ? Tokenizer.fromJSON(init.tokenizer) : undefined,
          })
        : await EmbeddedEngine.load(init.dir, { ...opts, version: init.version });
    return { config: this.engine.config, version: this.engine.version(), tokenizer: this.engine.tokenizer?.toJSON() ?? null };
  }

  private weights(): HandlerReply {
    const engine = this.current();
    const weights = engine.policyWeights();
    return { result: { weights, version: engine.version() }, transfer: weightBuffers(weights) };
  }

  private current(): EmbeddedEngine {
    if (this.engine === null) throw new OpenClawError('internal', 'training worker has no model yet (init did not run)');
    return this.engine;
  }
}
