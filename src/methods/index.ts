// methods: the training modes (docs/design.md §2) as pure functions; modes.ts is the table of what
// each mode uses and decides, read by everything that depends on the mode.
// Input: a finished main turn (token ids, rollout log-probs, policy version, whether it got a
// next state) with its judge signals (PRM score and votes, accepted hint, teacher log-probs),
// the mode and its flags. Output: a Decision — a Sample to store, or a drop with a fixed reason.
// `decideTurn` decides one turn; `finishSession` applies the session-level rule (at-least-one)
// when a session ends or expires; `AtLeastOneHolds` tracks which decided turns wait for that end.
// No I/O: callers own sessions and storage.

export type {
  Decision,
  DropReason,
  FinishedTurn,
  HintSignal,
  MethodFlags,
  PrmSignal,
  TeacherSignal,
  TurnSignals,
} from './types.ts';
export { DEFAULT_METHOD_FLAGS } from './types.ts';
export { MODES, modeSpec, type Mode, type ModeSpec } from './modes.ts';
export { decideTurn, type DecideOptions } from './dispatch.ts';
export { applyAtLeastOne, atLeastOneApplies, finishSession } from './session.ts';
export { AtLeastOneHolds, type HoldStep } from './holds.ts';
