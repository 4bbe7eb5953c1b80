import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probeCollapse, type ProbeSummary } from './collapse.ts';

const LIMITS = { max_kl: 3, max_not_answer_rise: 0.25, max_entropy_ratio: 4, max_length_ratio: 4, max_tool_error_rise: 0.25 };
const serving: ProbeSummary = { probes: 12, notAnswers: 0, entropy: 0.6, length: 40 };

test('a candidate that answers the probes like the serving version passes', () => {
  assert.equal(probeCollapse(serving, { probes: 12, notAnswers: 1 / 12, entropy: 0.8, length: 30 }, 0.4, LIMITS), null);
});

test('each way of collapsing is refused with its numbers and the limit that caught it', () => {
  assert.match(
    probeCollapse(serving, { ...serving, notAnswers: 0.5 }, 0.1, LIMITS)!,
    /50% of its answers to 12 probes are not answers .* against 0% .*max_not_answer_rise 0.25/,
  );
  assert.match(probeCollapse(serving, serving, 7.5, LIMITS)!, /7\.50 nats\/token .*max_kl 3/);
  assert.match(probeCollapse(serving, { ...serving, entropy: 4 }, 0.1, LIMITS)!, /entropy on the probes is 4\.00 .*×5\.9/);
  assert.match(probeCollapse(serving, { ...serving, entropy: 0 }, 0.1, LIMITS)!, /entropy .*×7\.0/, 'a policy that stopped varying');
  assert.match(probeCollapse(serving, { ...serving, length: 2 }, 0.1, LIMITS)!, /average 2\.0 tokens against 40\.0/);
});

test('nothing answered, or KL not measured: no verdict from what is missing', () => {
  assert.equal(probeCollapse(serving, { ...serving, probes: 0 }, undefined, LIMITS), null);
  assert.equal(probeCollapse(serving, serving, undefined, LIMITS), null);
});

test('tool calls that stopped working are refused; answering in words instead is not', () => {
  const base = { ...serving, toolErrors: 0 };
  assert.match(
    probeCollapse(base, { ...serving, toolErrors: 2 / 3 }, 0.1, LIMITS)!,
    /67% of its answers to probes with tools call them wrongly .* against 0% .*max_tool_error_rise 0\.25/,
  );
  assert.equal(probeCollapse(base, { ...serving, toolErrors: 0 }, 0.1, LIMITS), null);
  assert.equal(probeCollapse(serving, serving, 0.1, LIMITS), null, 'a policy that writes no tool calls: nothing to compare');
});
