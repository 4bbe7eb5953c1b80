// The rules judge (`judge.provider: rules`): a deterministic, offline stand-in for a judge model,
// for setups without one, for tests and for the CPU demo. It reads only the next state.
//
//   role tool: output that looks like an error (error, exception, traceback, a non-zero exit
//              code, "failed", 错误/失败/异常) → −1; any other output → +1. No hint.
//   role user: a clear negative cue (wrong, redo, try again, not what I…, 不对, 重新, 错了, …)
//              → −1; else an explicit correction ("you should…", "don't…", "do not…",
//              "use X instead", 不要…, 应该…) → −1, or 0 when the same message also thanks;
//              else a clear positive cue (thanks, great, perfect, 谢谢, 好的, …) → +1; else 0.
//   hints:     the sentence(s) of a user message that carry a correction, trimmed and joined.
//              Polite requests ("please…", "请…") count as corrections only when the message
//              is not positive, because after "thanks" they usually start a new task.
// Output has the same shape as the model judges: m identical votes (+1/0/−1 for the PRM,
// +1 with the hint or −1 for the hint judge), so the pipeline after it does not care.
//
// Limits, on purpose: it is keyword matching. It misses sarcasm ("great, another bug"), negation
// ("not bad", "no problem" read as neutral), implicit feedback (a silent re-ask of the same
// question scores 0, not −1), languages other than English and Chinese, tool outputs that
// mention "error" while succeeding (e.g. a log listing) and tools that fail silently. Corrections
// are found per sentence, so a correction spread over several sentences yields only the parts
// with a cue. Use a judge model whenever one is available.

import type { Vote } from '../samples/types.ts';
import { selectHint } from './hint-select.ts';
import { contentToText, stripInternalContext } from './text.ts';
import type { HintJudgeResult, JudgedTurnInput, NextState, PrmJudgeResult, VoteDetail } from './types.ts';
import { checkVoteCount, majorityVote } from './vote.ts';

/** What the rules judge concluded about one next state. */
export interface RulesVerdict {
  score: 1 | 0 | -1;
  /** Correction sentence(s) as a hint, or null. */
  hint: string | null;
  /** The cues that decided, for the judge record (e.g. `negative:"try again"`). */
  cues: string[];
}

