// The in-process teacher (`teacher.provider: embedded` with the embedded rollout): the policy
// engine's own base model scoring with the hint in view (docs/design.md §1.4), at the rollout
// temperature so teacher and rollout log-probs share one convention.
import { logprobTemperature, type PolicyEngine } from '../../engines/types.ts';
import type { TeacherBackend } from './teacher.ts';

/** A teacher backend over `engine.score` at `temperature`; closing it leaves the engine to its owner. */
export function engineTeacherBackend(engine: PolicyEngine, temperature: number): TeacherBackend {
  return {
    dialect: 'embedded',
    // Greedy decoding (T = 0) records log-probs at T = 1, and so does scoring.
    logprobTemperature: logprobTemperature(temperature),
    async score(promptIds, responseIds, topK) {
      const r = await engine.score({ promptIds: [...promptIds], responseIds: [...responseIds], temperature, topK });
      return { logprobs: r.logprobs, topK: r.topK?.map((k) => ({ ids: Array.from(k.ids), logprobs: Array.from(k.logprobs) })) };
    },
    async close() {},
  };
}
