import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { addTrainingOptions, overridesFrom } from '../cli/flags.ts';
import { parseConfig } from '../config/index.ts';
import { computeAdvantages, type AdvantageSample, type TermUse } from '../rl/index.ts';
import type { StoredSample } from '../samples/index.ts';
import { toTrainSamples } from '../trainer/index.ts';
import { decideTurn } from './dispatch.ts';
import { MODES, modeSpec, type Mode } from './modes.ts';
import type { FinishedTurn, TurnSignals } from './types.ts';
import { assertClose, isKind } from '../../test/support/assert.ts';

function advantagesOf(mode: Mode, sample: AdvantageSample, settings: { wOpd?: number; wRl?: number; opdAdvClip?: number } = {}) {
  return computeAdvantages(sample, { terms: modeSpec(mode).advantage, ...settings });
}

test('advantages follow the mode: A = r, A = teacher − old, A = w_opd·(teacher − old) + w_rl·r', () => {
  const sample = { reward: -1, rolloutLogprobs: [-2, -1], teacherLogprobs: [-1, -3] };
  assert.deepEqual(Array.from(advantagesOf('openclaw-rl', sample)), [-1, -1]);
  assert.deepEqual(Array.from(advantagesOf('openclaw-opd', sample)), [1, -2]);
  assertClose(advantagesOf('openclaw-opd', sample, { opdAdvClip: 1 }), [1, -1]);
  assertClose(advantagesOf('openclaw-combine', sample, { wOpd: 2, wRl: 0.5 }), [1.5, -4.5]);
  const rlOnly = { ...sample, teacherLogprobs: null };
  assert.deepEqual(Array.from(advantagesOf('openclaw-combine', rlOnly, { wRl: 0.5 })), [-0.5, -0.5]);
});

test('an OPD sample without teacher log-probs and an unknown mode are errors', () => {
  const rlOnly = { reward: 1, rolloutLogprobs: [-1], teacherLogprobs: null };
  assert.throws(() => advantagesOf('openclaw-opd', rlOnly), isKind('data', /teacher log-probs/));
  assert.throws(() => modeSpec('grpo' as Mode), isKind('config', /unknown mode "grpo".*openclaw-combine/));
});

/** Parses `--mode <mode>` with the train/api-server flags; returns the override, or throws commander's error. */
function modeFromFlags(mode: string): unknown {
  const cmd = addTrainingOptions(new Command())
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  cmd.parse(['--mode', mode], { from: 'user' });
  return overridesFrom(cmd.opts(), cmd).mode;
}

function weight(use: TermUse, configured: number): number {
  return use === 'off' ? 0 : use === 'plain' ? 1 : configured;
}

const W_RL = 0.5;
const W_OPD = 2;

test('every mode in the table is a config value and a CLI choice, and trains on the advantage its row names', () => {
  assert.throws(() => parseConfig({ mode: 'grpo' }, { env: {} }), /mode/);
  assert.throws(() => modeFromFlags('grpo'), /Allowed choices are openclaw-rl, openclaw-opd, openclaw-combine/);
  for (const mode of MODES) {
    const row = modeSpec(mode);
    const config = parseConfig({ mode, training: { w_rl: W_RL, w_opd: W_OPD } }, { env: {} });
    assert.equal(config.mode, mode);
    assert.equal(modeFromFlags(mode), mode);

    // A sample carrying both signals: each term shows in the advantage exactly as the row says.
    const old = [-0.5, -1, -2];
    const teacher = [-0.25, -1.5, -1];
    const r = -1;
    const sample: StoredSample = {
      id: 's:1',
      sessionId: 's',
      turnId: 1,
      policyVersion: 0,
      promptIds: [1, 2],
      responseIds: [3, 4, 5],
      rolloutLogprobs: old,
      lossMask: 1,
      reward: r,
      teacherLogprobs: teacher,
      teacherTopK: null,
      type: row.samples[0],
      votes: [],
      hint: null,
      createdAt: 0,
      state: 'leased',
      dropReason: null,
      leaseId: 'x',
      leaseCount: 1,
    };
    const { train } = toTrainSamples([sample], config);
    const rlW = weight(row.advantage.reward, W_RL);
    const opdW = weight(row.advantage.teacher, W_OPD);
    assertClose(
      train[0].advantages,
      old.map((o, t) => rlW * r + opdW * (teacher[t] - o)),
      1e-12,
    );
    if (!row.teacher) assert.equal(row.advantage.teacher, 'off', `${mode} has no teacher, so no teacher term`);
    if (!row.prm) assert.equal(row.advantage.reward, 'off', `${mode} has no PRM judge, so no reward term`);
  }
});

const TURN: FinishedTurn = {
  sessionId: 's',
  turnId: 1,
  policyVersion: 0,
  promptIds: [1, 2],
  responseIds: [3, 4],
  rolloutLogprobs: [-1, -2],
  hasNextState: true,
};

/** Every combination of next state, PRM score, hint and teacher the judges can hand a turn. */
function* signalGrid(): Generator<{ turn: FinishedTurn; signals: TurnSignals }> {
  for (const hasNextState of [true, false])
    for (const score of [1, 0, -1] as const)
      for (const hint of ['Say it in kilometres.', null])
        for (const teacher of [{ logprobs: [-0.5, -1] }, null]) {
          yield { turn: { ...TURN, hasNextState }, signals: { prm: { score, votes: [score] }, hint: { hint, votes: [1] }, teacher } };
        }
}

test("every mode's turn rule makes only the sample types its row lists, from the judges its row runs", () => {
  for (const mode of MODES) {
    const row = modeSpec(mode);
    const seen = new Set<string>();
    for (const flag of [true, false]) {
      const flags = { atLeastOne: flag, hintReject: flag, forceDrop: flag, threeWayDispatch: flag };
      for (const { turn, signals } of signalGrid()) {
        const d = decideTurn(turn, signals, { mode, flags, now: 0 });
        if (d.kind !== 'sample') continue;
        seen.add(d.sample.type);
        assert.ok(row.samples.includes(d.sample.type), `${mode} made a '${d.sample.type}' sample`);
        if (!row.prm) assert.equal(d.sample.reward, 0, `${mode} runs no PRM judge, so no reward`);
        if (!row.hints) assert.equal(d.sample.hint, null, `${mode} runs no hint judge, so no hint`);
        if (!row.teacher) assert.equal(d.sample.teacherLogprobs, null, `${mode} uses no teacher`);
      }
    }
    assert.deepEqual([...seen].sort(), [...row.samples].sort(), `${mode} makes every sample type its row lists`);
    if (row.hints) assert.ok(row.teacher, `${mode} distils hints, so it needs the teacher`);
  }
});
