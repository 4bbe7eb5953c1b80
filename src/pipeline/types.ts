// Shapes shared by the scoring pipeline's parts: the injected prompt renderer, where judgements
// are shown, explicit user feedback and how it combines with the judge, and the judge record
// written per judged turn.
import type { ChatMessage } from '../engines/types.ts';
import type { TurnJudgement } from '../gateway/index.ts';
import type { Vote } from '../samples/index.ts';

/**
 * Renders chat messages (and the request's tools) to prompt token ids with the policy's chat
 * template, ending with the assistant header — how the hinted prompt reaches the teacher.
 */
export type PromptRenderer = (messages: ChatMessage[], tools: unknown[] | undefined) => number[] | Promise<number[]>;

/** Where judgements go (the gateway's SessionViews, or a thread's messages to them). */
export interface JudgementViews {
  judge(sessionId: string, turnId: number, judgement: TurnJudgement): void;
  /** The session's main turns, to find the latest one and check a turn exists (for feedback). */
  turns?(sessionId: string): Array<{ turn_id: number }> | undefined;
}

/**
 * How explicit feedback combines with the judge (`feedbackPolicy`):
 *  - `override` (default): the user's score is the turn's reward (graded scores kept as given),
 *    and a comment is the accepted hint in OPD modes;
 *  - `join`: the user's score is one more vote in the majority (its sign), and a comment is one
 *    more +1 hint candidate for the usual selection.
 */
export type FeedbackPolicy = 'override' | 'join';

/** Explicit feedback on one turn (POST /v1/feedback). */
export interface Feedback {
  /** In [-1, 1]: thumbs up = 1, thumbs down = -1, anything between is a graded score. */
  score: number;
  comment: string | null;
  /** Milliseconds since epoch when the server accepted it. */
  at: number;
}

/** What became of a turn, as shown in views and judge records. */
export interface DecisionSummary {
  kind: 'sample' | 'drop';
  sampleType: string | null;
  reward: number | null;
  lossMask: 0 | 1 | null;
  /** True when at-least-one turned the loss mask on at session end. */
  promoted: boolean;
  dropReason: string | null;
}

/** One line of `<output_dir>/records/judge.jsonl`: everything that decided one turn. */
export interface JudgeRecord {
  type: 'judged_turn';
  at: string;
  session_id: string;
  turn_id: number;
  mode: string;
  next_state: { role: string; content: unknown } | null;
  /** Why there was no next state (session_done, expired, …), when there was none. */
  next_state_reason: string | null;
  prm: {
    provider: string;
    score: number;
    votes: Vote[];
    outcome: unknown;
    answers: Array<{ vote: Vote; raw: string | null; error: string | null }>;
  } | null;
  hint: {
    provider: string;
    votes: Vote[];
    candidates: Array<{ score: Vote; hint: string | null }>;
    /** The judge's selected hint (before feedback). */
    chosen: string | null;
    selection: unknown;
    answers: Array<{ vote: Vote; hint: string | null; raw: string | null; error: string | null }>;
  } | null;
  /** `hint`: the hint the teacher scored under; `error`: why it could not. */
  teacher: { status: 'scored' | 'mismatch' | 'unavailable' | 'not_needed'; error: string | null; hint: string | null };
  feedback: (Feedback & { policy: FeedbackPolicy }) | null;
  /** The hint the sample distils from (after feedback), or null. */
  accepted_hint: string | null;
  decision: DecisionSummary;
  /** True when the turn was judged again after a restart. */
  rejudged: boolean;
}

/** A judge-record line written when feedback changed (or dropped) a sample that was already stored. */
export interface FeedbackUpdateRecord {
  type: 'feedback_update';
  at: string;
  session_id: string;
  turn_id: number;
  feedback: Feedback & { policy: FeedbackPolicy };
  /** Why a comment was not used as a hint, when it was not. */
  note: string | null;
  decision: DecisionSummary;
}
