// `npm run bench:gate`: what the regression gate costs on the embedded engine (the shipped base
// checkpoint). A `train` server with N held-out samples (answers the policy itself sampled); then
//  1. time per gate check as the trainer runs it (the held-out set scored twice on the training
//     thread: the serving version's baseline before the step, the trained weights after it),
//  2. chat latency while idle vs while gate checks run back to back (p50/p99 and their ratio,
//     measured in the same run, interleaved, so machine noise hits both).
// Target (docs/evaluation.md): serving p99 during an evaluation ≤ 2× idle.
// `-- --faults`: the gate against faults and healthy training instead (bench/gate-faults.ts).
if (process.argv.includes('--faults')) {
  await import('./gate-faults.ts');
  process.exit(0);
}
import pino from 'pino';
import { BASE_CHECKPOINT, startServer } from '../src/app/index.ts';
import { makeSample } from '../test/support/sample-fixtures.ts';
import { holdoutLogprobs, judgeCandidate, trainedScorer } from '../src/trainer/gate.ts';
import { tempDir } from '../test/support/temp.ts';
import { embeddedTrainConfig } from '../test/support/train-sessions.ts';
import { PROMPTS, latencyDuring, latencyReport } from './serving-latency.ts';

const N = Number(process.env.BENCH_HOLDOUT ?? 32);
const CHECKS = Number(process.env.BENCH_CHECKS ?? 5);
const CHATS = Number(process.env.BENCH_CHATS ?? 40);

const out = tempDir('ocrl-bench-gate-');
const config = embeddedTrainConfig(out, BASE_CHECKPOINT, {
  'rollout.max_tokens': 32,
  'rollout.temperature': 0.8,
  // The bench holds out its own samples below; the trainer's hash picks none of them.
  'evaluation.holdout_fraction': 1e-9,
  'evaluation.holdout_max': N,
  'evaluation.gate': { metric: 'holdout_reward_logprob', min_samples: 1 },
});
const server = await startServer(config, { train: true, log: pino({ level: 'silent' }) });
const engine = server.engine!;
server.trainer!.pause(); // the bench calls the gate itself

// N held-out samples: answers of the policy to varied prompts, as live traffic would leave them.
const prompts = PROMPTS;
for (let i = 0; i < N; i++) {
  const promptIds =
    server.engine!.kind === 'embedded'
      ? (engine as unknown as { tokenizer: { encode(t: string): number[] } }).tokenizer.encode(prompts[i % prompts.length])
      : [];
  const g = await engine.generate({ promptIds, maxTokens: 32, temperature: 0.8, seed: i });
  server.store.addSample(
    makeSample(`held-${i}`, 1, {
      policyVersion: 0,
      promptIds,
      responseIds: g.tokenIds,
      rolloutLogprobs: g.logprobs,
      reward: i % 3 === 0 ? -1 : 1,
    }),
  );
}
const held = server.store.reserveHoldout(() => true).moved;

const checkMs: number[] = [];
const { idle, during } = await latencyDuring(server.url, { rounds: CHECKS, chats: CHATS }, async () => {
  const t0 = performance.now();
  const held = server.store.holdoutSamples(N);
  const scoreTrained = trainedScorer(engine);
  judgeCandidate(config, held, await holdoutLogprobs(config, held, scoreTrained), await holdoutLogprobs(config, held, scoreTrained));
  checkMs.push(performance.now() - t0);
});
await server.close();

console.log(`held-out samples: ${held} (answers of up to 32 tokens), ${CHECKS} gate checks`);
console.log(
  `gate check (baseline + candidate, training thread): mean ${(checkMs.reduce((a, b) => a + b, 0) / checkMs.length).toFixed(0)} ms, ${(checkMs.reduce((a, b) => a + b, 0) / checkMs.length / held).toFixed(1)} ms per held-out sample`,
);
console.log(latencyReport(idle, during, 'a check'));
