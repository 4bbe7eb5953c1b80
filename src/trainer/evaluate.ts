// The trainer's replay evaluation of each new version (docs/evaluation.md "Replay evaluation"):
// which weights answer (staged on the training thread before they serve, or — on engines that
// cannot sample unpublished weights — the published version through `generate`, after publish),
// what it costs in the step line, and the per-version rows in the store. An evaluation that fails
// is logged and skipped: it never fails a training step.
import type { Logger } from 'pino';
import type { OutputParser } from '../chat/index.ts';
import { probesOf, type Config, type Probe } from '../config/index.ts';
import type { PolicyEngine, ScoreRequest, ScoreResult } from '../engines/types.ts';
import {
  replayHeldOut,
  runProbes,
  type AnswerSettings,
  type HintCheckSettings,
  type ReplayMetrics,
  type VersionModel,
} from '../evaluation/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { Teacher } from '../scoring/index.ts';

/** What the evaluation needs from the policy and the scoring side (absent parts turn metrics off). */
export interface EvaluationParts {
  /** The hinted teacher (the pipeline's): replay_opd_advantage needs it. */
  teacher?: Teacher | null;
  /** A model judge: replay_hint_satisfied. */
  hintCheck?: HintCheckSettings;
  /** The policy's chat tokenizer: answer text and where an answer ends. */
  tokenizer?: { decode(ids: number[]): string; stopTokenIds: number[]; outputParser?(promptIds: readonly number[]): OutputParser };
  /** Probe messages and tools → prompt ids (the policy's chat template). */
  render?: (messages: Probe['messages'], tools?: Probe['tools']) => number[] | Promise<number[]>;
}

/** One evaluation's numbers and its wall time. */
export interface VersionEvaluationResult {
  metrics: ReplayMetrics;
  seconds: number;
}

/** The step-line keys of an evaluation (`replay_*`, `probe_*`, like the gate's `gate_*`). */
export function evaluationStepMetrics(r: VersionEvaluationResult): Record<string, number> {
  const out: Record<string, number> = { eval_time_s: r.seconds };
  for (const [name, m] of Object.entries(r.metrics)) out[name] = m.value;
  const replay = r.metrics.replay_opd_advantage ?? r.metrics.replay_hint_satisfied;
  if (replay !== undefined) out.replay_samples = replay.samples;
  const probes = r.metrics.probe_length_mean;
  if (probes !== undefined) out.probe_samples = probes.samples;
  return out;
}

/** The trained (staged) weights of an engine that can sample and score them away from serving. */
export function trainedModel(engine: PolicyEngine): VersionModel {
  const many = engine.generateTrainedMany?.bind(engine);
  return {
    generate: (r) => engine.generateTrained!(r),
    score: (r) => engine.scoreTrained!(r),
    ...(many !== undefined ? { generateMany: many } : {}),
  };
}

/** The serving weights of an engine. */
export function servingModel(engine: PolicyEngine): VersionModel {
  return { generate: (r) => engine.generate(r), score: (r) => engine.score(r) };
}

/**
 * Whether `engine` can sample its trained weights before they serve, asked once and remembered;
 * an engine that cannot say yet (server unreachable) is asked again next time.
 */
export function stagingCheck(engine: PolicyEngine): () => Promise<boolean> {
  let known: Promise<boolean> | undefined;
  return () => {
    if (engine.generateTrained === undefined || engine.scoreTrained === undefined) return Promise.resolve(false);
    known ??= Promise.resolve(engine.canGenerateTrained?.() ?? true).catch(() => {
      known = undefined;
      return false;
    });
    return known;
  };
}

