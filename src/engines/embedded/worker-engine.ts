// WorkerEngine: the embedded PolicyEngine with all model compute in worker threads, so the
// gateway's event loop stays free while a training step runs (docs/design.md §3).
//  - serving worker: generate (tokens streamed back as messages) and score, on the served snapshot;
//  - training worker: an EmbeddedEngine owning the policy, AdamW state and frozen reference.
// publish(): the training worker copies its weights into fresh buffers, which are transferred
// (not copied) through this thread to the serving worker; it swaps them in between two sampled
// tokens and the version goes up by one. A generation already running finishes on the snapshot it
// started with and reports that snapshot's version; every request started after publish() resolved
// sees the new weights. Concurrent publish() calls run one after another.

import { OpenClawError } from '../../errors/index.ts';
import type {
  GenerateRequest,
  GenerateResult,
  PolicyEngine,
  ScoreRequest,
  ScoreResult,
  TrainOptions,
  TrainSample,
  TrainStepMetrics,
} from '../types.ts';
import type { EmbeddedEngineOptions } from './engine.ts';
import type { GptConfig } from './model.ts';
import { Tokenizer } from './tokenizer.ts';
import { WorkerClient } from './worker-client.ts';
import { weightBuffers, type HostWeights, type WorkerInit, type WorkerReady } from './worker-protocol.ts';

/** Options of WorkerEngine.create / load. */
export interface WorkerEngineOptions extends EmbeddedEngineOptions {
  /** Start the training worker (default true). false: serve only (e.g. `engine serve`); train/publish/save then fail. */
  train?: boolean;
  /**
   * How many nice steps the training thread runs below the process (default 10; 0 = same
   * priority). On Linux, where nice is per thread, a training step then yields the CPU to serving
   * when cores are scarce; it costs nothing when cores are free.
   */
  trainingNice?: number;
}

