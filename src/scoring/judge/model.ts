// The model judge: ask a judge model m times CONCURRENTLY through an injected `call`, parse each
// answer, and reduce the votes (PRM: majority vote; hint judge: hint selection). A rejected call
// or an answer without a usable \boxed{…} is a 'fail' vote whose error message is kept, so the
// judge record shows why. Timeouts and retries belong to `call` (`channelJudgeCall`: one chat
// completion over an OpenAI-compatible channel, i.e. the http/ core), not here.
import type { OpenAICompatibleChannel } from '../../engines/openai-compatible/index.ts';
import { OpenClawError } from '../../errors/index.ts';
import type { Vote } from '../../samples/index.ts';
import { eligibleIndices, selectHint } from '../hint-select.ts';
import { parseBoxedScore, parseHint } from '../parse.ts';
import { buildHintMessages, buildPrmMessages, type PromptLimits } from '../prompts.ts';
import type {
  CandidateTopK,
  HintCandidate,
  HintJudgeResult,
  HintStrategy,
  HintVoteDetail,
  Judge,
  JudgeCall,
  JudgedTurnInput,
  OverlapMetric,
  PrmJudgeResult,
  VoteDetail,
} from '../types.ts';
import { checkVoteCount, majorityVote } from '../vote.ts';

/** Options shared by both runners. */
export interface JudgeRunOptions {
  call: JudgeCall;
  /** Votes per turn (`--majority-vote`, default 3). */
  m?: number;
  /** Judge sampling temperature (`judge.temperature`, default 0). */
  temperature?: number;
  /** Judge answer budget (`judge.max_tokens`, default 512). */
  maxTokens?: number;
  /** How much of the turn the prompt shows. */
  limits?: PromptLimits;
}

/** Options of `runPrmJudge`. */
export interface PrmRunOptions extends JudgeRunOptions {
  /** Minimum valid votes needed to decide (default 1); see vote.ts. */
  quorum?: number;
  /** Least share of valid votes agreeing with the winner (`judge.min_confidence`; default 0). */
  minConfidence?: number;
}

/** Options of `runHintJudge`. */
export interface HintRunOptions extends JudgeRunOptions {
  strategy?: HintStrategy;
  minHintChars?: number;
  overlapMetric?: OverlapMetric;
  /**
   * For strategy 'overlap': teacher and student top-k for each eligible hint (same order as the
   * hints given). Called only when two or more hints qualify; a throw or a null entry makes the
   * selection fall back to 'longest', with the reason recorded.
   */
  scoreCandidates?: (hints: string[]) => Promise<Array<CandidateTopK | null>>;
}

interface RawAnswer {
  raw: string | null;
  error: string | null;
}

/** Runs the PRM judge m times concurrently and majority-votes the parsed scores. */
export async function runPrmJudge(turn: JudgedTurnInput, opts: PrmRunOptions): Promise<PrmJudgeResult> {
  const answers = await askConcurrently(buildPrmMessages(turn, opts.limits), opts);
  const details = answers.map((a): VoteDetail => {
    if (a.raw === null) return { vote: 'fail', raw: null, error: a.error };
    const vote = parseBoxedScore(a.raw, [1, 0, -1] as const);
    return { vote, raw: a.raw, error: vote === 'fail' ? 'answer has no final \\boxed{1}, \\boxed{0} or \\boxed{-1}' : null };
  });
  const votes = details.map((d) => d.vote);
  const outcome = majorityVote(votes, { quorum: opts.quorum ?? 1, minConfidence: opts.minConfidence });
  return { score: outcome.score, votes, details, outcome, provider: 'model' };
}

