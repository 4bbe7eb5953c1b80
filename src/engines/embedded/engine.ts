// EmbeddedEngine: the PolicyEngine of docs/design.md §3 running in-process on the tiny GPT.
// Three copies of the weights: the POLICY (trained, with AdamW state), the SERVED snapshot that
// generate/score use (replaced by publish(), so serving never sees half-trained weights and each
// result names the version that produced it), and a frozen REFERENCE for the KL term.
// A generation that is running when publish() happens finishes on the snapshot it started with.

import * as tf from '@tensorflow/tfjs';
import { OpenClawError, invalidRequest } from '../../errors/index.ts';
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
import { initBackend } from './backend.ts';
import { fromHost, readCheckpoint, toHost, writeCheckpoint } from './checkpoint.ts';
import { Gpt, type GptConfig } from './model.ts';
import { AdamW, type AdamWConfig } from './optimizer.ts';
import { generateTokens, generateTokensMany, scoreTokens, scoreTokensMany } from './sampling.ts';
import type { HostTensor } from './safetensors.ts';
import { Tokenizer } from './tokenizer.ts';
import { ServedSnapshot } from './snapshot.ts';
import { trainStep } from './train.ts';

/** Options of EmbeddedEngine.create / load. */
export interface EmbeddedEngineOptions {
  /** Keep a frozen copy of the starting weights for the KL term (default true). */
  keepReference?: boolean;
  adamw?: Partial<AdamWConfig>;
  /** load(): serve the restored weights as this version instead of the one saved (a resume never reuses a version number). */
  version?: number;
}

/** The embedded policy engine: generate, score, train, publish, save/load, all in-process. */
export class EmbeddedEngine implements PolicyEngine {
  readonly kind = 'embedded';
  readonly tokenizer: Tokenizer | null;
  private readonly policy: Gpt;
  private readonly optimizer: AdamW;
  private readonly reference: Gpt | null;
  private served: ServedSnapshot;
  private closed = false;

  private constructor(policy: Gpt, tokenizer: Tokenizer | null, optimizer: AdamW, reference: Gpt | null, version: number) {
    this.policy = policy;
    this.tokenizer = tokenizer;
    this.optimizer = optimizer;
    this.reference = reference;
    this.served = new ServedSnapshot(policy.clone(false), version);
  }

  /** A fresh engine with randomly initialised weights (seeded). */
  static async create(
    config: GptConfig,
    opts: EmbeddedEngineOptions & { seed?: number; tokenizer?: Tokenizer } = {},
  ): Promise<EmbeddedEngine> {
    await initBackend();
    const tokenizer = opts.tokenizer ?? null;
    if (tokenizer !== null && tokenizer.vocabSize !== config.vocabSize) {
      throw new OpenClawError(
        'config',
        `tokenizer has ${tokenizer.vocabSize} tokens but the model config says vocabSize ${config.vocabSize}`,
      );
    }
    const policy = Gpt.create(config, opts.seed ?? 0);
    const reference = opts.keepReference === false ? null : policy.clone(false);
    return new EmbeddedEngine(policy, tokenizer, new AdamW(opts.adamw), reference, 0);
  }

  /** An engine from a checkpoint folder (weights, optimizer state, reference, version). */
  static async load(dir: string, opts: EmbeddedEngineOptions = {}): Promise<EmbeddedEngine> {
    await initBackend();
    const data = await readCheckpoint(dir);
    const params = fromHost(data.weights);
    for (const [name, t] of Object.entries(params)) {
      params[name] = tf.variable(t, true);
      t.dispose();
    }
    const policy = new Gpt(data.config.model, params);
    const optimizer = new AdamW({ ...data.config.adamw, ...opts.adamw });
    if (data.optimizer !== null) optimizer.restore(data.optimizer.step, fromHost(data.optimizer.m), fromHost(data.optimizer.v));
    let reference: Gpt | null = null;
    if (opts.keepReference !== false)
      reference = data.reference !== null ? new Gpt(data.config.model, fromHost(data.reference)) : policy.clone(false);
    const tokenizer = data.tokenizer !== null ? Tokenizer.fromJSON(data.tokenizer) : null;
    return new EmbeddedEngine(policy, tokenizer, optimizer, reference, opts.version ?? data.config.version);
  }

