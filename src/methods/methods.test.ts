import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import type { Sample } from '../samples/types.ts';
import { decideTurn } from './dispatch.ts';
import { applyAtLeastOne, finishSession } from './session.ts';
import type { Mode } from './modes.ts';
import type { Decision, FinishedTurn, TurnSignals } from './types.ts';

const NOW = 1_700_000_000_000;

function turn(turnId: number, hasNextState = true): FinishedTurn {
  return {
    sessionId: 's1',
    turnId,
    policyVersion: 7,
    promptIds: [1, 2, 3],
    responseIds: [10, 11],
    rolloutLogprobs: [-0.5, -1.5],
    hasNextState,
  };
}

const prm = (score: 1 | 0 | -1): TurnSignals['prm'] => ({ score, votes: [score, score, 'fail'] });
const HINT = 'Answer in kilometres, not miles.';
const hintOk: TurnSignals['hint'] = { hint: HINT, votes: [1, -1, 1] };
const hintNo: TurnSignals['hint'] = { hint: null, votes: [-1, -1, 'fail'] };
const teacher: TurnSignals['teacher'] = { logprobs: [-0.25, -0.75] };

function decide(mode: Mode, t: FinishedTurn, signals: TurnSignals, flags = {}): Decision {
  return decideTurn(t, signals, { mode, flags, now: NOW });
}

function sampleOf(d: Decision): Sample {
  assert.equal(d.kind, 'sample', `expected a sample, got ${JSON.stringify(d)}`);
  return (d as Extract<Decision, { kind: 'sample' }>).sample;
}

function dropReason(d: Decision): string {
  assert.equal(d.kind, 'drop', `expected a drop, got ${JSON.stringify(d)}`);
  return (d as Extract<Decision, { kind: 'drop' }>).reason;
}

/** [type, reward, lossMask, hasTeacher] of a sample, for compact table rows. */
const brief = (s: Sample) => [s.type, s.reward, s.lossMask, s.teacherLogprobs !== null];

test('samples carry every field of the turn and the signals that made them', () => {
  const s = sampleOf(
    decide('openclaw-combine', turn(3), {
      prm: prm(1),
      hint: hintOk,
      teacher: {
        logprobs: [-0.25, -0.75],
        topK: [
          { ids: Int32Array.from([10, 4]), logprobs: Float32Array.from([-0.25, -2]) },
          { ids: [11], logprobs: [-0.75] },
        ],
      },
    }),
  );
  assert.deepEqual(s, {
    id: 's1:3',
    sessionId: 's1',
    turnId: 3,
    policyVersion: 7,
    promptIds: [1, 2, 3],
    responseIds: [10, 11],
    rolloutLogprobs: [-0.5, -1.5],
    lossMask: 1,
    reward: 1,
    teacherLogprobs: [-0.25, -0.75],
    teacherTopK: [
      { ids: [10, 4], logprobs: [-0.25, -2] },
      { ids: [11], logprobs: [-0.75] },
    ],
    type: 'opd+rl',
    votes: [1, 1, 'fail'],
    hint: HINT,
    createdAt: NOW,
  });
});

test('openclaw-rl: every main turn is an rl sample; lossMask 0 without next state or with r = 0', () => {
  assert.deepEqual(brief(sampleOf(decide('openclaw-rl', turn(1), { prm: prm(1) }))), ['rl', 1, 1, false]);
  assert.deepEqual(brief(sampleOf(decide('openclaw-rl', turn(1), { prm: prm(-1) }))), ['rl', -1, 1, false]);
  assert.deepEqual(brief(sampleOf(decide('openclaw-rl', turn(1), { prm: prm(0) }))), ['rl', 0, 0, false]);
  assert.deepEqual(brief(sampleOf(decide('openclaw-rl', turn(1), {}))), ['rl', 0, 0, false], 'no PRM result counts as 0');
  assert.deepEqual(brief(sampleOf(decide('openclaw-rl', turn(1, false), {}))), ['rl', 0, 0, false]);
  // A hint, if any, is ignored in this mode.
  const s = sampleOf(decide('openclaw-rl', turn(1), { prm: prm(1), hint: hintOk, teacher }));
  assert.deepEqual([s.hint, s.teacherLogprobs, s.votes], [null, null, [1, 1, 'fail']]);
});

