// The mode table (docs/design.md §2): for each `--mode`, what it needs (judges, teacher) and what
// it decides (turn rule, session rule, advantage terms, the gate's `auto` metric). Everything that
// depends on the mode reads its row here — the config schema and CLI take their choices from
// MODES — so a new mode is one row (plus a turn rule in turn-rules.ts or a term in
// rl/advantages.ts, only when it needs a new one).

import { MODES, type Mode } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import type { AdvantageTerms, HoldoutMetric } from '../rl/index.ts';
import type { SampleType } from '../samples/index.ts';
import { decideCombine, decideOpd, decideRl, type TurnRule } from './turn-rules.ts';

/** What one mode uses and decides. */
export interface ModeSpec {
  /** Runs the PRM judge on every judged turn; the majority of its votes is the reward r. */
  prm: boolean;
  /** Runs the hint judge; an accepted hint (or a long enough feedback comment) is distilled. */
  hints: boolean;
  /** Needs the teacher's log-probs (a teacher and a prompt renderer). */
  teacher: boolean;
  /** What one finished turn becomes: a sample or a drop (turn-rules.ts). */
  decide: TurnRule;
  /** The sample types `decide` can produce. */
  samples: readonly SampleType[];
  /** At session end, a session with no trainable turn trains its first judged one (when `training.at_least_one`). */
  atLeastOne: boolean;
  /** How the per-token advantage is built from the reward and teacher terms (rl/advantages.ts). */
  advantage: AdvantageTerms;
  /** The gate's metric under `evaluation.gate.metric: auto`. */
  gateMetric: HoldoutMetric;
}

/** One row per training mode of `--mode`. */
export const MODE_TABLE = {
  /** Binary RL: A_t = r. */
  'openclaw-rl': {
    prm: true,
    hints: false,
    teacher: false,
    decide: decideRl,
    samples: ['rl'],
    atLeastOne: true,
    advantage: { reward: 'plain', teacher: 'off', teacherRequired: false },
    gateMetric: 'holdout_reward_logprob',
  },
  /** On-policy distillation: A_t = clip(teacher_t − old_t). */
  'openclaw-opd': {
    prm: false,
    hints: true,
    teacher: true,
    decide: decideOpd,
    samples: ['opd'],
    atLeastOne: false,
    advantage: { reward: 'off', teacher: 'plain', teacherRequired: true },
    gateMetric: 'holdout_teacher_gap',
  },
  /** Both: A_t = w_opd·clip(teacher_t − old_t) + w_rl·r. */
  'openclaw-combine': {
    prm: true,
    hints: true,
    teacher: true,
    decide: decideCombine,
    samples: ['opd+rl', 'opd', 'rl'],
    atLeastOne: false,
    advantage: { reward: 'weighted', teacher: 'weighted', teacherRequired: false },
    gateMetric: 'holdout_reward_logprob',
  },
} as const satisfies Record<Mode, ModeSpec>;

export { MODES, type Mode };

/** The row of `mode`; an unknown mode (one that bypassed the config schema) is a config error. */
export function modeSpec(mode: Mode): ModeSpec {
  const spec: ModeSpec | undefined = Object.hasOwn(MODE_TABLE, mode) ? MODE_TABLE[mode] : undefined;
  if (spec === undefined) {
    throw new OpenClawError('config', `unknown mode "${String(mode)}"; use ${MODES.join(', ')}`, { param: 'mode' });
  }
  return spec;
}
