// `npm run bench:eval`: what the replay evaluation costs per version on the embedded engine (the
// shipped base checkpoint). A `train` server with N held-out hinted samples and P drift probes;
// then, as the trainer runs it for a staged version:
//  1. time per evaluation: N held-out prompts re-answered with the trained weights on the training
//     thread and scored by the (embedded) hinted teacher, plus P probes answered and scored by the
//     serving weights for probe_kl;
//  2. chat latency while idle vs during evaluations (p50/p99 and their ratio, measured in the same
//     run, interleaved, so machine noise hits both). Target (docs/evaluation.md): p99 ≤ 2× idle.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { BASE_CHECKPOINT, startServer } from '../src/app/index.ts';
import { makeSample } from '../test/support/sample-fixtures.ts';
import type { VersionEvaluator } from '../src/trainer/index.ts';
import { tempDir } from '../test/support/temp.ts';
import { embeddedTrainConfig } from '../test/support/train-sessions.ts';
import { PROMPTS, latencyDuring, latencyReport } from './serving-latency.ts';

const N = Number(process.env.BENCH_REPLAY ?? 16);
const P = Number(process.env.BENCH_PROBES ?? 8);
const MAX_TOKENS = Number(process.env.BENCH_MAX_TOKENS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHATS = Number(process.env.BENCH_CHATS ?? 30);

const prompts = PROMPTS;
const out = tempDir('ocrl-bench-eval-');
const probeFile = join(out, 'probes.jsonl');
writeFileSync(
  probeFile,
  Array.from({ length: P }, (_, i) => JSON.stringify({ prompt: `${prompts[i % prompts.length]} (${i})` })).join('\n'),
);
const config = embeddedTrainConfig(out, BASE_CHECKPOINT, {
  mode: 'openclaw-combine',
  'rollout.max_tokens': MAX_TOKENS,
  'rollout.temperature': 0.8,
  // The bench holds out its own samples below; the trainer's hash picks none of them.
  'evaluation.holdout_fraction': 1e-9,
  'evaluation.replay_max': N,
  'evaluation.probe_file': probeFile,
  'evaluation.probe_max_tokens': MAX_TOKENS,
});
const server = await startServer(config, { train: true, log: pino({ level: 'silent' }) });
const engine = server.engine!;
server.trainer!.pause(); // the bench runs the evaluation itself
const tok = (engine as unknown as { tokenizer: { encode(t: string): number[] } }).tokenizer;

// N held-out hinted samples: the policy's own answers, with a hinted prompt as the pipeline keeps it.
for (let i = 0; i < N; i++) {
  const prompt = prompts[i % prompts.length];
  const promptIds = tok.encode(prompt);
  const g = await engine.generate({ promptIds, maxTokens: MAX_TOKENS, temperature: 0.8, seed: i });
  const teacherPromptIds = tok.encode(`${prompt}\n[user's hint]\nAnswer in one short sentence.`);
  const teacher = await engine.score({ promptIds: teacherPromptIds, responseIds: g.tokenIds, temperature: 0.8 });
  server.store.addSample(
    makeSample(`held-${i}`, 1, {
      policyVersion: 0,
      type: 'opd',
      reward: 0,
      promptIds,
      responseIds: g.tokenIds,
      rolloutLogprobs: g.logprobs,
      teacherLogprobs: teacher.logprobs,
      teacherPromptIds,
      hint: 'Answer in one short sentence.',
    }),
  );
}
server.store.reserveHoldout(() => true);
// The trainer's evaluator, as its step would call it for a staged version.
const evaluator = (server.trainer as unknown as { evaluator: VersionEvaluator }).evaluator;
const staged = {
  generate: (r: Parameters<typeof engine.generate>[0]) => engine.generateTrained!(r),
  score: (r: Parameters<typeof engine.score>[0]) => engine.scoreTrained!(r),
};

const evalS: number[] = [];
let last: Record<string, { value: number; samples: number }> = {};
const { idle, during } = await latencyDuring(server.url, { rounds: ROUNDS, chats: CHATS }, async () => {
  const r = await evaluator.evaluate(staged, (req) => engine.score(req));
  evalS.push(r.seconds);
  last = r.metrics;
});
await server.close();

const mean = evalS.reduce((a, b) => a + b, 0) / evalS.length;
console.log(`${N} held-out prompts + ${P} probes, answers of up to ${MAX_TOKENS} tokens, ${ROUNDS} evaluations`);
console.log(
  `metrics: ${Object.entries(last)
    .map(([k, m]) => `${k}=${m.value.toFixed(4)} (${m.samples})`)
    .join(' ')}`,
);
console.log(`evaluation per version: mean ${(mean * 1000).toFixed(0)} ms, ${((mean * 1000) / (N + P)).toFixed(1)} ms per prompt`);
console.log(latencyReport(idle, during, 'evaluation'));
