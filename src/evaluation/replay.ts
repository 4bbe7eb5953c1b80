// Replay evaluation of one policy version (issue 25 item 2, docs/evaluation.md "Replay evaluation"):
// the version writes NEW answers — to held-out prompts that got a hint, and to drift probes — with
// a fixed seed per prompt, so two versions are compared on the same draws.
//  - held-out: the hinted teacher (the pipeline's teacher client, on the hinted prompt stored with
//    the sample) scores each new answer → replay_opd_advantage; with a model judge, whether the
//    answer satisfies its hint → replay_hint_satisfied.
//  - probes: the serving weights score each new answer → probe_kl; and the answers' length,
//    empty and garbled shares.
// In: the samples / probes, the version's weights as a `VersionModel` (staged: the training
// thread; published: the engine), the teacher, the judge. Out: metric values with sample counts.
// One prompt at a time: an evaluation must never compete with serving for the machine.
import { logprobTemperature, type GenerateRequest, type GenerateResult, type ScoreRequest, type ScoreResult } from '../engines/types.ts';
import type { Probe } from '../config/index.ts';
import { probeKl, rateOf, replayOpdAdvantage, replaySeed, type TokenMean } from '../rl/index.ts';
import type { StoredSample } from '../samples/index.ts';
import type { Teacher } from '../scoring/index.ts';
import type { OutputParser } from '../chat/index.ts';
import { garbledReason } from './garbled.ts';
import { toolCallError } from './tool-calls.ts';
import { hintSatisfied, type HintCheckSettings } from './hint-check.ts';

/** The weights under evaluation: sample and score with them. */
export interface VersionModel {
  generate(req: GenerateRequest): Promise<GenerateResult>;
  /** Several answers in one call, decoded together (absent: one `generate` per answer). */
  generateMany?(reqs: GenerateRequest[]): Promise<GenerateResult[]>;
  score(req: ScoreRequest): Promise<ScoreResult>;
}

/** How answers are sampled (the rollout's settings, so a version answers as it would serve). */
export interface AnswerSettings {
  temperature: number;
  topP?: number;
  maxTokens: number;
  stopTokenIds: number[];
  /** Answer text without stop tokens (the judge and the garbled test read text). */
  decode?: (ids: number[]) => string;
  /** The policy's reader of an answer's tool calls (absent: tool calls are not checked). */
  parser?: (promptIds: readonly number[]) => OutputParser;
}

/** A metric value and the number of samples or probes behind it. */
export interface MetricValue {
  value: number;
  samples: number;
}

/** One version's replay numbers; a metric is absent when nothing could be measured. */
export type ReplayMetrics = Partial<
  Record<
    | 'replay_opd_advantage'
    | 'replay_hint_satisfied'
    | 'probe_kl'
    | 'probe_length_mean'
    | 'probe_empty_rate'
    | 'probe_garbled_rate'
    | 'probe_tool_error_rate'
    | 'probe_entropy',
    MetricValue
  >
>;

function answerRequest(promptIds: number[], key: string, a: AnswerSettings): GenerateRequest {
  return {
    promptIds,
    maxTokens: a.maxTokens,
    temperature: a.temperature,
    topP: a.topP,
    stopTokenIds: a.stopTokenIds,
    seed: replaySeed(key),
  };
}

function textOf(ids: number[], a: AnswerSettings): string | undefined {
  return a.decode?.(ids.filter((id) => !a.stopTokenIds.includes(id)));
}

function metric(m: TokenMean | { value: number | undefined; samples: number }): MetricValue | undefined {
  return m.value === undefined ? undefined : { value: m.value, samples: m.samples };
}

/** Held-out samples the replay can use: a hint, the teacher's log-probs and the hinted prompt they came from. */
export function replayable(s: StoredSample): boolean {
  return (
    s.hint !== null && s.hint.trim() !== '' && s.teacherLogprobs !== null && s.teacherPromptIds != null && s.teacherPromptIds.length > 0
  );
}

/** Settings of the held-out replay. */
export interface ReplaySettings extends AnswerSettings {
  teacher: Teacher;
  /** With a model judge: ask it whether each new answer satisfies its hint. */
  hintCheck?: HintCheckSettings;
  /** Told of a prompt that could not be evaluated (teacher or judge unreachable); it is left out. */
  onSkip?: (sampleId: string, err: unknown) => void;
}

/** replay_opd_advantage (and replay_hint_satisfied) of `model` on the held-out samples. */
export async function replayHeldOut(held: readonly StoredSample[], model: VersionModel, s: ReplaySettings): Promise<ReplayMetrics> {
  const answers: Array<{ teacher: number[]; student: number[] }> = [];
  const satisfied: Array<boolean | null> = [];
  // The teacher's log-probs come at its own temperature; the student's must match them.
  const teacherT = s.teacher.logprobTemperature;
  for (const sample of held.filter(replayable)) {
    try {
      const g = await model.generate(answerRequest(sample.promptIds, sample.id, s));
      if (g.tokenIds.length === 0) continue;
      const student =
        teacherT === logprobTemperature(s.temperature)
          ? g.logprobs
          : (await model.score({ promptIds: sample.promptIds, responseIds: g.tokenIds, temperature: teacherT })).logprobs;
      const teacher = await s.teacher.score(sample.teacherPromptIds!, g.tokenIds);
      answers.push({ teacher: teacher.logprobs, student });
      const text = textOf(g.tokenIds, s);
      if (s.hintCheck !== undefined && text !== undefined) satisfied.push(await hintSatisfied(s.hintCheck, sample.hint!, text));
    } catch (err) {
      s.onSkip?.(sample.id, err);
    }
  }
  const out: ReplayMetrics = {};
  const opd = metric(replayOpdAdvantage(answers));
  if (opd !== undefined) out.replay_opd_advantage = opd;
  const hint = metric(rateOf(satisfied));
  if (hint !== undefined) out.replay_hint_satisfied = hint;
  return out;
}

