// `npm run bench:tinker`: client-side cost of one Tinker training step for an OpenClaw-sized batch
// (BENCH_SAMPLES = 16 samples × BENCH_PROMPT = 16 000 prompt tokens + BENCH_RESPONSE = 300
// response tokens): folding the reduction into the advantages, building and JSON-encoding the
// datums, packing them into forward_backward bodies under the SDK limits. Prints ms per step
// (median of BENCH_RUNS = 5), bytes and requests, how many times each datum was JSON-encoded, and
// the ratio to a same-run baseline: one bare JSON.stringify of the same token arrays (the least
// any JSON client must do). Target: ≤ 150 ms of our CPU per step, one encode per datum.
// Then the other per-request cost of a Tinker policy, prompt encoding on the gateway's event loop:
// bench/prompt-encode.ts (full vs incremental per turn of a captured OpenClaw session).
import { forwardBackwardBody, planForwardBackward } from '../src/engines/tinker/index.ts';
import type { TrainSample } from '../src/engines/types.ts';
import { benchPromptEncode } from './prompt-encode.ts';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 16);
const PROMPT = Number(process.env.BENCH_PROMPT ?? 16_000);
const RESPONSE = Number(process.env.BENCH_RESPONSE ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function batch(): TrainSample[] {
  let s = 7;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: SAMPLES }, () => ({
    promptIds: Array.from({ length: PROMPT }, () => Math.floor(rnd() * 151_000)),
    responseIds: Array.from({ length: RESPONSE }, () => Math.floor(rnd() * 151_000)),
    rolloutLogprobs: Array.from({ length: RESPONSE }, () => -rnd() * 3),
    advantages: Array.from({ length: RESPONSE }, () => (rnd() < 0.5 ? 1 : -1)),
    lossMask: new Array(RESPONSE).fill(1),
  }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const samples = batch();
const loss = { clipRatio: 0.2, clipRatioHigh: 0.28 };

// Count datum encodes: every JSON.stringify call whose value is a datum.
const stringify = JSON.stringify;
let datumEncodes = 0;
JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
  if (value !== null && typeof value === 'object' && 'model_input' in (value as object)) datumEncodes++;
  return (stringify as (...a: unknown[]) => string)(value, ...rest);
}) as typeof JSON.stringify;

const times: number[] = [];
const cpu: number[] = [];
let bytes = 0;
let requests = 0;
for (let r = 0; r < RUNS; r++) {
  datumEncodes = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const plan = planForwardBackward(samples, { loss });
  const bodies = plan.chunks.map((c, i) => forwardBackwardBody('model-1', i + 1, plan.lossFnConfig, c.datums));
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  bytes = bodies.reduce((n, b) => n + Buffer.byteLength(b), 0);
  requests = bodies.length;
}
const encodesPerDatum = datumEncodes / SAMPLES;
JSON.stringify = stringify;

const base: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const t0 = performance.now();
  let n = 0;
  for (const s of samples)
    n += JSON.stringify({
      a: [...s.promptIds, ...s.responseIds].slice(0, -1),
      b: [...s.promptIds, ...s.responseIds].slice(1),
      c: s.rolloutLogprobs,
      d: s.advantages,
    }).length;
  base.push(performance.now() - t0);
  if (n === 0) throw new Error('unreachable');
}

const ms = median(times);
console.log(`bench:tinker  batch ${SAMPLES} × (${PROMPT} prompt + ${RESPONSE} response) tokens, median of ${RUNS}`);
console.log(`  build+fold+encode+pack   ${ms.toFixed(1)} ms wall, ${median(cpu).toFixed(1)} ms CPU (target ≤ 150 ms)`);
console.log(`  forward_backward bodies  ${requests} request(s), ${(bytes / 1e6).toFixed(2)} MB (limit 5 MB / 1024 datums each)`);
console.log(`  requests per step        ${requests} forward_backward + 1 optim_step + 1 save_weights_for_sampler = ${requests + 2}`);
console.log(`  JSON encodes per datum   ${encodesPerDatum.toFixed(2)} (target 1)`);
console.log(`  baseline (bare stringify of the same arrays) ${median(base).toFixed(1)} ms → ratio ${(ms / median(base)).toFixed(2)}×`);

console.log('');
await benchPromptEncode();