/** The embedded engine with serving and training in their own worker threads. */
export class WorkerEngine implements PolicyEngine {
  readonly kind = 'embedded';
  /** The model's tokenizer, when the checkpoint (or create()) has one. */
  readonly tokenizer: Tokenizer | null;
  /** The model shape. */
  readonly config: GptConfig;
  private servedVersion: number;
  private publishing: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly serving: WorkerClient,
    private readonly training: WorkerClient | null,
    ready: WorkerReady,
  ) {
    this.config = ready.config;
    this.servedVersion = ready.version;
    this.tokenizer = ready.tokenizer !== null ? Tokenizer.fromJSON(ready.tokenizer) : null;
  }

  /** A fresh engine with seeded random weights (the same weights as EmbeddedEngine.create with that seed). */
  static async create(config: GptConfig, opts: WorkerEngineOptions & { seed?: number; tokenizer?: Tokenizer } = {}): Promise<WorkerEngine> {
    if (opts.tokenizer !== undefined && opts.tokenizer.vocabSize !== config.vocabSize) {
      throw new OpenClawError(
        'config',
        `tokenizer has ${opts.tokenizer.vocabSize} tokens but the model config says vocabSize ${config.vocabSize}`,
      );
    }
    return WorkerEngine.start(opts, {
      kind: 'create',
      config,
      seed: opts.seed ?? 0,
      tokenizer: opts.tokenizer?.toJSON() ?? null,
      keepReference: opts.keepReference !== false,
      adamw: opts.adamw,
    });
  }

  /** An engine from a checkpoint folder (weights, optimizer state, reference, version, tokenizer). */
  static async load(dir: string, opts: WorkerEngineOptions = {}): Promise<WorkerEngine> {
    return WorkerEngine.start(opts, {
      kind: 'load',
      dir,
      keepReference: opts.keepReference !== false,
      adamw: opts.adamw,
      version: opts.version,
    });
  }

  private static async start(opts: WorkerEngineOptions, init: Exclude<WorkerInit, { kind: 'weights' }>): Promise<WorkerEngine> {
    // Both threads start loading at once; the serving one then waits for the trained weights.
    const serving = new WorkerClient('serving');
    const training = opts.train === false ? null : new WorkerClient('training', opts.trainingNice ?? 10);
    try {
      if (training === null) return new WorkerEngine(serving, null, await serving.request<WorkerReady>('init', init));
      const ready = await training.request<WorkerReady>('init', init);
      const { weights, version } = await training.request<{ weights: HostWeights; version: number }>('weights', null);
      await serving.request('init', { kind: 'weights', config: ready.config, weights, version } satisfies WorkerInit, {
        transfer: weightBuffers(weights),
      });
      return new WorkerEngine(serving, training, ready);
    } catch (err) {
      await Promise.all([serving.terminate(), training?.terminate()]);
      throw err;
    }
  }

  version(): number {
    return this.servedVersion;
  }

  /** Whether each worker thread is running (false after close() or a crash). */
  running(): { serving: boolean; training: boolean } {
    return { serving: this.serving.alive, training: this.training?.alive ?? false };
  }

  async generate(req: GenerateRequest, onToken?: (id: number, logprob: number) => void): Promise<GenerateResult> {
    this.assertOpen();
    const { signal, ...rest } = req; // an AbortSignal cannot cross threads: cancellation is a message
    // Tokens are only messaged back when someone listens.
    return this.serving.request<GenerateResult>(
      'generate',
      { ...rest, stream: onToken !== undefined },
      {
        signal,
        onPartial: onToken && ((v) => onToken(...(v as [number, number]))),
      },
    );
  }

  async score(req: ScoreRequest): Promise<ScoreResult> {
    this.assertOpen();
    return this.serving.request<ScoreResult>('score', req);
  }

  /** Scores with the trained weights (ahead of the served ones until publish): the regression gate. */
  async scoreTrained(req: ScoreRequest): Promise<ScoreResult> {
    return this.trainer().request<ScoreResult>('score', req);
  }

  async scoreTrainedMany(reqs: ScoreRequest[]): Promise<number[][]> {
    return this.trainer().request<number[][]>('score-many', reqs);
  }

  async generateTrainedMany(reqs: GenerateRequest[]): Promise<GenerateResult[]> {
    return this.trainer().request<GenerateResult[]>(
      'generate-many',
      reqs.map(({ signal: _signal, ...rest }) => rest),
    );
  }

  /** Samples with the trained weights on the training thread, so serving is not slowed (the replay evaluation). */
  async generateTrained(req: GenerateRequest): Promise<GenerateResult> {
    const { signal: _signal, ...rest } = req; // an AbortSignal cannot cross threads
    return this.trainer().request<GenerateResult>('generate', rest);
  }

  async trainStep(samples: TrainSample[], opts: TrainOptions): Promise<TrainStepMetrics> {
    return this.trainer().request<TrainStepMetrics>('train', { samples, opts });
  }

  async publish(): Promise<number> {
    const trainer = this.trainer();
    const run = this.publishing.then(async () => {
      const { weights, version } = await trainer.request<{ weights: HostWeights; version: number }>('publish', null);
      await this.serving.request('swap', { weights, version }, { transfer: weightBuffers(weights) });
      this.servedVersion = version;
      return version;
    });
    this.publishing = run.catch(() => undefined);
    return run;
  }

  async save(dir: string): Promise<void> {
    await this.trainer().request('save', { dir });
  }

  /** Rollback: the checkpoint at `dir` becomes the trained and the served state, as `version`. */
  async restore(dir: string, version: number): Promise<void> {
    const trainer = this.trainer();
    const run = this.publishing.then(async () => {
      const { weights } = await trainer.request<{ weights: HostWeights; version: number }>('restore', { dir, version });
      await this.serving.request('swap', { weights, version }, { transfer: weightBuffers(weights) });
      this.servedVersion = version;
    });
    this.publishing = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([this.serving.terminate(), this.training?.terminate()]);
  }

  private trainer(): WorkerClient {
    this.assertOpen();
    if (this.training === null) {
      throw new OpenClawError('config', 'this embedded engine was started to serve only (train: false): it cannot train, publish or save');
    }
    return this.training;
  }

  private assertOpen(): void {
    if (this.closed) throw new OpenClawError('internal', 'the embedded engine was closed');
  }
}