const NEGATIVE_EN =
  /\b(wrong|incorrect|redo|re-do|try again|retry|not what i (asked|wanted|meant|said)|that'?s not (it|right|correct|what)|doesn'?t work|didn'?t work|does not work|did not work|not working|still (broken|failing|wrong)|you (misunderstood|missed)|start over)\b/i;
const NEGATIVE_ZH = /(不对|重新|错了|不正确|不是我要的|再试|没用|不行|搞错)/;
const POSITIVE_EN = /\b(thanks|thank you|thx|great|perfect|awesome|excellent|exactly|well done|nice|works now|that works|it works|that worked|looks good|lgtm)\b/i;
const POSITIVE_ZH = /(谢谢|多谢|感谢|好的|太好了|完美|可以了|没问题|正确|很好)/;
const STRONG_CORRECTION_EN =
  /(\byou (should|shouldn'?t|should not|need to|must)\b|^(please\s+)?(don'?t|do not|never|stop|avoid)\b|\binstead\b|\brather than\b)/i;
const STRONG_CORRECTION_ZH = /(不要|^别|应该|而不是|改用|换成|改成)/;
const POLITE_REQUEST = /(^please\b|\bplease\b|^请|请)/i;
const TOOL_ERROR_EN =
  /(\b(error|exception|traceback|fatal|panic|failed|failure|denied|segmentation fault|command not found|no such file)\b|exit(ed)?( with)? (code|status)[:= ]*[1-9]\d*|"?(exit_?code|returncode|status_code)"?\s*[:=]\s*[1-9]\d*)/i;
/** Exception class names such as ValueError or NullPointerException (case-sensitive on purpose). */
const TOOL_ERROR_CLASS = /\b[A-Z][A-Za-z]*(Error|Exception)\b/;
const TOOL_ERROR_ZH = /(错误|失败|异常)/;
// "0 errors", "no errors" and "without error" are reports of success, not failures.
const BENIGN_ERROR = /\b(0|no|zero|without)\s+(errors?|failures?|exceptions?)\b/gi;

/** Classifies a next state into +1 / 0 / −1 and extracts a correction hint, by the rules above. */
export function classifyNextState(next: NextState): RulesVerdict {
  const text = stripInternalContext(contentToText(next.content));
  return next.role === 'tool' ? classifyTool(text) : classifyUser(text);
}

function classifyTool(text: string): RulesVerdict {
  const cleaned = text.replace(BENIGN_ERROR, '');
  const hit = TOOL_ERROR_EN.exec(cleaned) ?? TOOL_ERROR_CLASS.exec(cleaned) ?? TOOL_ERROR_ZH.exec(cleaned);
  if (hit !== null) return { score: -1, hint: null, cues: [`tool_error:"${hit[0]}"`] };
  return { score: 1, hint: null, cues: ['tool_ok'] };
}

function classifyUser(text: string): RulesVerdict {
  const negative = NEGATIVE_EN.exec(text) ?? NEGATIVE_ZH.exec(text);
  const positive = POSITIVE_EN.exec(text) ?? POSITIVE_ZH.exec(text);
  const sentences = splitSentences(text);
  const strong = sentences.filter((s) => STRONG_CORRECTION_EN.test(s) || STRONG_CORRECTION_ZH.test(s));
  const politeCounts = negative !== null || positive === null;
  const corrections = sentences.filter((s) => strong.includes(s) || (politeCounts && POLITE_REQUEST.test(s)));
  const hint = corrections.length > 0 ? corrections.join(' ') : null;
  const cues: string[] = [];
  if (negative !== null) cues.push(`negative:"${negative[0]}"`);
  if (positive !== null) cues.push(`positive:"${positive[0]}"`);
  if (corrections.length > 0) cues.push(`correction:${corrections.length}`);
  let score: 1 | 0 | -1 = 0;
  if (negative !== null) score = -1;
  else if (strong.length > 0) score = positive !== null ? 0 : -1;
  else if (positive !== null) score = 1;
  return { score, hint, cues };
}

/** Splits on sentence ends (Latin and CJK) and line breaks; keeps the end mark with its sentence. */
function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？;；])\s*|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Options shared by the rules runners. */
export interface RulesJudgeOptions {
  /** Number of (identical) votes to record, like the model judge's m (default 3). */
  m?: number;
  /** Quorum passed to the majority vote (default 1). */
  quorum?: number;
  /** Minimum hint length, as for model hints (default 10). */
  minHintChars?: number;
}

/** The rules judge in the PRM judge's result shape: m identical votes of the verdict's score. */
export async function runRulesPrmJudge(turn: JudgedTurnInput, opts: RulesJudgeOptions = {}): Promise<PrmJudgeResult> {
  const verdict = classifyNextState(turn.nextState);
  const details = repeat(opts.m ?? 3, (): VoteDetail => ({ vote: verdict.score, raw: describe(verdict), error: null }));
  const votes = details.map((d) => d.vote);
  const outcome = majorityVote(votes, { quorum: opts.quorum ?? 1 });
  return { score: outcome.score, votes, details, outcome, provider: 'rules' };
}

/** The rules judge in the hint judge's result shape: m identical votes, +1 with the hint or −1. */
export async function runRulesHintJudge(turn: JudgedTurnInput, opts: RulesJudgeOptions = {}): Promise<HintJudgeResult> {
  const verdict = classifyNextState(turn.nextState);
  const vote: Vote = verdict.hint !== null ? 1 : -1;
  const details = repeat(opts.m ?? 3, () => ({ vote, hint: verdict.hint, raw: describe(verdict), error: null }));
  const candidates = details.map((d) => ({ score: d.vote, hint: d.hint }));
  // All candidates are the same text, so overlap selection could not tell them apart.
  const selection = selectHint(candidates, { strategy: 'longest', minHintChars: opts.minHintChars ?? 10 });
  return { votes: details.map((d) => d.vote), details, candidates, selection, hint: selection.hint, provider: 'rules' };
}

function describe(verdict: RulesVerdict): string {
  const cues = verdict.cues.length > 0 ? verdict.cues.join(', ') : 'no cue';
  const hint = verdict.hint !== null ? ` [HINT_START]${verdict.hint}[HINT_END]` : '';
  return `rules judge: ${cues} \\boxed{${verdict.score}}${hint}`;
}

function repeat<T>(m: number, make: () => T): T[] {
  return Array.from({ length: checkVoteCount(m) }, make);
}