test('openclaw-opd: only hint-accepted turns train, with teacher log-probs and reward 0', () => {
  const s = sampleOf(decide('openclaw-opd', turn(1), { hint: hintOk, teacher, prm: prm(-1) }));
  assert.deepEqual(brief(s), ['opd', 0, 1, true]);
  assert.deepEqual([s.hint, s.votes, s.teacherLogprobs], [HINT, [1, -1, 1], [-0.25, -0.75]]);
  assert.equal(dropReason(decide('openclaw-opd', turn(1), { hint: hintNo })), 'hint_rejected');
  assert.equal(dropReason(decide('openclaw-opd', turn(1), {})), 'hint_rejected');
  assert.equal(dropReason(decide('openclaw-opd', turn(1, false), {})), 'no_next_state', 'force-drop');
});

test('openclaw-opd with hint-reject / force-drop off: the turn is kept, masked, without teacher', () => {
  const rejected = sampleOf(decide('openclaw-opd', turn(1), { hint: hintNo }, { hintReject: false }));
  assert.deepEqual(brief(rejected), ['opd', 0, 0, false]);
  assert.deepEqual(rejected.votes, [-1, -1, 'fail']);
  assert.deepEqual(brief(sampleOf(decide('openclaw-opd', turn(1, false), {}, { forceDrop: false }))), ['opd', 0, 0, false]);
});

test('teacher log-probs that do not fit the response drop the turn, never padded', () => {
  const bad: Array<TurnSignals['teacher']> = [
    undefined,
    { logprobs: [-0.25] },
    { logprobs: [-0.25, -0.75, -1] },
    { logprobs: [-0.25, Number.NaN] },
    { logprobs: [-0.25, 0.5] },
    { logprobs: [-0.25, -0.75], topK: [{ ids: [1], logprobs: [-1] }] },
  ];
  for (const t of bad) {
    assert.equal(dropReason(decide('openclaw-opd', turn(1), { hint: hintOk, teacher: t })), 'teacher_mismatch');
    assert.equal(dropReason(decide('openclaw-combine', turn(1), { hint: hintOk, prm: prm(1), teacher: t })), 'teacher_mismatch');
  }
});

test('openclaw-combine three-way dispatch table', () => {
  assert.deepEqual(brief(sampleOf(decide('openclaw-combine', turn(1), { prm: prm(1), hint: hintOk, teacher }))), ['opd+rl', 1, 1, true]);
  assert.deepEqual(brief(sampleOf(decide('openclaw-combine', turn(1), { prm: prm(-1), hint: hintOk, teacher }))), ['opd+rl', -1, 1, true]);
  const opdOnly = sampleOf(decide('openclaw-combine', turn(1), { prm: prm(0), hint: hintOk, teacher }));
  assert.deepEqual(brief(opdOnly), ['opd', 0, 1, true]);
  assert.deepEqual(opdOnly.votes, [1, -1, 1], 'an opd sample records the hint votes');
  // RL only: teacherLogprobs is null, so the OPD term is exactly 0 (not teacher := rollout).
  const rlOnly = sampleOf(decide('openclaw-combine', turn(1), { prm: prm(-1), hint: hintNo, teacher }));
  assert.deepEqual(brief(rlOnly), ['rl', -1, 1, false]);
  assert.equal(rlOnly.teacherTopK, null);
  assert.equal(dropReason(decide('openclaw-combine', turn(1), { prm: prm(0), hint: hintNo })), 'no_signal');
  assert.equal(dropReason(decide('openclaw-combine', turn(1), {})), 'no_signal');
  assert.equal(dropReason(decide('openclaw-combine', turn(1, false), { prm: prm(1), hint: hintOk, teacher })), 'no_next_state');
});

test('openclaw-combine: a turn whose only signal has weight 0 is dropped', () => {
  assert.equal(dropReason(decide('openclaw-combine', turn(1), { prm: prm(1), hint: hintNo }, { wRl: 0 })), 'zero_weight');
  assert.equal(dropReason(decide('openclaw-combine', turn(1), { prm: prm(0), hint: hintOk, teacher }, { wOpd: 0 })), 'zero_weight');
  // With both signals, one non-zero weight keeps the sample.
  assert.deepEqual(brief(sampleOf(decide('openclaw-combine', turn(1), { prm: prm(1), hint: hintOk, teacher }, { wRl: 0 }))), [
    'opd+rl',
    1,
    1,
    true,
  ]);
  assert.throws(() => decide('openclaw-combine', turn(1), {}, { wRl: Number.NaN }), /training.w_rl/);
});

