// The gauges GET /metrics shows for a running server: session and token counters, the policy's
// version and chat counters, the scoring stage, and the latest training step under train.log's
// key names (all present from the start). In: the running parts. Out: the ServerMetrics.
import { ServerMetrics, type TokenResolver } from '../gateway/index.ts';
import type { ScoringStage } from '../pipeline/index.ts';
import type { SessionTracker } from '../sessions/index.ts';
import { STEP_KEYS, type Trainer } from '../trainer/index.ts';
import type { Policy } from './policy.ts';

export function serverMetrics(parts: {
  tracker: SessionTracker;
  tokens: TokenResolver;
  policy: Policy;
  pipeline: ScoringStage;
  trainer: () => Trainer | undefined;
}): ServerMetrics {
  const { tracker, tokens, policy, pipeline } = parts;
  const metrics = new ServerMetrics();
  metrics.addGauges('sessions', 'Session tracker counter', () => {
    const { sessions_by_source: _s, sessions_by_id_source: _i, ...flat } = tracker.counters;
    return { ...flat, live: tracker.size };
  });
  metrics.addGauges('tokens', 'Token alignment counter', () => ({ ...tokens.counters }));
  if (policy.alignmentCounters) metrics.addGauges('alignment', 'Re-tokenisation counter', () => ({ ...policy.alignmentCounters! }));
  metrics.addGauges('scoring', 'Scoring pipeline', () => pipeline.gauges());
  metrics.addGauges('policy', 'Policy', () => ({ version: policy.channel.version() }));
  if (policy.gauges) metrics.addGauges('policy_chat', 'Policy chat channel counter', policy.gauges);
  metrics.addGauges('train', 'Latest training step', () => ({
    ...Object.fromEntries(STEP_KEYS.map((k) => [k, 0])),
    ...(parts.trainer()?.log.latest ?? {}),
  }));
  return metrics;
}
