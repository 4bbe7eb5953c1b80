// The training loop (docs/design.md §2): lease a batch of ready samples from the store, compute
// per-token advantages and the batch's numbers with rl/ (drop what is too stale), run one engine
// train step, publish the new weights (serving never pauses: the engine swaps them atomically),
// then mark the batch trained by this step, log it, and checkpoint every `save_interval` steps.
// A step is one transaction: everything that can fail without side effects runs first, and a step
// that fails before the engine's update returns its batch to ready and leaves no record anywhere
// (one that fails after it keeps the batch trained: it is never applied twice). Each phase of a
// step says which (step-failure.ts); the gate's part is step-gate.ts, the step line step-metrics.ts.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { PolicyEngine, TrainOptions, TrainSample, TrainStepMetrics } from '../engines/types.ts';
import { modeSpec } from '../methods/index.ts';
import { batchStats, computeAdvantages, normalizeRewards, type AdvantageConfig, type BatchStats } from '../rl/index.ts';
import type { Lease, LeaseOrder, SampleStore, StoredSample } from '../samples/index.ts';
import { TrainLog, type StepMetrics } from './log.ts';
import { OpenClawError } from '../errors/index.ts';
import { checkpointOfVersion, pruneCheckpoints, rollbackTarget, saveCheckpoint } from './checkpoints.ts';
import { HoldoutReserver, type GateVerdict } from './gate.ts';
import { studentLogprobsForOpd } from './opd-temperature.ts';
import { servingModel, trainedModel, VersionEvaluator, type EvaluationParts, type VersionEvaluationResult } from './evaluate.ts';
import { phase, settleFailedStep, type BatchOnFailure } from './step-failure.ts';
import { StepGate, type GateBaseline, type GateResult } from './step-gate.ts';
import { stepMetrics, type StepRecord } from './step-metrics.ts';

/** What a rollback did. */
export interface RollbackResult {
  /** The version served before. */
  from_version: number;
  /** The version whose kept state was restored. */
  to_version: number;
  /** The number the restored weights are served as now (versions are never reused). */
  policy_version: number;
  /** The checkpoint restored, and the one written so a restart continues from the rollback. */
  restored: string;
  checkpoint: string;
}

/** What the trainer needs besides the config. */
export interface TrainerDeps {
  engine: PolicyEngine;
  store: SampleStore;
  config: Config;
  log?: Logger;
  /** Running rates from the scoring stage (hint_accept_rate, …), merged into each step line. */
  extraStats?: () => Record<string, number>;
  /** Called after every step (progress bars, dashboards, tests). */
  onStep?: (m: StepMetrics) => void;
  /** Poll interval while waiting for a full batch. */
  pollMs?: number;
  /** Steps already done by the run this one resumes (its checkpoint's step); default 0. */
  startStep?: number;
  /** Checked before each checkpoint is written: throws when its folder cannot take one now. */
  assertWritable?: (what: string) => void;
  /** Every failed step and checkpoint, as thrown, with the path it was writing (storage faults are counted from these). */
  onError?: (err: unknown, during: 'step' | 'checkpoint', path: string) => void;
  /** Teacher, judge and tokenizer for the replay evaluation of new versions (absent: none runs). */
  evaluation?: EvaluationParts;
}

/** Train options of the engine from the config. */
export function trainOptionsFrom(config: Config): TrainOptions {
  const t = config.training;
  return {
    loss: {
      clipRatio: t.clip_ratio,
      clipRatioHigh: t.clip_ratio_high,
      klCoef: t.kl_coef,
      entropyCoef: t.entropy_coef,
      distillTopKCoef: config.scoring.distill_topk > 0 ? 1 : 0,
    },
    lr: t.lr,
    epochs: t.epochs,
    minibatches: t.minibatches,
    maxGradNorm: t.max_grad_norm,
    weightDecay: t.weight_decay,
    temperature: config.rollout.temperature,
  };
}

/**
 * Turns stored samples into engine train samples (advantages per token; masked samples skipped).
 * `student[i]`: sample i's policy log-probs at the teacher's temperature (opd-temperature.ts), when
 * the rollout's differ from it.
 */