  /** The model shape. */
  get config(): GptConfig {
    return this.policy.config;
  }

  /** Number of optimizer updates applied so far. */
  get optimizerStep(): number {
    return this.optimizer.step;
  }

  version(): number {
    return this.served.version;
  }

  async generate(req: GenerateRequest, onToken?: (id: number, logprob: number) => void): Promise<GenerateResult> {
    return this.withServed(async (snap) => {
      const out = await generateTokens(snap.model, req, onToken);
      return { ...out, version: snap.version };
    });
  }

  async score(req: ScoreRequest): Promise<ScoreResult> {
    return this.withServed(async (snap) => ({
      ...scoreTokens(snap.model, req.promptIds, req.responseIds, req.temperature, req.topK),
      version: snap.version,
    }));
  }

  /** Log-probs under the trained weights, which may be ahead of the served ones (the regression gate). */
  async scoreTrained(req: ScoreRequest): Promise<ScoreResult> {
    this.assertOpen();
    return {
      ...scoreTokens(this.policy, req.promptIds, req.responseIds, req.temperature, req.topK),
      version: this.served.version,
    };
  }

  /** Log-probs of many answers under the trained weights, several per forward pass (the gate). */
  async scoreTrainedMany(reqs: ScoreRequest[]): Promise<number[][]> {
    this.assertOpen();
    const temperature = reqs[0]?.temperature ?? 1;
    if (reqs.some((r) => r.temperature !== temperature))
      throw invalidRequest('scoreTrainedMany: every request must have the same temperature', 'temperature');
    return scoreTokensMany(this.policy, reqs, temperature);
  }

  /** Samples several answers with the trained weights, decoded together (the gate's probes). */
  async generateTrainedMany(reqs: GenerateRequest[]): Promise<GenerateResult[]> {
    this.assertOpen();
    const version = this.served.version;
    return (await generateTokensMany(this.policy, reqs)).map((g) => ({ ...g, version }));
  }

  /** Samples with the trained weights, which may be ahead of the served ones (the replay evaluation). */
  async generateTrained(req: GenerateRequest): Promise<GenerateResult> {
    this.assertOpen();
    return { ...(await generateTokens(this.policy, req)), version: this.served.version };
  }

  async trainStep(samples: TrainSample[], opts: TrainOptions): Promise<TrainStepMetrics> {
    this.assertOpen();
    return trainStep({ policy: this.policy, optimizer: this.optimizer, reference: this.reference }, samples, opts);
  }

  async publish(): Promise<number> {
    this.assertOpen();
    const old = this.served;
    this.served = new ServedSnapshot(this.policy.clone(false), old.version + 1);
    old.retire();
    return this.served.version;
  }

  /** Host copies of the trained weights (fresh buffers, so they can be transferred to another thread). */
  policyWeights(): Record<string, HostTensor> {
    this.assertOpen();
    return toHost(this.policy.params);
  }

  async save(dir: string): Promise<void> {
    this.assertOpen();
    const m: Record<string, tf.Tensor> = this.optimizer.m;
    await writeCheckpoint(dir, {
      config: { format: 'openclaw-embedded', model: this.policy.config, version: this.served.version, adamw: this.optimizer.config },
      tokenizer: this.tokenizer?.toJSON() ?? null,
      weights: toHost(this.policy.params),
      optimizer: { step: this.optimizer.step, m: toHost(m), v: toHost(this.optimizer.v) },
      reference: this.reference !== null ? toHost(this.reference.params) : null,
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.policy.dispose();
    this.optimizer.dispose();
    this.reference?.dispose();
    this.served.retire();
  }

  private withServed<T>(fn: (snap: ServedSnapshot) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.served.use(fn);
  }

  private assertOpen(): void {
    if (this.closed) throw new OpenClawError('internal', 'the embedded engine was closed');
  }
}