/** Settings of the drift probes. */
export interface ProbeSettings extends AnswerSettings {
  /** Probe messages (and tools) → prompt ids with the policy's chat template. */
  render: (messages: Probe['messages'], tools?: Probe['tools']) => number[] | Promise<number[]>;
  /** The serving weights' log-probs (probe_kl); absent when the version evaluated is the serving one. */
  serving?: (req: ScoreRequest) => Promise<ScoreResult>;
  onSkip?: (probe: string, err: unknown) => void;
}

/**
 * The model's answers to `reqs`: all in one call where it can decode them together, else one at a
 * time; an answer that fails is undefined (told to `onSkip`), the others stand.
 */
async function answerAll(
  model: VersionModel,
  reqs: GenerateRequest[],
  onSkip: (i: number, err: unknown) => void,
): Promise<Array<GenerateResult | undefined>> {
  if (model.generateMany !== undefined && reqs.length > 0) {
    try {
      return await model.generateMany(reqs);
    } catch {
      // One request the batch could not take (a prompt too long): each on its own, to skip only it.
    }
  }
  const out: Array<GenerateResult | undefined> = [];
  for (const [i, r] of reqs.entries()) out.push(await model.generate(r).catch((err) => void onSkip(i, err)));
  return out;
}

/**
 * probe_kl, probe_length_mean, probe_empty_rate, probe_garbled_rate, probe_entropy of `model` on
 * the probes, and probe_tool_error_rate: of the answers to probes with tools that ended (not cut
 * at max_tokens), the share whose tool calls are broken (tool-calls.ts).
 */
export async function runProbes(probes: readonly Probe[], model: VersionModel, s: ProbeSettings): Promise<ReplayMetrics> {
  const pairs: Array<{ candidate: number[]; serving: number[] }> = [];
  const lengths: number[] = [];
  const empty: boolean[] = [];
  const garbled: boolean[] = [];
  const toolErrors: boolean[] = [];
  const scoring: Promise<unknown>[] = [];
  // The answers' own surprise, −log p per sampled token: an estimate of the policy's entropy on them.
  let surprise = 0;
  let tokens = 0;
  const rendered: Array<{ probe: Probe; promptIds: number[] }> = [];
  for (const probe of probes) {
    try {
      rendered.push({ probe, promptIds: await s.render(probe.messages, probe.tools) });
    } catch (err) {
      s.onSkip?.(probe.where, err);
    }
  }
  const answers = await answerAll(
    model,
    rendered.map(({ probe, promptIds }) => answerRequest(promptIds, JSON.stringify(probe.messages), s)),
    (i, err) => s.onSkip?.(rendered[i].probe.where, err),
  );
  rendered.forEach(({ probe, promptIds }, i) => {
    const g = answers[i];
    if (g === undefined) return;
    const content = g.tokenIds.filter((id) => !s.stopTokenIds.includes(id));
    lengths.push(content.length);
    for (const lp of g.logprobs) {
      surprise -= lp;
      tokens++;
    }
    const text = textOf(g.tokenIds, s);
    const isEmpty = content.length === 0 || (text !== undefined && text.trim() === '');
    empty.push(isEmpty);
    if (text !== undefined) garbled.push(!isEmpty && garbledReason(text) !== null);
    // An answer cut at max_tokens may hold half a call: only finished answers are read.
    if (probe.tools !== undefined && s.parser !== undefined && g.finishReason === 'stop' && text !== undefined)
      toolErrors.push(toolCallError(text, probe.tools, s.parser(promptIds)) !== null);
    if (s.serving !== undefined && g.tokenIds.length > 0)
      scoring.push(
        s
          .serving({ promptIds, responseIds: g.tokenIds, temperature: s.temperature })
          .then((serving) => pairs.push({ candidate: g.logprobs, serving: serving.logprobs }))
          .catch((err) => s.onSkip?.(probe.where, err)),
      );
  });
  await Promise.all(scoring);
  const out: ReplayMetrics = {};
  const kl = metric(probeKl(pairs));
  if (kl !== undefined) out.probe_kl = kl;
  if (lengths.length > 0) out.probe_length_mean = { value: lengths.reduce((a, b) => a + b, 0) / lengths.length, samples: lengths.length };
  const e = metric(rateOf(empty));
  if (e !== undefined) out.probe_empty_rate = e;
  const gb = metric(rateOf(garbled));
  if (gb !== undefined) out.probe_garbled_rate = gb;
  const te = metric(rateOf(toolErrors));
  if (te !== undefined) out.probe_tool_error_rate = te;
  if (tokens > 0) out.probe_entropy = { value: surprise / tokens, samples: lengths.length };
  return out;
}