/** How a version answers in an evaluation: as it would serve (the rollout's sampling), up to `maxTokens`. */
export function answerSettings(config: Config, tokenizer: EvaluationParts['tokenizer'], maxTokens: number): AnswerSettings {
  return {
    temperature: config.rollout.temperature,
    topP: config.rollout.top_p,
    maxTokens,
    stopTokenIds: tokenizer?.stopTokenIds ?? [],
    decode: tokenizer ? (ids) => tokenizer.decode(ids) : undefined,
    parser: tokenizer?.outputParser ? (promptIds) => tokenizer.outputParser!(promptIds) : undefined,
  };
}

/** Runs and records the replay evaluation of new versions for one trainer. */
export class VersionEvaluator {
  private readonly probes: Probe[];
  /** Whether the engine can sample its trained weights before they serve (asked once). */
  readonly canStage: () => Promise<boolean>;

  constructor(
    private readonly config: Config,
    private readonly engine: PolicyEngine,
    private readonly store: SampleStore,
    private readonly parts: EvaluationParts,
    private readonly log?: Logger,
  ) {
    this.probes = parts.render !== undefined ? probesOf(config) : [];
    this.canStage = stagingCheck(engine);
    if (config.evaluation.probe_file !== undefined && parts.render === undefined)
      log?.warn('evaluation.probe_file is set, but this policy has no chat template to render probes with: probes are skipped');
  }

  /** Whether anything is evaluated per version. */
  get enabled(): boolean {
    return this.replayOn || this.probes.length > 0;
  }

  private get replayOn(): boolean {
    return this.config.evaluation.replay_max > 0 && this.parts.teacher != null && this.parts.tokenizer !== undefined;
  }

  /** Versions this process evaluated (also those that yielded no numbers: nothing to measure yet). */
  private readonly tried = new Set<number>();

  /**
   * The serving version's numbers when it has none yet (the version a run starts or resumes from):
   * the point the first trained version is compared with. Each version is evaluated once.
   */
  async baseline(version: number, model: VersionModel): Promise<void> {
    if (this.tried.has(version) || this.store.versionEvaluations().some((r) => r.policyVersion === version)) return;
    this.record(version, await this.evaluate(model));
  }

  /**
   * Evaluates `model`; `serving` scores the weights serving now for probe_kl (absent when `model`
   * is the serving version). Never throws: a failed evaluation is logged and yields no numbers.
   */
  async evaluate(model: VersionModel, serving?: (req: ScoreRequest) => Promise<ScoreResult>): Promise<VersionEvaluationResult> {
    const t0 = performance.now();
    const metrics: ReplayMetrics = {};
    const c = this.config;
    const answer = answerSettings(c, this.parts.tokenizer, c.evaluation.replay_max_tokens ?? c.rollout.max_tokens);
    const skipped = (what: string) => (id: string, err: unknown) =>
      this.log?.warn({ [what]: id, err: err instanceof Error ? err.message : String(err) }, `replay evaluation: ${what} skipped`);
    try {
      if (this.replayOn) {
        const held = this.store.replaySamples(c.evaluation.replay_max);
        Object.assign(
          metrics,
          await replayHeldOut(held, model, {
            ...answer,
            teacher: this.parts.teacher!,
            hintCheck: this.parts.hintCheck,
            onSkip: skipped('sample'),
          }),
        );
      }
      if (this.probes.length > 0) {
        Object.assign(
          metrics,
          await runProbes(this.probes, model, {
            ...answer,
            maxTokens: c.evaluation.probe_max_tokens,
            render: this.parts.render!,
            serving,
            onSkip: skipped('probe'),
          }),
        );
      }
    } catch (err) {
      this.log?.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'replay evaluation failed; the version has no replay numbers',
      );
    }
    return { metrics, seconds: (performance.now() - t0) / 1000 };
  }

  /** Stores a version's numbers (version_evaluations). */
  record(version: number, r: VersionEvaluationResult): void {
    this.tried.add(version);
    for (const [metric, m] of Object.entries(r.metrics))
      this.store.recordVersionEvaluation({ policyVersion: version, metric, value: m.value, samples: m.samples });
  }
}
