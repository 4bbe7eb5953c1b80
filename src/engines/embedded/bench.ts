// Throughput of the embedded engine on this machine: generation tokens/s, training tokens/s and
// effective training GFLOP/s, next to a plain 2-D matMul measured in the same run (the ratio is
// what docs/design.md §5 asks to watch: the model should run within a small factor of raw matMul).

import * as tf from '@tensorflow/tfjs';
import type { TrainOptions, TrainSample } from '../types.ts';
import { initBackend } from './backend.ts';
import { Gpt, forwardFlops, type GptConfig } from './model.ts';
import { AdamW } from './optimizer.ts';
import { generateTokens } from './sampling.ts';
import { trainStep } from './train.ts';

/** What to measure. */
export interface EngineBenchOptions {
  config?: GptConfig;
  /** Sequences per training step and tokens per sequence (all of them trained). */
  batch?: number;
  seqLen?: number;
  trainSteps?: number;
  genTokens?: number;
}

/** Measured numbers (times in ms, rates per second). */
export interface EngineBenchResult {
  config: GptConfig;
  batch: number;
  seqLen: number;
  trainStepMs: number;
  trainTokensPerSec: number;
  trainGflops: number;
  matmulGflops: number;
  /** trainGflops / matmulGflops (team target ≥ 0.25). */
  trainToMatmulRatio: number;
  generateTokensPerSec: number;
}

/** Default shape: d=128, 4 layers, 4 heads, 1024-token vocabulary, 256 context. */
export const BENCH_CONFIG: GptConfig = { vocabSize: 1024, dModel: 128, nLayer: 4, nHead: 4, ctx: 256 };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** GFLOP/s of [1024×d]·[d×4d] and [1024×4d]·[4d×d] products, the MLP shapes of the model. */
export function matmulGflops(d: number, reps = 20): number {
  const shapes: Array<[number, number, number]> = [
    [1024, d, 4 * d],
    [1024, 4 * d, d],
  ];
  let flops = 0;
  let ms = 0;
  for (const [m, k, n] of shapes) {
    const a = tf.randomNormal([m, k]);
    const b = tf.randomNormal([k, n]);
    for (let i = 0; i < 3; i++) tf.matMul(a, b).dispose();
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) {
      const c = tf.matMul(a, b);
      c.dataSync();
      c.dispose();
    }
    ms += performance.now() - t0;
    flops += 2 * m * k * n * reps;
    tf.dispose([a, b]);
  }
  return flops / ms / 1e6;
}

/** Runs the measurements (about 10–20 s at the default shape on one core). */
export async function benchEngine(opts: EngineBenchOptions = {}): Promise<EngineBenchResult> {
  await initBackend();
  const config = opts.config ?? BENCH_CONFIG;
  const batch = opts.batch ?? 8;
  const seqLen = opts.seqLen ?? 128;
  const model = Gpt.create(config, 1);
  const optimizer = new AdamW();
  try {
    // One prompt token, then seqLen response tokens: the model reads seqLen tokens per sequence
    // and every position is trained.
    const samples: TrainSample[] = Array.from({ length: batch }, (_, b) => {
      const responseIds = Array.from({ length: seqLen }, (_, t) => (b * 131 + t * 7) % config.vocabSize);
      return {
        promptIds: [b % config.vocabSize],
        responseIds,
        rolloutLogprobs: responseIds.map(() => -Math.log(config.vocabSize)),
        advantages: responseIds.map((_, t) => (t % 2 === 0 ? 1 : -1)),
        lossMask: responseIds.map(() => 1),
      };
    });
    const trainOpts: TrainOptions = {
      loss: { clipRatio: 0.2, clipRatioHigh: 0.28, klCoef: 0, entropyCoef: 0, distillTopKCoef: 0 },
      lr: 1e-5,
      epochs: 1,
      minibatches: 1,
      maxGradNorm: 1,
      weightDecay: 0,
      temperature: 1,
    };
    const ctx = { policy: model, optimizer, reference: null };
    trainStep(ctx, samples, trainOpts); // warm-up: first-use allocations and kernel set-up
    const times: number[] = [];
    for (let i = 0; i < (opts.trainSteps ?? 3); i++) {
      const t0 = performance.now();
      trainStep(ctx, samples, trainOpts);
      times.push(performance.now() - t0);
    }
    const trainStepMs = median(times);
    const flops = 3 * forwardFlops(config, batch, seqLen);
    const trainGflops = flops / trainStepMs / 1e6;
    const matmul = matmulGflops(config.dModel);

    const genTokens = opts.genTokens ?? 128;
    const prompt = Array.from({ length: 16 }, (_, i) => (i * 17) % config.vocabSize);
    await generateTokens(model, { promptIds: prompt, maxTokens: 8, temperature: 1, seed: 1 });
    const g0 = performance.now();
    const out = await generateTokens(model, { promptIds: prompt, maxTokens: genTokens, temperature: 1, seed: 2 });
    const genMs = performance.now() - g0;

    return {
      config,
      batch,
      seqLen,
      trainStepMs,
      trainTokensPerSec: (batch * seqLen) / (trainStepMs / 1000),
      trainGflops,
      matmulGflops: matmul,
      trainToMatmulRatio: trainGflops / matmul,
      generateTokensPerSec: out.tokenIds.length / (genMs / 1000),
    };
  } finally {
    model.dispose();
    optimizer.dispose();
  }
}

/** One-line human summary of a bench result. */
export function formatBench(r: EngineBenchResult): string {
  const c = r.config;
  return [
    `model d=${c.dModel} layers=${c.nLayer} heads=${c.nHead} vocab=${c.vocabSize}; train batch ${r.batch}×${r.seqLen} tokens`,
    `generation: ${r.generateTokensPerSec.toFixed(0)} tokens/s`,
    `training: ${r.trainStepMs.toFixed(0)} ms/step, ${r.trainTokensPerSec.toFixed(0)} tokens/s, ${r.trainGflops.toFixed(2)} GFLOP/s`,
    `2-D matMul: ${r.matmulGflops.toFixed(2)} GFLOP/s; training/matMul = ${r.trainToMatmulRatio.toFixed(2)} (target ≥ 0.25)`,
  ].join('\n');
}
