// Inputs and outputs of the mode logic: a finished turn plus its judge signals in, a decision
// (a sample, or a drop with a fixed reason) out.

import type { TopK } from '../engines/types.ts';
import type { Sample, Vote } from '../samples/index.ts';

/** The mode flags of the CLI and config (`training.*`). */
export interface MethodFlags {
  /** openclaw-rl: a session with no trainable turn trains its first judged turn (`--at-least-one`). */
  atLeastOne: boolean;
  /** openclaw-opd: a judged turn without an accepted hint is dropped, not kept masked (`--hint-reject`). */
  hintReject: boolean;
  /** openclaw-opd: a turn that never got a next state is dropped, not kept masked (`--force-drop`). */
  forceDrop: boolean;
  /** openclaw-combine: route each turn to opd+rl / opd / rl / nothing (`--three-way-dispatch`). */
  threeWayDispatch: boolean;
  /** Weight of the reward term (`training.w_rl`); 0 makes reward-only samples worthless. */
  wRl: number;
  /** Weight of the OPD term (`training.w_opd`); 0 makes hint-only samples worthless. */
  wOpd: number;
}

/** The reference's behaviour: every filter on, both weights 1. */
export const DEFAULT_METHOD_FLAGS: Readonly<MethodFlags> = Object.freeze({
  atLeastOne: true,
  hintReject: true,
  forceDrop: true,
  threeWayDispatch: true,
  wRl: 1,
  wOpd: 1,
});

/** A finished main turn: the Sample-building fields recorded by the gateway. */
export interface FinishedTurn {
  sessionId: string;
  turnId: number;
  /** Policy version that produced the response. */
  policyVersion: number;
  promptIds: number[];
  responseIds: number[];
  /** Rollout (behaviour) log-probs, one per response token. */
  rolloutLogprobs: number[];
  /** False when the session ended (or expired) before anything followed this turn. */
  hasNextState: boolean;
}

/** The PRM judge's verdict on the turn (a PrmJudgeResult fits). */
export interface PrmSignal {
  score: 1 | 0 | -1;
  votes: Vote[];
}

/** The hint judge's verdict on the turn (a HintJudgeResult fits); `hint` null = rejected. */
export interface HintSignal {
  hint: string | null;
  votes: Vote[];
}

/** Teacher log-probs of the unchanged response tokens under the hinted prompt. */
export interface TeacherSignal {
  logprobs: number[];
  /** Optional teacher top-K per response position (`distill_topk`). */
  topK?: TopK[] | null;
}

/** The judge signals that exist for a turn; absent or null = not run / not available. */
export interface TurnSignals {
  prm?: PrmSignal | null;
  hint?: HintSignal | null;
  teacher?: TeacherSignal | null;
}

/** Fixed reasons for not making a sample, as counted in metrics (`dropped_by_reason`). */
export type DropReason =
  /** The turn never got a next state (openclaw-opd with force-drop; openclaw-combine). */
  | 'no_next_state'
  /** No hint was accepted (openclaw-opd with hint-reject). */
  | 'hint_rejected'
  /** Neither a ±1 score nor an accepted hint (openclaw-combine). */
  | 'no_signal'
  /** A hint was accepted but the teacher's log-probs are missing or do not match the response tokens. */
  | 'teacher_mismatch'
  /** The only signal has weight 0 (w_rl = 0 for a reward-only turn, w_opd = 0 for a hint-only one). */
  | 'zero_weight'
  /** The response has no tokens to train on. */
  | 'empty_response';

/** What became of one turn. */
export type Decision =
  | {
      kind: 'sample';
      sample: Sample;
      /** Whether the turn was judged (had a next state); at-least-one promotes only those. */
      judged: boolean;
      /** True when at-least-one turned this sample's loss mask on. */
      promoted: boolean;
    }
  | { kind: 'drop'; sessionId: string; turnId: number; reason: DropReason; judged: boolean };
