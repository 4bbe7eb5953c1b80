// decideTurn: one finished turn and its judge signals in, a Decision out, by the turn rule of the
// mode's row in the mode table (modes.ts; the rules are in turn-rules.ts).

import { OpenClawError } from '../errors/index.ts';
import { modeSpec, type Mode } from './modes.ts';
import { drop } from './turn-rules.ts';
import { DEFAULT_METHOD_FLAGS, type Decision, type FinishedTurn, type MethodFlags, type TurnSignals } from './types.ts';

/** Options of `decideTurn`. */
export interface DecideOptions {
  mode: Mode;
  /** Mode flags; missing ones take the reference defaults (DEFAULT_METHOD_FLAGS). */
  flags?: Partial<MethodFlags>;
  /** Timestamp for `createdAt` (ms since epoch); default now. */
  now?: number;
}

/** Turns one finished turn and its signals into a sample or a drop, by the mode's turn rule. */
export function decideTurn(turn: FinishedTurn, signals: TurnSignals, opts: DecideOptions): Decision {
  checkTurn(turn);
  const flags = { ...DEFAULT_METHOD_FLAGS, ...opts.flags };
  checkWeights(flags);
  const ctx = { turn, signals, flags, now: opts.now ?? Date.now() };
  const { decide } = modeSpec(opts.mode);
  if (turn.responseIds.length === 0) return drop(ctx, 'empty_response');
  return decide(ctx);
}

/** Rollout tokens and log-probs must already be aligned by the gateway; a mismatch here is a bug upstream. */
function checkTurn(turn: FinishedTurn): void {
  if (turn.rolloutLogprobs.length !== turn.responseIds.length) {
    throw new OpenClawError(
      'data',
      `turn ${turn.sessionId}:${turn.turnId} has ${turn.responseIds.length} response tokens but ` +
        `${turn.rolloutLogprobs.length} rollout log-probs; the recorder must align them before judging`,
    );
  }
}

function checkWeights(flags: MethodFlags): void {
  for (const [name, value] of [
    ['training.w_rl', flags.wRl],
    ['training.w_opd', flags.wOpd],
  ] as const) {
    if (!Number.isFinite(value)) throw new OpenClawError('config', `${name} must be a finite number, got ${value}`, { param: name });
  }
}
