import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../test/support/temp.ts';
import { gateRefusalsOf } from './gate-refusals.ts';
import { formatEvaluation } from './format.ts';
import { evaluate } from './aggregate.ts';

test('gate refusals come from the metrics log, newest first; steps and a line cut by a crash are skipped', () => {
  const dir = tempDir('ocrl-refusals-');
  mkdirSync(join(dir, 'logs'));
  const refusal = (step: number, reason: string) =>
    JSON.stringify({
      time: `2026-12-05T10:0${step}:00.000Z`,
      event: 'gate_refused',
      at_step: step,
      policy_version: 3,
      metric: 'm',
      drop: 1,
      reason,
    });
  writeFileSync(
    join(dir, 'logs', 'metrics.jsonl'),
    [JSON.stringify({ step: 1, policy_version: 3 }), refusal(2, 'first'), refusal(3, 'second'), '{"event":"gate_refused","at_st'].join(
      '\n',
    ),
  );
  const r = gateRefusalsOf(dir);
  assert.equal(r.total, 2);
  assert.deepEqual(
    r.newest.map((x) => [x.at_step, x.reason]),
    [
      [3, 'second'],
      [2, 'first'],
    ],
  );
  assert.deepEqual(gateRefusalsOf(join(dir, 'missing')), { total: 0, newest: [] });

  const text = formatEvaluation({ ...evaluate({ samples: [], turnDrops: [] }), gate_refusals: r });
  assert.match(text, /Regression gate: 2 trained versions refused:\n- 2026-12-05T10:03:00.000Z step 3 \(version 3 kept serving\): second/);
});
