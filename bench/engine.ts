// `npm run bench:engine`: the embedded engine on this machine, all in one run.
//  1. In-process throughput (src/engines/embedded/bench.ts): generation tokens/s, training
//     tokens/s, effective training GFLOP/s as a ratio to a plain 2-D matMul (target ≥ 0.25).
//  2. Serving while training: chat completions through a TokenChatChannel on a WorkerEngine,
//     first idle, then while training steps run back to back in the training worker. Prints
//     latency p50/p99 and their ratio to idle (target p99 ≤ 2×), the main event loop's delay,
//     and how many training steps overlapped the measurement.
// Same model shape in both parts (BENCH_CONFIG: d=128, 4 layers, vocab 1024, context 256).
// Environment: BENCH_REQUESTS (default 40) requests per phase, BENCH_MAX_TOKENS (default 32),
// BENCH_TRAINING_NICE (default 10, the engine's default; 0 runs training at serving's priority).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BENCH_CONFIG, WorkerEngine, benchEngine, formatBench, trainBpe } from '../src/engines/embedded/index.ts';
import { EmbeddedChatTokenizer, TokenChatChannel } from '../src/chat/index.ts';
import type { TrainOptions, TrainSample } from '../src/engines/types.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const MAX_TOKENS = Number(process.env.BENCH_MAX_TOKENS ?? 32);
const TRAINING_NICE = Number(process.env.BENCH_TRAINING_NICE ?? 10);

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** A deterministic pseudo-word corpus, enough to learn a 1024-token BPE. */
function corpus(): string[] {
  const syllables = [
    'ka',
    'lo',
    'mi',
    'ne',
    'ru',
    'sa',
    'ti',
    'vo',
    'be',
    'da',
    'fi',
    'go',
    'hu',
    'je',
    'pa',
    'qu',
    'we',
    'xi',
    'yo',
    'zu',
  ];
  let state = 1;
  const rnd = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const word = () => Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => syllables[Math.floor(rnd() * syllables.length)]).join('');
  return Array.from({ length: 400 }, () => Array.from({ length: 30 }, word).join(' '));
}

/** Sequential chat requests; returns each one's latency in ms. */
async function chatLatencies(channel: TokenChatChannel, n: number, seed0: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await channel.complete({
      messages: [{ role: 'user', content: 'kalo mine rusa tivo, bedafi go?' }],
      max_tokens: MAX_TOKENS,
      temperature: 1,
      seed: seed0 + i,
    });
    out.push(performance.now() - t0);
  }
  return out;
}

function trainingBatch(vocab: number): TrainSample[] {
  // The same 8 × 128-token batch shape as the in-process measurement.
  return Array.from({ length: 8 }, (_, b) => {
    const responseIds = Array.from({ length: 128 }, (_, t) => (b * 131 + t * 7) % vocab);
    return {
      promptIds: [b % vocab],
      responseIds,
      rolloutLogprobs: responseIds.map(() => -Math.log(vocab)),
      advantages: responseIds.map((_, t) => (t % 2 === 0 ? 1 : -1)),
      lossMask: responseIds.map(() => 1),
    };
  });
}

const TRAIN_OPTS: TrainOptions = {
  loss: { clipRatio: 0.2, clipRatioHigh: 0.28, klCoef: 0, entropyCoef: 0, distillTopKCoef: 0 },
  lr: 1e-5,
  epochs: 1,
  minibatches: 1,
  maxGradNorm: 1,
  weightDecay: 0,
  temperature: 1,
};

const fmt = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms`;

async function servingWhileTraining(): Promise<void> {
  const tokenizer = trainBpe(corpus(), BENCH_CONFIG.vocabSize);
  const engine = await WorkerEngine.create(BENCH_CONFIG, { seed: 1, tokenizer, keepReference: false, trainingNice: TRAINING_NICE });
  const channel = new TokenChatChannel(engine, new EmbeddedChatTokenizer(tokenizer), {
    modelId: 'bench',
    defaultTemperature: 1,
    defaultMaxTokens: MAX_TOKENS,
    contextLength: BENCH_CONFIG.ctx,
  });
  try {
    const batch = trainingBatch(BENCH_CONFIG.vocabSize);
    await chatLatencies(channel, 10, 0); // warm-up of the serving worker (JIT, kernel set-up)
    const w0 = performance.now();
    await engine.trainStep(batch, TRAIN_OPTS); // warm-up of the training worker
    await engine.trainStep(batch, TRAIN_OPTS);
    const aloneStepMs = (performance.now() - w0) / 2;
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const idle = await chatLatencies(channel, REQUESTS, 100);
    const idleLagP99 = lag.percentile(99) / 1e6;
    lag.reset();

    let stop = false;
    let steps = 0;
    let stepMs = 0;
    const trainer = (async () => {
      while (!stop) {
        const t0 = performance.now();
        await engine.trainStep(batch, TRAIN_OPTS);
        stepMs += performance.now() - t0;
        steps += 1;
      }
    })();
    // Let the first step start before measuring.
    await new Promise((r) => setTimeout(r, 20));
    const b0 = performance.now();
    const stepsBefore = steps;
    const busy = await chatLatencies(channel, REQUESTS, 100);
    const windowMs = performance.now() - b0;
    const stepsDuring = steps - stepsBefore;
    const busyLagP99 = lag.percentile(99) / 1e6;
    lag.disable();
    stop = true;
    await trainer;
    const t0 = performance.now();
    const version = await engine.publish();
    const publishMs = performance.now() - t0;

    console.log(
      `\nchat while training (${REQUESTS} sequential requests, ${MAX_TOKENS} tokens each, WorkerEngine + TokenChatChannel, training thread nice +${TRAINING_NICE}):`,
    );
    console.log(`  idle:            ${fmt(idle)}; main event-loop delay p99 ${idleLagP99.toFixed(1)} ms`);
    console.log(`  during training: ${fmt(busy)}; main event-loop delay p99 ${busyLagP99.toFixed(1)} ms`);
    console.log(
      `  training meanwhile: ${stepsDuring} steps finished in the ${(windowMs / 1000).toFixed(1)} s window, ${(stepMs / Math.max(1, steps)).toFixed(0)} ms/step (${aloneStepMs.toFixed(0)} ms/step with serving idle)`,
    );
    console.log(
      `  ratio to idle:   p50 ${(percentile(busy, 50) / percentile(idle, 50)).toFixed(2)}×, p99 ${(percentile(busy, 99) / percentile(idle, 99)).toFixed(2)}× (target p99 ≤ 2×)`,
    );
    console.log(`  publish (worker → worker weight transfer and swap): ${publishMs.toFixed(1)} ms → version ${version}`);
  } finally {
    await engine.close();
  }
}

console.log(formatBench(await benchEngine()));
await servingWhileTraining();
