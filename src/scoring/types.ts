// Shared shapes of the judging step: what a judge sees about one turn, how a judge model is
// called (an injected function, so this folder has no HTTP code), and what a judge run returns.

import type { ChatMessage, TopK } from '../engines/types.ts';
import type { Vote } from '../samples/index.ts';

/** Who produced the next state: the user replying, or a tool returning the result of a call. */
export type NextStateRole = 'user' | 'tool';

/** What followed our response. Several tool results of one step may be joined into one content. */
export interface JudgedNextState {
  role: NextStateRole;
  content: ChatMessage['content'];
}

/** Everything a judge needs to know about one finished turn. */
export interface JudgedTurnInput {
  /** The messages the policy answered (the turn's prompt), oldest first. */
  promptMessages: ChatMessage[];
  /** Our response text (may be empty when the response is only tool calls). */
  responseText: string;
  /** Our response's OpenAI-style tool calls (`[{function:{name, arguments}}]`), empty if none. */
  responseToolCalls: Array<Record<string, unknown>>;
  nextState: JudgedNextState;
}

/** Options of one judge-model call. */
export interface JudgeCallOptions {
  temperature: number;
  maxTokens: number;
}

/** Calls the judge model once with chat messages and resolves to its answer text. */
export type JudgeCall = (messages: ChatMessage[], opts: JudgeCallOptions) => Promise<string>;

/** One judge vote as recorded: the parsed vote, the raw answer and why it failed, if it did. */
export interface VoteDetail {
  vote: Vote;
  /** The judge's full answer, or null when the call itself failed. */
  raw: string | null;
  /** Error message of a rejected call or an unparseable answer; null for a valid vote. */
  error: string | null;
}

/** A hint-judge vote as recorded: a PRM-style vote detail plus the hint it proposed. */
export interface HintVoteDetail extends VoteDetail {
  hint: string | null;
}

/** Why `majorityVote` decided what it decided. */
export type VoteReason = 'majority' | 'tie' | 'all_failed' | 'below_quorum' | 'low_confidence';

/** Result of a majority vote over m judge votes. */
export interface VoteOutcome {
  score: 1 | 0 | -1;
  /** Votes that parsed to a score. */
  valid: number;
  /** Votes recorded as 'fail'. */
  failed: number;
  reason: VoteReason;
  /** How sure the verdict is, in [0, 1]: agreeing valid votes' share, or the rules judge's own confidence. */
  confidence: number;
}

/** Result of a PRM judge run (model or rules), in the shape the judge record stores. */
export interface PrmJudgeResult {
  score: 1 | 0 | -1;
  votes: Vote[];
  details: VoteDetail[];
  outcome: VoteOutcome;
  /** Which judge produced this: a judge model, or the offline rules judge. */
  provider: 'model' | 'rules';
}

/** Teacher and student top-k per response position, used by the `overlap` hint selection. */
export interface CandidateTopK {
  /** Teacher top-k at each response position under the prompt with this candidate's hint. */
  teacher: TopK[];
  /** Student (rollout policy) top-k at each response position under the original prompt. */
  student: TopK[];
}

/** One hint-judge vote seen as a hint candidate. */
export interface HintCandidate {
  score: Vote;
  hint: string | null;
  /** Top-k data for the `overlap` strategy; absent or null when not computed. */
  topK?: CandidateTopK | null;
}

/** How the hint is chosen among candidates (`scoring.hint_selection`). */
export type HintStrategy = 'longest' | 'overlap';

/** Which overlap measure the `overlap` strategy uses (see hint-select.ts). */
export type OverlapMetric = 'mass' | 'count';

/** The chosen hint and how it was chosen. */
export interface HintSelection {
  /** The accepted hint, trimmed; null when no candidate qualified. */
  hint: string | null;
  /** Index of the chosen candidate in the input list; null when none. */
  index: number | null;
  /** Strategy that was asked for. */
  strategy: HintStrategy;
  /** Strategy that actually decided (differs from `strategy` after a fallback). */
  used: HintStrategy;
  /** Why `overlap` fell back to `longest`; null when it did not. */
  fallback: string | null;
  /** Candidates that qualified (score +1 and hint longer than `minHintChars`). */
  eligible: number;
  /** Overlap score per candidate (null for non-eligible ones); only when `used` is 'overlap'. */
  overlapScores: Array<number | null> | null;
}

/** Result of a hint judge run (model or rules). */
export interface HintJudgeResult {
  /** +1 / −1 / 'fail' per vote. */
  votes: Vote[];
  details: HintVoteDetail[];
  candidates: HintCandidate[];
  selection: HintSelection;
  /** The accepted hint, or null (hint rejected). */
  hint: string | null;
  provider: 'model' | 'rules';
}

/**
 * A judge: PRM votes and hint votes on a turn with a next state. Implementations: one per row of
 * JUDGE_PROVIDERS (judge/providers.ts), e.g. judge/model.ts (a judge model through a JudgeCall) and
 * judge/rules.ts (offline rules); judge/from-config.ts picks one.
 */
export interface Judge {
  /** Its kind, as judge records and /healthz show it: 'model' when it asks a model, 'rules' when it reads offline. */
  readonly provider: 'model' | 'rules';
  prm(turn: JudgedTurnInput): Promise<PrmJudgeResult>;
  /**
   * Hint votes and the selected hint. `scoreCandidates` (teacher top-k per hint) serves the
   * `overlap` selection; a judge that does not select by overlap ignores it.
   */
  hint(turn: JudgedTurnInput, scoreCandidates?: (hints: string[]) => Promise<Array<CandidateTopK | null>>): Promise<HintJudgeResult>;
}
