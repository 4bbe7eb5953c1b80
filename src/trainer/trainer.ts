// The training loop (docs/design.md §2): lease a batch of ready samples from the store, compute
// per-token advantages and the batch's numbers with rl/ (drop what is too stale), run one engine
// train step, publish the new weights (serving never pauses: the engine swaps them atomically),
// then mark the batch trained by this step, log it, and checkpoint every `save_interval` steps.
// A step is one transaction: everything that can fail without side effects runs first, and a step
// that fails before the engine's update returns its batch to ready and leaves no record anywhere
// (one that fails after it keeps the batch trained: it is never applied twice).
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { PolicyEngine, TrainOptions, TrainSample } from '../engines/types.ts';
import { modeSpec } from '../methods/index.ts';
import { batchStats, computeAdvantages, normalizeRewards, type AdvantageConfig } from '../rl/index.ts';
import type { LeaseOrder, SampleStore, StoredSample } from '../samples/index.ts';
import { TrainLog, type StepMetrics } from './log.ts';
import { OpenClawError } from '../errors/index.ts';
import { checkpointOfVersion, pruneCheckpoints, rollbackTarget, saveCheckpoint } from './checkpoints.ts';
import { ProbeGate } from './probe-gate.ts';
import {
  HoldoutReserver,
  ServingHeldOutScores,
  batchCheck,
  holdoutLogprobs,
  judgeCandidate,
  oneByOne,
  trainedScorer,
  type GateVerdict,
} from './gate.ts';
import { studentLogprobsForOpd } from './opd-temperature.ts';
import {
  evaluationStepMetrics,
  servingModel,
  trainedModel,
  VersionEvaluator,
  type EvaluationParts,
  type VersionEvaluationResult,
} from './evaluate.ts';

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
  private readonly probeGate: ProbeGate;
  /** Each held-out answer's log-probs the first time this process scored it (the gate's direction check). */
  private anchors = new Map<string, number[]>();
  private readonly servingHeld = new ServingHeldOutScores();
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
    this.probeGate = new ProbeGate(deps.config, deps.engine, deps.evaluation ?? {});
    this.step = deps.startStep ?? 0;
    this.savedStep = this.step;
    if (deps.config.evaluation.gate !== undefined && deps.engine.scoreTrained === undefined) this.warnUngated();
  }

  private warnUngated(): void {
    this.deps.log?.warn(
      `evaluation.gate is set, but the ${this.deps.engine.kind} engine cannot score unpublished weights: every trained version serves unchecked`,
    );
  }

  /** Keeps the first scores of newly held-out answers, and only those of answers still held out. */
  private anchorHeldOut(held: StoredSample[], scores: number[][]): void {
    const next = new Map<string, number[]>();
    held.forEach((s, i) => next.set(s.id, this.anchors.get(s.id) ?? scores[i]));
    this.anchors = next;
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

  private async runStep(order?: LeaseOrder): Promise<StepMetrics | undefined> {
    const { engine, store, config } = this.deps;
    const t0 = performance.now();
    this.holdout.reserveNew();
    // A refused version rolls back to the serving one's checkpoint: make sure there is one.
    const gated = await this.gated();
    if (gated && config.evaluation.gate?.on_fail === 'rollback' && checkpointOfVersion(config.output_dir, engine.version()) === undefined)
      await this.checkpoint({ rollback: true });
    const lease = store.leaseBatch(config.training.batch_size, {
      currentVersion: engine.version(),
      maxStaleness: config.training.max_staleness,
      order,
    });
    if (lease.samples.length === 0) return undefined;
    let settled = false; // the lease is trained or refused: no longer returned to ready on a failure
    let updated = false; // the engine's training state took this batch's update
    try {
      // Everything that can fail without a side effect comes first.
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
      let baseline: number[][] | undefined;
      // Wall time the gate's checks take in this step (gate_time_s: what the gate costs).
      let gateStart = performance.now();
      if (held !== undefined) {
        baseline = await this.servingHeld.of(
          config,
          held,
          engine.version(),
          this.trainedIsServed ? trainedScorer(engine) : oneByOne((r) => engine.score(r)),
        );
        this.anchorHeldOut(held, baseline);
        if (this.trainedIsServed) await this.probeGate.servingBaseline(engine.version());
      }
      let gateMs = performance.now() - gateStart;
      // Replay evaluation: the serving version once (the first version a run trains from), then each
      // new one — staged on the training thread where the engine can, else after it is published.
      const evaluator = train.length > 0 ? this.evaluator : undefined;
      const staged = evaluator !== undefined && (await evaluator.canStage());
      if (evaluator !== undefined && staged && this.trainedIsServed) await evaluator.baseline(engine.version(), trainedModel(engine));
      const engineMetrics = train.length > 0 && engine.trainStep ? await engine.trainStep(train, trainOptionsFrom(config)) : undefined;
      updated = engineMetrics !== undefined;
      let verdict: GateVerdict | undefined;
      let probeMetrics: Record<string, number> | undefined;
      let batchMetrics: Record<string, number> | undefined;
      let candidate: number[][] | undefined;
      if (held !== undefined && baseline !== undefined) {
        gateStart = performance.now();
        const enough = held.length >= config.evaluation.gate!.min_samples;
        candidate = enough ? await holdoutLogprobs(config, held, trainedScorer(engine)) : undefined;
        verdict = judgeCandidate(
          config,
          held,
          baseline,
          candidate,
          held.map((s) => this.anchors.get(s.id)!),
        );
        // A collapse is refused whatever the held-out answers say, and with none held out yet.
        if (updated) {
          const batch = await batchCheck(config, lease.samples, advantages, trainedScorer(engine));
          batchMetrics = batch.metrics;
          if (verdict.pass) verdict = batch.refusal ?? verdict;
        }
        // And so is a version whose answers to the probes stopped being answers or moved far (its
        // numbers go in the step line whatever refused the version).
        if (updated) {
          const probeStart = performance.now();
          const probes = await this.probeGate.check(engine.version());
          probeMetrics = probes.metrics && { ...probes.metrics, gate_probe_time_s: (performance.now() - probeStart) / 1000 };
          if (verdict.pass) verdict = probes.refusal ?? verdict;
        }
        gateMs += performance.now() - gateStart;
      }
      const refused = verdict !== undefined && !verdict.pass;
      let evaluation: VersionEvaluationResult | undefined;
      if (evaluator !== undefined && staged && !refused)
        evaluation = await evaluator.evaluate(trainedModel(engine), (r) => engine.score(r));
      const step = this.step + 1;
      let version: number;
      if (refused) {
        // Not served; the batch is kept, dropped as 'rejected', for inspection.
        version = engine.version();
        if (config.evaluation.gate?.on_fail === 'rollback') this.trainedIsServed = await this.restoreServing();
        else this.trainedIsServed = false;
        store.dropLease(lease.leaseId, 'rejected');
        settled = true;
      } else {
        version = train.length > 0 && engine.publish ? await engine.publish() : engine.version();
        settled = true;
        if (train.length > 0 && engine.publish) {
          this.trainedIsServed = true;
          this.lastServedAt = Date.now();
          // The candidate's held-out scores are the new serving version's.
          if (held !== undefined && candidate !== undefined) this.servingHeld.keep(version, held, candidate);
          this.probeGate.served(version);
        }
        store.markTrained(lease.leaseId, step);
        // Engines that cannot sample staged weights: the version just published, one prompt at a time.
        if (evaluator !== undefined && !staged && version !== versionAtLease) evaluation = await evaluator.evaluate(servingModel(engine));
        if (evaluation !== undefined) evaluator!.record(version, evaluation);
      }
      this.step = step;
      if (verdict !== undefined) {
        this.lastGate = verdict;
        if (refused) {
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
      }
      const m: StepMetrics = {
        step,
        policy_version: version,
        batch_size: lease.samples.length,
        advantage_mean: stats.advantage_mean,
        advantage_std: stats.advantage_std,
        effective_sample_rate: stats.effective_sample_rate,
        hint_accept_rate: 0,
        reward_mean: stats.reward_mean,
        pg_loss: engineMetrics?.pg_loss ?? 0,
        pg_clipfrac: engineMetrics?.pg_clipfrac ?? 0,
        ppo_kl: engineMetrics?.ppo_kl ?? 0,
        entropy: engineMetrics?.entropy ?? 0,
        kl_loss: engineMetrics?.kl_loss ?? 0,
        grad_norm: engineMetrics?.grad_norm ?? 0,
        staleness_mean: stats.staleness_mean,
        stale_dropped: lease.staleDropped,
        train_rollout_logprob_abs_diff: engineMetrics?.train_rollout_logprob_abs_diff ?? 0,
        response_length_mean: stats.response_length_mean,
        tokens: engineMetrics?.tokens ?? 0,
        step_time_s: (performance.now() - t0) / 1000,
        ...(verdict !== undefined
          ? {
              gate_passed: verdict.pass ? 1 : 0,
              gate_time_s: gateMs / 1000,
              gate_drop: verdict.drop,
              ...(verdict.bound !== undefined ? { gate_bound: verdict.bound } : {}),
              gate_samples: verdict.samples,
              ...(verdict.candidate !== undefined ? { gate_candidate: verdict.candidate } : {}),
              ...(verdict.baseline !== undefined ? { gate_baseline: verdict.baseline } : {}),
            }
          : {}),
        ...(batchMetrics ?? {}),
        ...(probeMetrics ?? {}),
        ...(evaluation !== undefined ? evaluationStepMetrics(evaluation) : {}),
        ...(this.deps.extraStats?.() ?? {}),
      };
      this.log.write(m);
      this.deps.onStep?.(m);
      // Held refused weights are ahead of the served ones: a checkpoint now would name them by the
      // serving version, so the next one waits for a version that serves.
      const every = config.training.save_interval;
      if (every > 0 && this.step - this.savedStep >= every && !(refused && config.evaluation.gate?.on_fail === 'hold'))
        await this.checkpoint();
      return m;
    } catch (err) {
      // Before the update nothing changed that serving, training or a record could see: the batch
      // goes back. After the update (a gate check or a rollback failed) the training weights hold
      // it already: training the batch again would apply it twice, so it counts as trained by this
      // step, and the update serves with the next version that passes. After publishing, the step
      // is kept (its weights serve) and only the failed part is reported.
      if (!settled && updated) {
        store.markTrained(lease.leaseId, this.step + 1);
        this.deps.log?.warn(
          { step: this.step + 1, err: (err as Error).message },
          'step failed after its update: the batch stays trained, unpublished',
        );
      } else if (!settled) store.releaseLease(lease.leaseId);
      throw err;
    }
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
