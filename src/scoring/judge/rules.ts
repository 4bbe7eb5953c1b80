// The offline judge (`judge.provider: rules`): a deterministic stand-in for a judge model, for
// setups without one, for tests and for the CPU demo. It reads only the next state.
//
//   role tool: read by offline/tools/ (test runner summaries, compilers, HTTP/JSON, SQL, git,
//              package managers, the shell): a failure → −1 with the fix the output states, if
//              any; success → +1; information only (clean tree, version, empty list) → 0;
//              unrecognised output: error words → −1, anything else → +1.
//   role user: read by offline/ (wink-nlp for English: sentiment with negation, intensity and
//              emoji, complaints from sentence structure, instructions from imperatives, "should",
//              "no X", "only X", limits, "next time"; cue lists for Chinese). A complaint → −1; an
//              instruction → −1, or 0 when the same message praises; praise → +1; a follow-up
//              question, a new task or an acknowledgement → 0.
//   hints:     the instruction part of each sentence (from its first instruction clause on).
// Output has the same shape as the model judges: m identical votes (+1/0/−1 for the PRM,
// +1 with the hint or −1 for the hint judge), so the pipeline after it does not care.
//
// Limits (docs/judge.md): sarcasm ("great, another bug"), implicit feedback (a silent re-ask),
// languages other than English and Chinese, tool outputs that mention "error" while succeeding
// and tools that fail silently. Use a judge model whenever one is available.

import type { Vote } from '../../samples/index.ts';
import { selectHint } from '../hint-select.ts';
import { judgeReply, judgeToolOutput } from '../rules-reader/index.ts';
import { contentToText, stripInternalContext } from '../text.ts';
import type { HintJudgeResult, Judge, JudgedNextState, JudgedTurnInput, PrmJudgeResult, VoteDetail } from '../types.ts';
import { checkVoteCount, majorityVote } from '../vote.ts';

/** What the rules judge concluded about one next state. */
export interface RulesVerdict {
  score: 1 | 0 | -1;
  /** Correction sentence(s) as a hint, or null. */
  hint: string | null;
  /** The cues that decided, for the judge record (e.g. `complaint:"too long"`, `instruction:"no X"`, `tool_error:"ERR!"`). */
  cues: string[];
  /** How sure the reading is, in [0, 1] (offline/confidence.ts); below `judge.min_confidence` the PRM score is 0. */
  confidence: number;
  /** What lowered the confidence ("sarcasm marker", "contrast after praise", …); empty when nothing did. */
  doubts: string[];
}

/** What the judge may know about the turn besides the next state (all optional). */
export interface TurnContext {
  /** The user's request the answer replied to. */
  request?: string;
  /** The assistant's answer (or a line about what the agent did). */
  answer?: string;
  /** The tools the answer called, by name ("web_search", "calendar.list_events"): a lookup's result is information. */
  toolCalls?: string[];
}

/** Classifies a next state into +1 / 0 / −1 and extracts a correction hint, by the rules above. */
export function classifyNextState(next: JudgedNextState, context: TurnContext = {}): RulesVerdict {
  const text = stripInternalContext(contentToText(next.content));
  return next.role === 'tool' ? classifyTool(text, context) : classifyUser(text, context);
}

function classifyTool(text: string, context: TurnContext): RulesVerdict {
  return judgeToolOutput(text, { action: context.answer, toolCalls: context.toolCalls });
}

function classifyUser(text: string, context: TurnContext): RulesVerdict {
  return judgeReply(text, { request: context.request, answer: context.answer });
}

/** Options shared by the rules runners. */
export interface RulesJudgeOptions {
  /** Number of (identical) votes to record, like the model judge's m (default 3). */
  m?: number;
  /** Quorum passed to the majority vote (default 1). */
  quorum?: number;
  /** Minimum hint length, as for model hints (default 10). */
  minHintChars?: number;
  /** A verdict less sure than this scores 0 (`judge.min_confidence`; default 0: never abstain). */
  minConfidence?: number;
}

/** The rules judge in the PRM judge's result shape: m identical votes of the verdict's score. */
export async function runRulesPrmJudge(turn: JudgedTurnInput, opts: RulesJudgeOptions = {}): Promise<PrmJudgeResult> {
  const verdict = verdictOf(turn);
  const details = repeat(opts.m ?? 3, (): VoteDetail => ({ vote: verdict.score, raw: describe(verdict), error: null }));
  const votes = details.map((d) => d.vote);
  const outcome = majorityVote(votes, { quorum: opts.quorum ?? 1, minConfidence: opts.minConfidence, confidence: verdict.confidence });
  return { score: outcome.score, votes, details, outcome, provider: 'rules' };
}

/** The rules judge in the hint judge's result shape: m identical votes, +1 with the hint or −1. */
export async function runRulesHintJudge(turn: JudgedTurnInput, opts: RulesJudgeOptions = {}): Promise<HintJudgeResult> {
  const verdict = verdictOf(turn);
  const vote: Vote = verdict.hint !== null ? 1 : -1;
  const details = repeat(opts.m ?? 3, () => ({ vote, hint: verdict.hint, raw: describe(verdict), error: null }));
  const candidates = details.map((d) => ({ score: d.vote, hint: d.hint }));
  // All candidates are the same text, so overlap selection could not tell them apart.
  const selection = selectHint(candidates, { strategy: 'longest', minHintChars: opts.minHintChars ?? 10 });
  return { votes: details.map((d) => d.vote), details, candidates, selection, hint: selection.hint, provider: 'rules' };
}

/** Verdicts by turn: in combine mode the PRM and the hint judge read the same turn; it is read once. */
const verdicts = new WeakMap<JudgedTurnInput, RulesVerdict>();

function verdictOf(turn: JudgedTurnInput): RulesVerdict {
  let v = verdicts.get(turn);
  if (v === undefined) {
    v = classifyNextState(turn.nextState, turnContext(turn));
    verdicts.set(turn, v);
  }
  return v;
}

/** The user's last request, our answer and the tools it called: for the repeat check and the lookup check. */
function turnContext(turn: JudgedTurnInput): TurnContext {
  let lastUser: JudgedTurnInput['promptMessages'][number] | undefined;
  for (let i = turn.promptMessages.length - 1; i >= 0 && lastUser === undefined; i--) {
    if (turn.promptMessages[i].role === 'user') lastUser = turn.promptMessages[i];
  }
  const toolCalls = turn.responseToolCalls
    .map((c) => (c.function as { name?: unknown } | undefined)?.name)
    .filter((n): n is string => typeof n === 'string');
  return { request: lastUser === undefined ? undefined : contentToText(lastUser.content), answer: turn.responseText, toolCalls };
}

function describe(verdict: RulesVerdict): string {
  const doubts = verdict.doubts.length > 0 ? [`confidence ${verdict.confidence.toFixed(2)}: ${verdict.doubts.join(', ')}`] : [];
  const cues = verdict.cues.length > 0 || doubts.length > 0 ? [...verdict.cues, ...doubts].join(', ') : 'no cue';
  const hint = verdict.hint !== null ? ` [HINT_START]${verdict.hint}[HINT_END]` : '';
  return `rules judge: ${cues} \\boxed{${verdict.score}}${hint}`;
}

function repeat<T>(m: number, make: () => T): T[] {
  return Array.from({ length: checkVoteCount(m) }, make);
}

/** The rules judge as a `Judge`. */
export function rulesJudge(opts: RulesJudgeOptions): Judge {
  return {
    provider: 'rules',
    prm: (turn) => runRulesPrmJudge(turn, opts),
    hint: (turn) => runRulesHintJudge(turn, opts),
  };
}