export function toTrainSamples(
  samples: StoredSample[],
  config: Config,
  student: ReadonlyArray<number[] | null> = [],
): { train: TrainSample[]; advantages: Float64Array[] } {
  const rewards = config.training.normalize_rewards ? normalizeRewards(samples.map((s) => s.reward)) : samples.map((s) => s.reward);
  const settings: AdvantageConfig = {
    terms: modeSpec(config.mode).advantage,
    wOpd: config.training.w_opd,
    wRl: config.training.w_rl,
    opdAdvClip: config.training.opd_adv_clip ?? null,
  };
  const train: TrainSample[] = [];
  const advantages: Float64Array[] = [];
  samples.forEach((s, i) => {
    if (s.lossMask !== 1) {
      advantages.push(new Float64Array(s.responseIds.length));
      return;
    }
    const adv = computeAdvantages(
      { reward: rewards[i], rolloutLogprobs: s.rolloutLogprobs, teacherLogprobs: s.teacherLogprobs, studentLogprobs: student[i] },
      settings,
    );
    advantages.push(adv);
    train.push({
      promptIds: s.promptIds,
      responseIds: s.responseIds,
      rolloutLogprobs: s.rolloutLogprobs,
      advantages: Array.from(adv),
      lossMask: new Array(s.responseIds.length).fill(1),
      teacherTopK: s.teacherTopK ?? undefined,
    });
  });
  return { train, advantages };
}

/** A leased batch made ready to train: everything a step computes before anything changes. */
interface PreparedBatch {
  lease: Lease;
  /** The version serving when the batch was leased. */
  versionAtLease: number;
  train: TrainSample[];
  /** Per-token advantages of every leased sample (zeros for masked ones). */
  advantages: Float64Array[];
  stats: BatchStats;
  /** The serving version's side of the gate (undefined: the step is not gated, or trains nothing). */
  gateBaseline: GateBaseline | undefined;
  /** The replay evaluator of this step's version (undefined: none, or nothing trained), and whether it samples staged weights. */
  evaluator: VersionEvaluator | undefined;
  staged: boolean;
}

/** Background trainer: `start()` runs until `stop()`. */
export class Trainer {
  readonly log: TrainLog;
  step = 0;
  lastError: string | undefined;
  /** The step of the newest checkpoint on disk (resumed from, or saved by this trainer). */
  savedStep = 0;
  /** Versions the regression gate refused, and its last verdict. */
  gateRefusals = 0;
  lastGate: GateVerdict | undefined;
  /**
   * Whether the trained weights are the served ones (true at start, after a publish or a
   * rollback; false after a refused version under on_fail hold). Then the gate scores the
   * serving version's baseline on the training thread, before the step, never on the serving one.
   */
  private trainedIsServed = true;
  /** When a trained version last started serving (epoch ms; the start counts), for /healthz. */
  lastServedAt = Date.now();
  private readonly holdout: HoldoutReserver;
  private readonly evaluator: VersionEvaluator | undefined;
  /** The gate's held-out scores and probe answers, kept between steps. */
  private readonly stepGate: StepGate;
  private running = false;
  private paused = false;
  private loop: Promise<void> | undefined;
  /** Steps and rollbacks run one at a time, in order. */
  private exclusive: Promise<unknown> = Promise.resolve();
  private wake: (() => void) | undefined;
  private readonly deps: TrainerDeps;

  constructor(deps: TrainerDeps) {
    this.deps = deps;
    this.log = new TrainLog(deps.config.output_dir);
    this.holdout = new HoldoutReserver(deps.store, deps.config.evaluation.holdout_fraction);
    const evaluator =
      deps.evaluation !== undefined ? new VersionEvaluator(deps.config, deps.engine, deps.store, deps.evaluation, deps.log) : undefined;
    this.evaluator = evaluator?.enabled ? evaluator : undefined;
    this.stepGate = new StepGate(deps.config, deps.engine, deps.evaluation ?? {});
    this.step = deps.startStep ?? 0;
    this.savedStep = this.step;
    if (deps.config.evaluation.gate !== undefined && deps.engine.scoreTrained === undefined) this.warnUngated();
  }

  private warnUngated(): void {
    this.deps.log?.warn(
      `evaluation.gate is set, but the ${this.deps.engine.kind} engine cannot score unpublished weights: every trained version serves unchecked`,
    );
  }

  /** Whether trained versions go through the regression gate before they serve. */
  private gated(): boolean {
    return this.deps.config.evaluation.gate !== undefined && this.deps.engine.scoreTrained !== undefined;
  }

  /** Starts the loop in the background. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Holds further steps (the current one finishes) until `resume()`: e.g. while evaluating a version. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.notify();
  }

  /** Nudges the loop (e.g. when a sample became ready) instead of waiting for the next poll. */
  notify(): void {
    this.wake?.();
  }

