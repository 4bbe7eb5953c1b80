// The regression gate's part of one training step (docs/evaluation.md "Gate"). Before the update:
// the serving version's scores of the held-out answers, and its probe answers. After it: the
// verdict on the trained weights from the held-out answers, the batch just trained and the probes.
// In: the engine, the held-out samples, the batch and its advantages. Out: a GateVerdict, the
// candidate's held-out scores, the step-line numbers and the time the gate took.
import type { Config } from '../config/index.ts';
import type { PolicyEngine } from '../engines/types.ts';
import type { StoredSample } from '../samples/index.ts';
import type { EvaluationParts } from './evaluate.ts';
import { ServingHeldOutScores, batchCheck, holdoutLogprobs, judgeCandidate, oneByOne, trainedScorer, type GateVerdict } from './gate.ts';
import { ProbeGate } from './probe-gate.ts';

/** The serving version's side of a step's gate, measured before the update. */
export interface GateBaseline {
  held: StoredSample[];
  /** The serving version's log-probs of `held`'s answers. */
  scores: number[][];
  /** Wall time it took (ms). */
  ms: number;
}

/** What the gate found about a step's trained weights. */
export interface GateResult {
  verdict: GateVerdict;
  /** The candidate's log-probs of the held-out answers (undefined: fewer than min_samples). */
  candidate: number[][] | undefined;
  /** The batch check's and the probe check's numbers for the step line (undefined: not run). */
  batchMetrics: Record<string, number> | undefined;
  probeMetrics: Record<string, number> | undefined;
  /** Wall time the gate's checks took in this step, before and after the update (ms): what the gate costs. */
  ms: number;
}

export class StepGate {
  private readonly probes: ProbeGate;
  /** Each held-out answer's log-probs the first time this process scored it (the gate's direction check). */
  private anchors = new Map<string, number[]>();
  private readonly servingHeld = new ServingHeldOutScores();

  constructor(
    private readonly config: Config,
    private readonly engine: PolicyEngine,
    parts: EvaluationParts,
  ) {
    this.probes = new ProbeGate(config, engine, parts);
  }

  /**
   * The serving version's scores of `held` (on the training thread when the trained weights are the
   * served ones, else one by one on the serving thread), and its probe answers where they can be
   * measured on the training thread.
   */
  async baseline(held: StoredSample[], trainedIsServed: boolean): Promise<GateBaseline> {
    const { config, engine } = this;
    const start = performance.now();
    const scores = await this.servingHeld.of(
      config,
      held,
      engine.version(),
      trainedIsServed ? trainedScorer(engine) : oneByOne((r) => engine.score(r)),
    );
    this.anchorHeldOut(held, scores);
    if (trainedIsServed) await this.probes.servingBaseline(engine.version());
    return { held, scores, ms: performance.now() - start };
  }

  /**
   * The verdict on the trained weights against `baseline`; with `updated` (the engine took this
   * batch's update) the batch and probe checks too. `advantages[i]`: what batch[i] was trained with.
   */
  async judge(
    baseline: GateBaseline,
    batch: StoredSample[],
    advantages: ReadonlyArray<ArrayLike<number>>,
    updated: boolean,
  ): Promise<GateResult> {
    const { config, engine } = this;
    const { held } = baseline;
    const start = performance.now();
    const enough = held.length >= config.evaluation.gate!.min_samples;
    const candidate = enough ? await holdoutLogprobs(config, held, trainedScorer(engine)) : undefined;
    let verdict = judgeCandidate(
      config,
      held,
      baseline.scores,
      candidate,
      held.map((s) => this.anchors.get(s.id)!),
    );
    let batchMetrics: Record<string, number> | undefined;
    let probeMetrics: Record<string, number> | undefined;
    // A collapse is refused whatever the held-out answers say, and with none held out yet.
    if (updated) {
      const checked = await batchCheck(config, batch, advantages, trainedScorer(engine));
      batchMetrics = checked.metrics;
      if (verdict.pass) verdict = checked.refusal ?? verdict;
    }
    // And so is a version whose answers to the probes stopped being answers or moved far (its
    // numbers go in the step line whatever refused the version).
    if (updated) {
      const probeStart = performance.now();
      const probes = await this.probes.check(engine.version());
      probeMetrics = probes.metrics && { ...probes.metrics, gate_probe_time_s: (performance.now() - probeStart) / 1000 };
      if (verdict.pass) verdict = probes.refusal ?? verdict;
    }
    return { verdict, candidate, batchMetrics, probeMetrics, ms: baseline.ms + (performance.now() - start) };
  }

  /** A trained version now serves as `version`: its held-out scores (when the gate scored them) and probe answers are the serving one's. */
  served(version: number, held: StoredSample[] | undefined, candidate: number[][] | undefined): void {
    if (held !== undefined && candidate !== undefined) this.servingHeld.keep(version, held, candidate);
    this.probes.served(version);
  }

  /** Keeps the first scores of newly held-out answers, and only those of answers still held out. */
  private anchorHeldOut(held: StoredSample[], scores: number[][]): void {
    const next = new Map<string, number[]>();
    held.forEach((s, i) => next.set(s.id, this.anchors.get(s.id) ?? scores[i]));
    this.anchors = next;
  }
}
