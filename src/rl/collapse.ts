// The probe collapse check of the regression gate (issue 37, docs/evaluation.md "Gate"): the
// serving and the candidate version answer the same probes with the same seeds, and the candidate
// is refused when its answers stop being answers, or move far from the serving version's on
// requests training never touched. Pure: the numbers in, a reason out.

/** One version's answers to the probes, summarised. */
export interface ProbeSummary {
  /** Probes answered. */
  probes: number;
  /** Share of answers that are empty or garbled (evaluation/garbled.ts). */
  notAnswers: number;
  /** Mean −log p per sampled token of its own answers: an entropy estimate, nats. */
  entropy: number;
  /** Mean answer length in tokens. */
  length: number;
  /** Share of finished answers to probes with tools whose tool calls are broken (absent: no such answer). */
  toolErrors?: number;
}

/** How far a candidate may move on the probes before it counts as broken (evaluation.gate.probes). */
export interface CollapseLimits {
  /** Largest KL(candidate ‖ serving) per token on the candidate's own probe answers, nats. */
  max_kl: number;
  /** Largest rise in the share of probe answers that are not answers. */
  max_not_answer_rise: number;
  /** Largest ratio between the two versions' entropies, either way (a floor of 0.1 nats keeps near-deterministic policies comparable). */
  max_entropy_ratio: number;
  /** Largest ratio between the two versions' mean answer lengths, either way (plus one token each). */
  max_length_ratio: number;
  /** Largest rise in the share of answers to probes with tools whose tool calls are broken. */
  max_tool_error_rise: number;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const ratio = (a: number, b: number) => Math.max(a / b, b / a);

/**
 * Why the candidate collapsed on the probes, or null when it did not. `kl`: the candidate's
 * KL to the version compared with on its own answers (undefined: not measured, not checked);
 * `against` names that version in the reason.
 */
export function probeCollapse(
  serving: ProbeSummary,
  candidate: ProbeSummary,
  kl: number | undefined,
  limits: CollapseLimits,
  against = 'the serving version',
): string | null {
  if (candidate.probes === 0 || serving.probes === 0) return null;
  const rise = candidate.notAnswers - serving.notAnswers;
  if (rise > limits.max_not_answer_rise)
    return `${pct(candidate.notAnswers)} of its answers to ${candidate.probes} probes are not answers (garbled or empty), against ${pct(serving.notAnswers)} from ${against} (evaluation.gate.probes.max_not_answer_rise ${limits.max_not_answer_rise})`;
  if (candidate.toolErrors !== undefined && candidate.toolErrors - (serving.toolErrors ?? 0) > limits.max_tool_error_rise)
    return `${pct(candidate.toolErrors)} of its answers to probes with tools call them wrongly (not JSON, an unknown tool, a required argument missing), against ${pct(serving.toolErrors ?? 0)} from ${against} (evaluation.gate.probes.max_tool_error_rise ${limits.max_tool_error_rise})`;
  if (kl !== undefined && kl > limits.max_kl)
    return `its probe answers are ${kl.toFixed(2)} nats/token from ${against}'s (KL), above evaluation.gate.probes.max_kl ${limits.max_kl}`;
  const floor = 0.1;
  const entropy = ratio(candidate.entropy + floor, serving.entropy + floor);
  if (entropy > limits.max_entropy_ratio)
    return `its entropy on the probes is ${candidate.entropy.toFixed(2)} nats/token against ${serving.entropy.toFixed(2)} for ${against} (×${entropy.toFixed(1)}, evaluation.gate.probes.max_entropy_ratio ${limits.max_entropy_ratio})`;
  const length = ratio(candidate.length + 1, serving.length + 1);
  if (length > limits.max_length_ratio)
    return `its probe answers average ${candidate.length.toFixed(1)} tokens against ${serving.length.toFixed(1)} for ${against} (×${length.toFixed(1)}, evaluation.gate.probes.max_length_ratio ${limits.max_length_ratio})`;
  return null;
}
