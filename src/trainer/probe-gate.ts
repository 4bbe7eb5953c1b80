// The gate's probe collapse check (issue 37, docs/evaluation.md "Gate"): before a trained version
// serves, it and the serving version answer the default probes and the user's (`probe_file`) with
// the same seeds; rl/collapse.ts compares the two. The serving version's answers are measured once
// per serving version. In: the staged (trained) and the serving weights, the policy's chat template
// and tokenizer. Out: a refusal with its reason, or undefined.
import { probesOf, type Config, type Probe } from '../config/index.ts';
import type { PolicyEngine } from '../engines/types.ts';
import { DEFAULT_PROBES, runProbes, type ReplayMetrics, type VersionModel } from '../evaluation/index.ts';
import { probeCollapse, type ProbeSummary } from '../rl/index.ts';
import { answerSettings, stagingCheck, trainedModel, type EvaluationParts } from './evaluate.ts';
import { refusalOf, type GateVerdict } from './gate.ts';

/** A version's probe answers as rl/collapse.ts reads them (undefined: no probe was answered). */
function summaryOf(m: ReplayMetrics): ProbeSummary | undefined {
  const length = m.probe_length_mean;
  if (length === undefined || length.samples === 0) return undefined;
  return {
    probes: length.samples,
    notAnswers: (m.probe_empty_rate?.value ?? 0) + (m.probe_garbled_rate?.value ?? 0),
    entropy: m.probe_entropy?.value ?? 0,
    length: length.value,
    ...(m.probe_tool_error_rate !== undefined ? { toolErrors: m.probe_tool_error_rate.value } : {}),
  };
}

export class ProbeGate {
  private readonly probes: Probe[];
  private serving: { version: number; summary: ProbeSummary | undefined } | undefined;
  /** The first serving version's answers in this process: drift that passes step by step adds up against it. */
  private anchor: ProbeSummary | undefined;
  private readonly canStage: () => Promise<boolean>;
  /** The last candidate's answers: once it serves, they are the serving version's (same weights, same seeds). */
  private lastCandidate: ProbeSummary | undefined;

  constructor(
    private readonly config: Config,
    private readonly engine: PolicyEngine,
    private readonly parts: EvaluationParts,
  ) {
    this.probes = [...DEFAULT_PROBES, ...probesOf(config)];
    this.canStage = stagingCheck(engine);
  }

  /** On where the gate is set with its probe check, and the policy has a chat template and a tokenizer to answer with. */
  get enabled(): boolean {
    const gate = this.config.evaluation.gate;
    return gate !== undefined && gate.probes.enabled && this.parts.render !== undefined && this.parts.tokenizer !== undefined;
  }

  private settings(serving?: VersionModel['score']) {
    const limits = this.config.evaluation.gate!.probes;
    return { ...answerSettings(this.config, this.parts.tokenizer, limits.max_tokens), render: this.parts.render!, serving };
  }

  /**
   * The serving version's answers, measured before a step while the training weights are the
   * served ones (on the training thread, all probes decoded together), so `check` has none to
   * sample on the serving thread, beside chats.
   */
  async servingBaseline(servingVersion: number): Promise<void> {
    if (!this.enabled || this.serving?.version === servingVersion || !(await this.canStage())) return;
    this.serving = {
      version: servingVersion,
      summary: summaryOf(await runProbes(this.probes, trainedModel(this.engine), this.settings())),
    };
  }

  /** The candidate last checked now serves as `version`: its answers need not be sampled again. */
  served(version: number): void {
    if (this.lastCandidate !== undefined) this.serving = { version, summary: this.lastCandidate };
    this.lastCandidate = undefined;
  }

  /**
   * The candidate (the engine's staged weights) against the serving version on the probes: a
   * refusal when it collapsed (else none), and the step-line numbers it read (none when it could
   * not run on this engine).
   */
  async check(servingVersion: number): Promise<{ refusal?: GateVerdict; metrics?: Record<string, number> }> {
    this.lastCandidate = undefined;
    if (!this.enabled || !(await this.canStage())) return {};
    const e = this.engine;
    const serving: VersionModel = { generate: (r) => e.generate(r), score: (r) => e.score(r) };
    const candidate = trainedModel(e);
    if (this.serving?.version !== servingVersion)
      this.serving = { version: servingVersion, summary: summaryOf(await runProbes(this.probes, serving, this.settings())) };
    this.anchor ??= this.serving.summary;
    const measured = await runProbes(this.probes, candidate, this.settings(serving.score));
    const base = this.serving.summary;
    const cand = summaryOf(measured);
    this.lastCandidate = cand;
    if (base === undefined || cand === undefined) return {};
    const kl = measured.probe_kl?.value;
    const metrics: Record<string, number> = {
      gate_probe_not_answers: cand.notAnswers,
      gate_probe_not_answers_serving: base.notAnswers,
      gate_probe_entropy: cand.entropy,
      gate_probe_entropy_serving: base.entropy,
      gate_probe_length: cand.length,
      gate_probe_length_serving: base.length,
      ...(kl !== undefined ? { gate_probe_kl: kl } : {}),
      ...(cand.toolErrors !== undefined ? { gate_probe_tool_errors: cand.toolErrors } : {}),
      ...(base.toolErrors !== undefined ? { gate_probe_tool_errors_serving: base.toolErrors } : {}),
    };
    const limits = this.config.evaluation.gate!.probes;
    // Against the serving version: every rule. Against the anchor: only whether answers are still
    // answers — healthy learning moves style, length and KL far from the start (the demo's
    // persona shortens probe answers ×4 in 8 steps), but not that.
    const reason =
      probeCollapse(base, cand, kl, limits) ??
      (this.anchor !== undefined
        ? probeCollapse(
            this.anchor,
            cand,
            undefined,
            { ...limits, max_entropy_ratio: Number.POSITIVE_INFINITY, max_length_ratio: Number.POSITIVE_INFINITY },
            'the first version served',
          )
        : null);
    if (reason === null) return { metrics };
    const refusal = refusalOf(this.config, `on the probes: ${reason}`, cand.probes);
    return { refusal, metrics };
  }
}