/** Runs the hint judge m times concurrently, collects hint candidates and selects one. */
export async function runHintJudge(turn: JudgedTurnInput, opts: HintRunOptions): Promise<HintJudgeResult> {
  const answers = await askConcurrently(buildHintMessages(turn, opts.limits), opts);
  const details = answers.map((a): HintVoteDetail => {
    if (a.raw === null) return { vote: 'fail', hint: null, raw: null, error: a.error };
    const vote: Vote = parseBoxedScore(a.raw, [1, -1] as const);
    const hint = vote === 1 ? parseHint(a.raw) : null;
    return { vote, hint, raw: a.raw, error: vote === 'fail' ? 'answer has no final \\boxed{1} or \\boxed{-1}' : null };
  });
  const candidates: HintCandidate[] = details.map((d) => ({ score: d.vote, hint: d.hint }));
  const strategy = opts.strategy ?? 'longest';
  const selectOpts = { strategy, minHintChars: opts.minHintChars ?? 10, overlapMetric: opts.overlapMetric };
  let topKError: string | null = null;
  if (strategy === 'overlap' && opts.scoreCandidates !== undefined) {
    topKError = await attachTopK(candidates, selectOpts.minHintChars, opts.scoreCandidates);
  }
  const selection = selectHint(candidates, selectOpts);
  if (topKError !== null && selection.fallback !== null) selection.fallback = `${selection.fallback} (${topKError})`;
  return { votes: details.map((d) => d.vote), details, candidates, selection, hint: selection.hint, provider: 'model' };
}

/** Fetches top-k data for the eligible candidates (only when there is a choice); returns an error text or null. */
async function attachTopK(
  candidates: HintCandidate[],
  minHintChars: number,
  scoreCandidates: NonNullable<HintRunOptions['scoreCandidates']>,
): Promise<string | null> {
  const eligible = eligibleIndices(candidates, minHintChars);
  if (eligible.length < 2) return null;
  try {
    const topK = await scoreCandidates(eligible.map((i) => (candidates[i].hint ?? '').trim()));
    eligible.forEach((ci, k) => {
      candidates[ci].topK = topK[k] ?? null;
    });
    return null;
  } catch (err) {
    return `top-k scoring failed: ${errorMessage(err)}`;
  }
}

/** Starts all m calls before awaiting any, so the judge sees them as one concurrent burst. */
async function askConcurrently(messages: Parameters<JudgeCall>[0], opts: JudgeRunOptions): Promise<RawAnswer[]> {
  const m = checkVoteCount(opts.m ?? 3);
  const callOpts = { temperature: opts.temperature ?? 0, maxTokens: opts.maxTokens ?? 512 };
  // new Promise(...) runs `call` synchronously (so all m start now) and turns a synchronous throw
  // into a rejection instead of aborting the other votes.
  const pending = Array.from({ length: m }, () => new Promise<string>((resolve) => resolve(opts.call(messages, callOpts))));
  const settled = await Promise.allSettled(pending);
  return settled.map((s) => {
    if (s.status === 'rejected') return { raw: null, error: errorMessage(s.reason) };
    if (typeof s.value !== 'string') return { raw: null, error: `judge call resolved to ${typeof s.value}, expected the answer text` };
    return { raw: s.value, error: null };
  });
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Settings of the model judge (from `judge.*` and `scoring.*`). */
export interface ModelJudgeOptions {
  call: JudgeCall;
  m: number;
  quorum: number;
  /** `judge.min_confidence` (default 0). */
  minConfidence?: number;
  temperature: number;
  maxTokens: number;
  strategy: HintStrategy;
  minHintChars: number;
}

/** The model judge as a `Judge`. */
export function modelJudge(o: ModelJudgeOptions): Judge {
  const ask = { call: o.call, m: o.m, temperature: o.temperature, maxTokens: o.maxTokens };
  return {
    provider: 'model',
    prm: (turn) => runPrmJudge(turn, { ...ask, quorum: o.quorum, minConfidence: o.minConfidence }),
    hint: (turn, scoreCandidates) =>
      runHintJudge(turn, {
        ...ask,
        strategy: o.strategy,
        minHintChars: o.minHintChars,
        scoreCandidates: o.strategy === 'overlap' ? scoreCandidates : undefined,
      }),
  };
}

/** A JudgeCall over an OpenAI-compatible channel: one chat completion, its text content. */
export function channelJudgeCall(channel: OpenAICompatibleChannel, model: string, signal?: AbortSignal): JudgeCall {
  return async (messages, o) => {
    const json = await channel.complete({ model, messages, temperature: o.temperature, max_tokens: o.maxTokens }, signal);
    const choice = (json.choices as Array<{ message?: { content?: unknown } }>)[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string')
      throw new OpenClawError('upstream', `judge ${channel.info.url} answered without text content`, { code: 'judge_no_content' });
    return content;
  };
}