test('openclaw-combine without three-way dispatch: every turn is a sample, masked when it has no signal', () => {
  const off = { threeWayDispatch: false };
  assert.deepEqual(brief(sampleOf(decide('openclaw-combine', turn(1), { prm: prm(1), hint: hintOk, teacher }, off))), [
    'opd+rl',
    1,
    1,
    true,
  ]);
  assert.deepEqual(brief(sampleOf(decide('openclaw-combine', turn(1), { prm: prm(-1), hint: hintNo }, off))), ['rl', -1, 1, false]);
  assert.deepEqual(brief(sampleOf(decide('openclaw-combine', turn(1), { prm: prm(0), hint: hintNo }, off))), ['rl', 0, 0, false]);
  assert.deepEqual(brief(sampleOf(decide('openclaw-combine', turn(1, false), {}, off))), ['rl', 0, 0, false]);
});

test('empty responses are dropped; misaligned rollout log-probs are a data error', () => {
  assert.equal(dropReason(decide('openclaw-rl', { ...turn(1), responseIds: [], rolloutLogprobs: [] }, { prm: prm(1) })), 'empty_response');
  assert.throws(
    () => decide('openclaw-rl', { ...turn(1), rolloutLogprobs: [-1] }, { prm: prm(1) }),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'data' && /2 response tokens but 1 rollout log-probs/.test(e.message),
  );
});

test('at-least-one: a session with no trainable turn trains its first judged turn', () => {
  // Turn 1 judged 0, turn 2 judged 0, turn 3 never got a next state (session ended).
  const decisions = [
    decide('openclaw-rl', turn(2), { prm: prm(0) }),
    decide('openclaw-rl', turn(1), { prm: prm(0) }),
    decide('openclaw-rl', turn(3, false), {}),
  ];
  const before = structuredClone(decisions);
  const out = finishSession(decisions, { mode: 'openclaw-rl' });
  assert.deepEqual(
    out.map((d) => [sampleOf(d).turnId, sampleOf(d).lossMask, (d as { promoted: boolean }).promoted]),
    [
      [2, 0, false],
      [1, 1, true],
      [3, 0, false],
    ],
  );
  assert.equal(sampleOf(out[1]).reward, 0, 'the promoted turn keeps its judged reward');
  assert.deepEqual(decisions, before, 'input not modified');
});

test('at-least-one: nothing changes when a turn already trains, when off, or when nothing was judged', () => {
  const trains = [decide('openclaw-rl', turn(1), { prm: prm(0) }), decide('openclaw-rl', turn(2), { prm: prm(-1) })];
  assert.deepEqual(
    applyAtLeastOne(trains).map((d) => sampleOf(d).lossMask),
    [0, 1],
  );

  const zeros = [decide('openclaw-rl', turn(1), { prm: prm(0) })];
  assert.equal(sampleOf(finishSession(zeros, { mode: 'openclaw-rl', flags: { atLeastOne: false } })[0]).lossMask, 0);

  const unjudged = [decide('openclaw-rl', turn(1, false), {})];
  assert.equal(sampleOf(applyAtLeastOne(unjudged)[0]).lossMask, 0, 'a turn without next state is never promoted');

  // Other modes are not affected by the flag.
  const opd = [decide('openclaw-opd', turn(1), { hint: hintNo })];
  assert.deepEqual(finishSession(opd, { mode: 'openclaw-opd', flags: { atLeastOne: true } }), opd);
});

test('force-drop at session end: an opd session keeps only its hinted turns', () => {
  const decisions = finishSession(
    [
      decide('openclaw-opd', turn(1), { hint: hintOk, teacher }),
      decide('openclaw-opd', turn(2), { hint: hintNo }),
      decide('openclaw-opd', turn(3, false), {}),
    ],
    { mode: 'openclaw-opd' },
  );
  assert.deepEqual(
    decisions.map((d) => (d.kind === 'sample' ? `${d.sample.turnId}:${d.sample.type}` : `${d.turnId}:${d.reason}`)),
    ['1:opd', '2:hint_rejected', '3:no_next_state'],
  );
});

test('an unknown mode is a config error', () => {
  assert.throws(() => decide('openclaw-xx' as Mode, turn(1), {}), /unknown mode "openclaw-xx"/);
});