  /** Stops after the current step; saves a final checkpoint when steps were trained since the last one. */
  async stop(): Promise<void> {
    this.running = false;
    this.notify();
    await this.loop;
    if (this.step > this.savedStep) await this.checkpoint();
  }

  private async run(): Promise<void> {
    const batchSize = this.deps.config.training.batch_size;
    const maxSteps = this.deps.config.training.max_steps;
    while (this.running) {
      if (maxSteps > 0 && this.step >= maxSteps) {
        this.running = false;
        break;
      }
      this.holdout.reserveNew();
      if (!this.paused && this.deps.store.countReady() >= batchSize) {
        try {
          await this.trainOnce();
          this.lastError = undefined;
        } catch (err) {
          this.lastError = (err as Error).message;
          this.deps.onError?.(err, 'step', this.deps.config.output_dir);
          this.deps.log?.error({ err: this.lastError }, 'training step failed; batch returned to ready');
          if (this.running) await this.idle(5000);
        }
      } else await this.idle(this.deps.pollMs ?? 500);
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(t);
        self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.exclusive.then(fn);
    this.exclusive = run.catch(() => undefined);
    return run;
  }

  /**
   * One step on the oldest ready batch (`order` 'session': the first ready samples by session and
   * turn, for a reproducible run); returns its metrics (undefined when nothing was leased).
   */
  trainOnce(opts: { order?: LeaseOrder } = {}): Promise<StepMetrics | undefined> {
    return this.serial(() => this.runStep(opts.order));
  }

  /**
   * Rollback (after the step in flight): the kept checkpoint served as `toVersion` becomes the
   * trained and the served state at once, under a new version number; a checkpoint of it is saved
   * so a restart continues from here. Samples trained since stay trained (their updates were
   * rejected, not lost).
   */
  rollback(toVersion: number): Promise<RollbackResult> {
    return this.serial(async () => {
      const { engine, store, config } = this.deps;
      const restore = engine.restore?.bind(engine);
      const save = engine.save?.bind(engine);
      if (restore === undefined || save === undefined) {
        throw new OpenClawError('invalid_request', `the ${engine.kind} engine cannot roll back`, { code: 'rollback_unsupported' });
      }
      const { target } = rollbackTarget(config.output_dir, toVersion, 'version');
      const from = engine.version();
      const version = Math.max(from, store.maxPolicyVersion()) + 1;
      await restore(target.dir, version);
      this.trainedIsServed = true;
      const saved = await saveCheckpoint(
        config.output_dir,
        { step: this.step, policy_version: version, engine: engine.kind },
        (d) => this.guardedSave(save, d),
        { rollback: true },
      );
      this.savedStep = this.step;
      const result: RollbackResult = {
        from_version: from,
        to_version: toVersion,
        policy_version: version,
        restored: target.dir,
        checkpoint: saved.dir,
      };
      this.log.event('rollback', {
        at_step: this.step,
        from_version: from,
        to_version: toVersion,
        policy_version: version,
        restored: target.dir,
      });
      this.deps.log?.warn(result, 'rolled back');
      return result;
    });
  }

  /**
   * One step, phase by phase. Each phase names what becomes of the batch if it fails
   * (step-failure.ts), and the one catch settles the lease so and rethrows the error as thrown.
   */
  private async runStep(order?: LeaseOrder): Promise<StepMetrics | undefined> {
    const t0 = performance.now();
    const gated = await this.readyRollbackPoint();
    const lease = this.leaseBatch(order);
    if (lease === undefined) return undefined;
    try {
      // Until the engine takes the update nothing changed that serving, training or a record could
      // see: a failure returns the batch to ready.
      const batch = await phase('release', () => this.prepareBatch(lease, gated));
      const engineMetrics = await phase('release', () => this.train(batch));
      // From the update until the version serves or is refused the training weights hold the batch:
      // a failure keeps it trained by this step (never applied twice), unpublished.
      const updated = engineMetrics !== undefined;
      const unpublished: BatchOnFailure = updated ? 'mark_trained' : 'release';
      const gate = await phase(unpublished, () => this.judge(batch, updated));
      const refused = gate !== undefined && !gate.verdict.pass;
      const staged = await phase(unpublished, () => this.evaluateStaged(batch, refused));
      const step = this.step + 1;
      const version = await phase(unpublished, () => (refused ? this.refuse(lease) : this.publish(batch)));
      // Served or refused, the batch is settled: a failure from here on keeps the step, and only
      // the failed part is reported.
      if (!refused) await phase('keep', () => this.settlePublished(batch, gate, version, step));
      const evaluation = refused ? undefined : await phase('keep', () => this.recordEvaluation(batch, staged, version));
      const extraStats = () => this.deps.extraStats?.();
      const record: StepRecord = { step, version, lease, stats: batch.stats, engineMetrics, gate, evaluation, t0, extraStats };
      return await phase('keep', () => this.finishStep(record, refused));
    } catch (err) {
      throw settleFailedStep(this.deps.store, lease, err, this.step + 1, this.deps.log);
    }
  }

  /**
   * Before a step: newly held-out samples leave training, and — since a refused version rolls back
   * to the serving one's checkpoint — under on_fail rollback there is one. Returns whether the step is gated.
   */
  private async readyRollbackPoint(): Promise<boolean> {
    const { engine, config } = this.deps;
    this.holdout.reserveNew();
    const gated = this.gated();
    if (gated && config.evaluation.gate?.on_fail === 'rollback' && checkpointOfVersion(config.output_dir, engine.version()) === undefined)
      await this.checkpoint({ rollback: true });
    return gated;
  }

  /** Leases the next batch (too stale samples dropped); undefined when none is ready. */
  private leaseBatch(order?: LeaseOrder): Lease | undefined {
    const { engine, store, config } = this.deps;
    const lease = store.leaseBatch(config.training.batch_size, {
      currentVersion: engine.version(),
      maxStaleness: config.training.max_staleness,
      order,
    });
    return lease.samples.length > 0 ? lease : undefined;
  }

  /**
   * What a step computes before the update, all of which can fail without a side effect: the batch's
   * advantages and numbers, the gate's baseline (the serving version on the held-out answers), and
   * the replay evaluation's — the serving version once (the first version a run trains from).
   */
  private async prepareBatch(lease: Lease, gated: boolean): Promise<PreparedBatch> {
    const { engine, store, config } = this.deps;
    const versionAtLease = engine.version();
    const student = await studentLogprobsForOpd(lease.samples, config, (r) => (engine.scoreTrained ?? engine.score).call(engine, r));
    const { train, advantages } = toTrainSamples(lease.samples, config, student);
    const stats = batchStats(
      lease.samples.map((s, i) => ({
        advantages: advantages[i],
        lossMask: s.lossMask,
        reward: s.reward,
        policyVersion: s.policyVersion,
      })),
      versionAtLease,
    );
    const held = train.length > 0 && gated ? store.holdoutSamples(config.evaluation.holdout_max) : undefined;
    const gateBaseline = held !== undefined ? await this.stepGate.baseline(held, this.trainedIsServed) : undefined;
    // Each new version is evaluated staged on the training thread where the engine can, else after it is published.
    const evaluator = train.length > 0 ? this.evaluator : undefined;
    const staged = evaluator !== undefined && (await evaluator.canStage());
    if (evaluator !== undefined && staged && this.trainedIsServed) await evaluator.baseline(engine.version(), trainedModel(engine));
    return { lease, versionAtLease, train, advantages, stats, gateBaseline, evaluator, staged };
  }

  /** The engine's update on the batch; undefined when there is nothing to train or the engine cannot. */
  private async train(batch: PreparedBatch): Promise<TrainStepMetrics | undefined> {
    const { engine, config } = this.deps;
    return batch.train.length > 0 && engine.trainStep ? await engine.trainStep(batch.train, trainOptionsFrom(config)) : undefined;
  }

  /** The gate's verdict on the trained weights (undefined: the step is not gated). */
  private async judge(batch: PreparedBatch, updated: boolean): Promise<GateResult | undefined> {
    if (batch.gateBaseline === undefined) return undefined;
    return this.stepGate.judge(batch.gateBaseline, batch.lease.samples, batch.advantages, updated);
  }

  /** The replay evaluation of the staged (trained, unpublished) weights of a version the gate let through. */
  private async evaluateStaged(batch: PreparedBatch, refused: boolean): Promise<VersionEvaluationResult | undefined> {
    const { engine } = this.deps;
    if (batch.evaluator === undefined || !batch.staged || refused) return undefined;
    return batch.evaluator.evaluate(trainedModel(engine), (r) => engine.score(r));
  }

  /**
   * A refused version does not serve: the training state goes back to the serving version's
   * (on_fail rollback) or holds the refused weights, and the batch is kept, dropped as 'rejected',
   * for inspection. Returns the version still serving.
   */
  private async refuse(lease: Lease): Promise<number> {
    const { engine, store, config } = this.deps;
    const version = engine.version();
    if (config.evaluation.gate?.on_fail === 'rollback') this.trainedIsServed = await this.restoreServing();
    else this.trainedIsServed = false;
    store.dropLease(lease.leaseId, 'rejected');
    return version;
  }

  /** Serves the trained weights (when the step trained any, on an engine that publishes); returns the version serving now. */
  private async publish(batch: PreparedBatch): Promise<number> {
    const { engine } = this.deps;
    return batch.train.length > 0 && engine.publish ? await engine.publish() : engine.version();
  }

  /** After a publish: the trained weights are the served ones, and the batch is trained by `step`. */
  private settlePublished(batch: PreparedBatch, gate: GateResult | undefined, version: number, step: number): void {
    const { engine, store } = this.deps;
    if (batch.train.length > 0 && engine.publish) {
      this.trainedIsServed = true;
      this.lastServedAt = Date.now();
      // The candidate's held-out scores and probe answers are the new serving version's.
      this.stepGate.served(version, batch.gateBaseline?.held, gate?.candidate);
    }
    store.markTrained(batch.lease.leaseId, step);
  }

  /**
   * The replay evaluation of a version that serves, stored: the staged one's, or — on engines that
   * cannot sample staged weights — the version just published, one prompt at a time.
   */
  private async recordEvaluation(
    batch: PreparedBatch,
    staged: VersionEvaluationResult | undefined,
    version: number,
  ): Promise<VersionEvaluationResult | undefined> {
    const { evaluator } = batch;
    let evaluation = staged;
    if (evaluator !== undefined && !batch.staged && version !== batch.versionAtLease)
      evaluation = await evaluator.evaluate(servingModel(this.deps.engine));
    if (evaluation !== undefined) evaluator!.record(version, evaluation);
    return evaluation;
  }

  /** The step counts: its gate verdict, its line (logged, handed to onStep), and a checkpoint when one is due. */
  private async finishStep(record: StepRecord, refused: boolean): Promise<StepMetrics> {
    const { config } = this.deps;
    this.step = record.step;
    if (record.gate !== undefined) this.recordGate(record.gate.verdict, record.step, record.version);
    const m = stepMetrics(record);
    this.log.write(m);
    this.deps.onStep?.(m);
    // Held refused weights are ahead of the served ones: a checkpoint now would name them by the
    // serving version, so the next one waits for a version that serves.
    const every = config.training.save_interval;
    if (every > 0 && this.step - this.savedStep >= every && !(refused && config.evaluation.gate?.on_fail === 'hold'))
      await this.checkpoint();
    return m;
  }

  /** The gate's last verdict; a refusal is counted, logged as a train-log event and warned about. */
  private recordGate(verdict: GateVerdict, step: number, version: number): void {
    this.lastGate = verdict;
    if (verdict.pass) return;
    this.gateRefusals++;
    this.log.event('gate_refused', {
      at_step: step,
      policy_version: version,
      metric: verdict.metric,
      drop: verdict.drop,
      reason: verdict.reason,
    });
    this.deps.log?.warn({ step, ...verdict }, 'regression gate refused the trained version; serving is unchanged');
  }

  /** on_fail rollback: the training state goes back to the serving version's checkpoint. */
  private async restoreServing(): Promise<boolean> {
    const { engine, config, log } = this.deps;
    const ck = checkpointOfVersion(config.output_dir, engine.version());
    if (ck === undefined || engine.restore === undefined) {
      log?.warn(
        { version: engine.version() },
        'no checkpoint of the serving version to roll back to: training continues from the refused weights',
      );
      return false;
    }
    await engine.restore(ck.dir, engine.version());
    return true;
  }

  /** The engine's save into `dir`, refused up front when storage cannot take it, failures reported. */
  private async guardedSave(save: (dir: string) => Promise<void>, dir: string): Promise<void> {
    try {
      this.deps.assertWritable?.(`checkpoint ${dir}`);
      await save(dir);
    } catch (err) {
      this.deps.onError?.(err, 'checkpoint', dir);
      throw err;
    }
  }

  private async checkpoint(opts: { rollback?: boolean } = {}): Promise<void> {
    const { engine, config, log } = this.deps;
    const save = engine.save?.bind(engine);
    if (save === undefined) return;
    const step = this.step;
    const { dir } = await saveCheckpoint(
      config.output_dir,
      { step, policy_version: engine.version(), engine: engine.kind },
      (d) => this.guardedSave(save, d),
      opts,
    );
    this.savedStep = step;
    log?.info({ dir, step }, 'checkpoint saved');
    for (const old of pruneCheckpoints(config.output_dir, config.training.keep_checkpoints))
      log?.info({ dir: old }, 'old checkpoint removed');
  }
}
