// Session-level rules, applied once all of a session's turns are decided (at session end or
// expiry): at-least-one, in the modes whose row says so (openclaw-rl).
//
// At-least-one: when no turn of the session would train (every sample has lossMask 0), the
// first judged turn (one that had a next state) is trained anyway: its lossMask becomes 1. Its
// reward stays what the judge said (usually 0), so with the default A_t = r it adds no gradient
// and only counts in the batch; it matters when rewards are normalised across the batch. Turns
// without a next state are never promoted: nothing judged them.
// Consequence for callers: in openclaw-rl with at-least-one, a judged lossMask-0 sample can still
// change until its session ends, so hold those until then; lossMask-1 samples are final at once.

import { modeSpec, type Mode } from './modes.ts';
import type { Decision, MethodFlags } from './types.ts';
import { DEFAULT_METHOD_FLAGS } from './types.ts';

type SampleDecision = Extract<Decision, { kind: 'sample' }>;

/**
 * Returns the decisions with at-least-one applied: unchanged when any sample has lossMask 1,
 * else a copy in which the judged lossMask-0 sample with the lowest turnId has lossMask 1 and
 * `promoted: true`. The input is not modified.
 */
export function applyAtLeastOne(decisions: readonly Decision[]): Decision[] {
  const out = [...decisions];
  if (out.some((d) => d.kind === 'sample' && d.sample.lossMask === 1)) return out;
  let at = -1;
  for (let i = 0; i < out.length; i++) {
    const d = out[i];
    if (d.kind !== 'sample' || !d.judged) continue;
    const best = at === -1 ? null : (out[at] as SampleDecision);
    if (best === null || d.sample.turnId < best.sample.turnId) at = i;
  }
  if (at === -1) return out;
  const chosen = out[at] as SampleDecision;
  out[at] = { ...chosen, sample: { ...chosen.sample, lossMask: 1 }, promoted: true };
  return out;
}

/** Whether at-least-one applies: the mode's row has it and the flag (`--at-least-one`) is on. */
export function atLeastOneApplies(mode: Mode, flags: Partial<MethodFlags> = {}): boolean {
  return modeSpec(mode).atLeastOne && { ...DEFAULT_METHOD_FLAGS, ...flags }.atLeastOne;
}

/** Session-end rules for a mode: at-least-one where it applies; otherwise unchanged. */
export function finishSession(decisions: readonly Decision[], opts: { mode: Mode; flags?: Partial<MethodFlags> }): Decision[] {
  if (atLeastOneApplies(opts.mode, opts.flags)) return applyAtLeastOne(decisions);
  return [...decisions];
}
