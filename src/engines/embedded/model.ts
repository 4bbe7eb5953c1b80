// A small decoder-only transformer (GPT-2 shape: learned positions, pre-LN blocks, causal
// self-attention, GELU MLP, final LN, head tied to the token embedding by default), written for
// the tfjs wasm backend. Every matrix product is a plain 2-D matMul: on wasm, batched matMul and
// the transposeA/transposeB flags run ~7× slower, so the ops below carry hand-written gradients
// (tf.customGrad) whose backward passes materialise transposes instead of asking for them.
//
// Shapes: a batch of B sequences padded to T tokens is one [N = B·T, d] matrix through the
// linear layers; attention works per (head, sequence) on [T, dh] blocks. Padding sits at the
// end of each sequence, so causal attention keeps it invisible to the real tokens.

import * as tf from '@tensorflow/tfjs';
import { OpenClawError } from '../../errors/index.ts';
import { Rng } from '../../rl/index.ts';

/** Model shape. */
export interface GptConfig {
  vocabSize: number;
  dModel: number;
  nLayer: number;
  nHead: number;
  /** Context length: the most tokens (prompt + response) one sequence may have. */
  ctx: number;
  /** Output head shares the token-embedding matrix (default true). */
  tieEmbeddings?: boolean;
}

/** Weights by name (`wte`, `h.0.attn.wqkv`, ...); linear weights are [in, out]. */
export type Params = Record<string, tf.Tensor>;

/** Key/value cache of incremental decoding: per layer [nHead, length, dh]. */
export interface KvCache {
  k: tf.Tensor3D[];
  v: tf.Tensor3D[];
  length: number;
}

/**
 * The caches of B sequences of different lengths decoded together: per layer [B·nHead, L, dh]
 * (sequence-major), each sequence's keys padded on the right to the longest, and an additive key
 * mask [B·nHead, 1, L] that hides the padding. Positions live in the input embeddings, not in the
 * attention, so where a key sits in the cache does not matter: only which keys are real.
 */
export interface BatchKvCache {
  k: tf.Tensor3D[];
  v: tf.Tensor3D[];
  bias: tf.Tensor3D;
}

const LN_EPS = 1e-5;
const MASKED = -1e9;

/** Checks a config and throws an actionable error for impossible shapes. */
export function validateConfig(cfg: GptConfig): void {
  const ints = ['vocabSize', 'dModel', 'nLayer', 'nHead', 'ctx'] as const;
  for (const key of ints) {
    if (!Number.isInteger(cfg[key]) || cfg[key] <= 0)
      throw new OpenClawError('config', `model config ${key} must be a positive integer, got ${cfg[key]}`);
  }
  if (cfg.dModel % cfg.nHead !== 0)
    throw new OpenClawError('config', `model config dModel (${cfg.dModel}) must be divisible by nHead (${cfg.nHead})`);
}

/** Name, shape and init std of every weight; LN gains (std 0) start at 1. */
export function paramSpecs(cfg: GptConfig): Array<{ name: string; shape: number[]; std: number }> {
  const d = cfg.dModel;
  const residualStd = 0.02 / Math.sqrt(2 * cfg.nLayer);
  const specs = [
    { name: 'wte', shape: [cfg.vocabSize, d], std: 0.02 },
    { name: 'wpe', shape: [cfg.ctx, d], std: 0.01 },
  ];
  for (let l = 0; l < cfg.nLayer; l++) {
    specs.push(
      { name: `h.${l}.ln1.g`, shape: [d], std: 0 },
      { name: `h.${l}.ln1.b`, shape: [d], std: 0 },
      { name: `h.${l}.attn.wqkv`, shape: [d, 3 * d], std: 0.02 },
      { name: `h.${l}.attn.wproj`, shape: [d, d], std: residualStd },
      { name: `h.${l}.ln2.g`, shape: [d], std: 0 },
      { name: `h.${l}.ln2.b`, shape: [d], std: 0 },
      { name: `h.${l}.mlp.wfc`, shape: [d, 4 * d], std: 0.02 },
      { name: `h.${l}.mlp.wproj`, shape: [4 * d, d], std: residualStd },
    );
  }
  specs.push({ name: 'lnf.g', shape: [d], std: 0 }, { name: 'lnf.b', shape: [d], std: 0 });
  if (cfg.tieEmbeddings === false) specs.push({ name: 'head', shape: [d, cfg.vocabSize], std: 0.02 });
  return specs;
}

/** Fresh weights from a seed: N(0, std) matrices, LN gains 1 and biases 0. */
export function initParams(cfg: GptConfig, seed: number): Params {
  validateConfig(cfg);
  const rng = new Rng(seed);
  const params: Params = {};
  for (const spec of paramSpecs(cfg)) {
    const size = spec.shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(size);
    if (spec.name.endsWith('.g')) values.fill(1);
    else if (spec.std > 0) for (let i = 0; i < size; i++) values[i] = rng.normal() * spec.std;
    params[spec.name] = tf.variable(tf.tensor(values, spec.shape, 'float32'), true);
  }
  return params;
}

/** Number of weights (tied head counted once). */
export function paramCount(cfg: GptConfig): number {
  return paramSpecs(cfg).reduce((n, s) => n + s.shape.reduce((a, b) => a * b, 1), 0);
}

/**
 * Forward FLOPs of B sequences of T tokens with the head applied on `headRows` rows:
 * 2·(weights used per token) per token, plus 4·T²·d per layer per sequence for attention
 * (causal masking not subtracted, as the dense scores are computed). Training ≈ 3× this.
 */
export function forwardFlops(cfg: GptConfig, B: number, T: number, headRows = B * T): number {
  const d = cfg.dModel;
  const perTokenBlocks = 12 * d * d * cfg.nLayer;
  return 2 * B * T * perTokenBlocks + 2 * headRows * d * cfg.vocabSize + 4 * cfg.nLayer * B * T * T * d;
}

// ---- ops with hand-written gradients -------------------------------------------------------

interface CustomResult {
  value: tf.Tensor;
  // Method syntax on purpose: parameters are then compared bivariantly, so each op may
  // narrow dy to the rank it knows.
  gradFunc(dy: tf.Tensor, saved: tf.Tensor[]): tf.Tensor | tf.Tensor[];
}

type WithoutLast<P extends unknown[]> = P extends [...infer Head, unknown] ? Head : never;

/** tf.customGrad with the typing spelled out once: the last argument of `f` is tfjs's save hook. */
// biome-ignore lint/suspicious/noExplicitAny: `any[]` is the only parameter list every op's own tuple is assignable to
function customOp<F extends (...args: any[]) => CustomResult>(f: F): (...args: WithoutLast<Parameters<F>>) => tf.Tensor2D {
  return tf.customGrad(f as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (
    ...args: WithoutLast<Parameters<F>>
  ) => tf.Tensor2D;
}

/** x·w for x [N, in], w [in, out]; backward uses explicit transposes (dy·wᵀ, xᵀ·dy). */
export const linear = customOp((x: tf.Tensor2D, w: tf.Tensor2D, save: tf.GradSaveFunc) => {
  save([x, w]);
  return {
    value: tf.matMul(x, w),
    gradFunc: (dy: tf.Tensor2D, [xs, ws]: tf.Tensor[]) => [
      tf.matMul(dy, tf.transpose(ws as tf.Tensor2D)),
      tf.matMul(tf.transpose(xs as tf.Tensor2D), dy),
    ],
  };
});

/** x·eᵀ for x [N, d], e [V, d] (the tied output head). */
export const linearTransposed = customOp((x: tf.Tensor2D, e: tf.Tensor2D, save: tf.GradSaveFunc) => {
  save([x, e]);
  return {
    value: tf.matMul(x, tf.transpose(e)),
    gradFunc: (dy: tf.Tensor2D, [xs, es]: tf.Tensor[]) => [
      tf.matMul(dy, es as tf.Tensor2D),
      // (xᵀ·dy)ᵀ transposes the small [d, V] product rather than the large [N, V] gradient.
      tf.transpose(tf.matMul(tf.transpose(xs as tf.Tensor2D), dy)),
    ],
  };
});

/** Layer norm over the last axis with gain g and bias b. */
export const layerNorm = customOp((x: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  const centred = tf.sub(x, tf.mean(x, -1, true));
  const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(centred), -1, true), LN_EPS));
  const y = tf.mul(centred, rstd);
  save([y, rstd, g]);
  return {
    value: tf.add(tf.mul(y, g), b),
    gradFunc: (dy: tf.Tensor2D, [ys, rs, gs]: tf.Tensor[]) => {
      const dyg = tf.mul(dy, gs);
      const dx = tf.mul(rs, tf.sub(tf.sub(dyg, tf.mean(dyg, -1, true)), tf.mul(ys, tf.mean(tf.mul(dyg, ys), -1, true))));
      return [dx, tf.sum(tf.mul(dy, ys), 0), tf.sum(dy, 0)];
    },
  };
});

const GELU_C = Math.sqrt(2 / Math.PI);

/** GELU, tanh approximation. */
export const gelu = customOp((x: tf.Tensor2D, save: tf.GradSaveFunc) => {
  // x·x² rather than pow(x, 3): the wasm Pow kernel is ~10× slower than two multiplies.
  const t = tf.tanh(tf.mul(tf.mul(x, tf.add(tf.mul(tf.square(x), 0.044715), 1)), GELU_C));
  save([x, t]);
  return {
    value: tf.mul(tf.mul(x, 0.5), tf.add(t, 1)),
    gradFunc: (dy: tf.Tensor2D, [xs, ts]: tf.Tensor[]) => {
      const du = tf.mul(tf.add(tf.mul(tf.square(xs), 3 * 0.044715), 1), GELU_C);
      const local = tf.add(tf.mul(tf.add(ts, 1), 0.5), tf.mul(tf.mul(tf.mul(xs, 0.5), tf.sub(1, tf.square(ts))), du));
      return [tf.mul(dy, local)];
    },
  };
});

/** Rows `idx` of a 2-D table; the backward scatter-adds (wasm has no gather gradient kernel). */
export function gatherRows(table: tf.Tensor2D, idx: Int32Array): tf.Tensor2D {
  const op = customOp((t: tf.Tensor2D, save: tf.GradSaveFunc) => {
    const idxTensor = tf.tensor1d(idx, 'int32');
    // Saved, not captured: tensors made during a forward pass are freed before the backward one.
    save([idxTensor]);
    return {
      value: tf.gather(t, idxTensor),
      gradFunc: (dy: tf.Tensor2D, [ids]: tf.Tensor[]) => [tf.scatterND(tf.reshape(ids, [-1, 1]), dy, t.shape)],
    };
  });
  return op(table);
}

// ---- attention -----------------------------------------------------------------------------

/** The [a, b] matrix at index (i, j) of a rank-4 tensor [I, J, a, b]. */
function block(t: tf.Tensor4D, i: number, j: number): tf.Tensor2D {
  const [, , a, b] = t.shape;
  return tf.reshape(tf.slice(t, [i, j, 0, 0], [1, 1, a, b]), [a, b]);
}

/** The [T, T] matrix i of a stack [M, T, T]. */
function square(t: tf.Tensor3D, i: number): tf.Tensor2D {
  const [, a, b] = t.shape;
  return tf.reshape(tf.slice(t, [i, 0, 0], [1, a, b]), [a, b]);
}

interface AttentionShape {
  B: number;
  T: number;
  H: number;
  dh: number;
  scale: number;
}

/** Forward attention; also returns what the backward pass and the KV cache need. */
function attentionForward(qkv: tf.Tensor2D, s: AttentionShape, maskBias: tf.Tensor2D) {
  const { B, T, H, dh } = s;
  // heads[part·H + h, b] is the [T, dh] block of q (part 0), k (1) or v (2) for head h, sequence b.
  const heads = tf.transpose(tf.reshape(qkv, [B, T, 3 * H, dh]), [2, 0, 1, 3]) as tf.Tensor4D;
  const keysT = tf.transpose(tf.slice(heads, [H, 0, 0, 0], [H, B, T, dh]), [0, 1, 3, 2]) as tf.Tensor4D;
  const scores: tf.Tensor2D[] = [];
  for (let h = 0; h < H; h++) for (let b = 0; b < B; b++) scores.push(tf.matMul(block(heads, h, b), block(keysT, h, b)));
  const logits = tf.add(tf.mul(tf.reshape(tf.concat(scores, 0), [H * B, T, T]), s.scale), maskBias);
  const probs = tf.softmax(logits) as tf.Tensor3D;
  const outs: tf.Tensor2D[] = [];
  for (let h = 0; h < H; h++) for (let b = 0; b < B; b++) outs.push(tf.matMul(square(probs, h * B + b), block(heads, 2 * H + h, b)));
  const out = tf.reshape(tf.transpose(tf.reshape(tf.concat(outs, 0), [H, B, T, dh]), [1, 2, 0, 3]), [B * T, H * dh]) as tf.Tensor2D;
  return { out, heads, keysT, probs };
}

/** Causal multi-head self-attention of qkv [B·T, 3d] → [B·T, d], with a 2-D-matMul backward. */
function causalAttention(qkv: tf.Tensor2D, s: AttentionShape, maskBias: tf.Tensor2D): tf.Tensor2D {
  const { B, T, H, dh } = s;
  const op = customOp((x: tf.Tensor2D, save: tf.GradSaveFunc) => {
    const f = attentionForward(x, s, maskBias);
    save([f.heads, f.keysT, f.probs]);
    return {
      value: f.out,
      gradFunc: (dy: tf.Tensor2D, [heads4, , probs3]: tf.Tensor[]) => {
        const heads = heads4 as tf.Tensor4D;
        const probs = probs3 as tf.Tensor3D;
        const dOut = tf.transpose(tf.reshape(dy, [B, T, H, dh]), [2, 0, 1, 3]) as tf.Tensor4D;
        const valuesT = tf.transpose(tf.slice(heads, [2 * H, 0, 0, 0], [H, B, T, dh]), [0, 1, 3, 2]) as tf.Tensor4D;
        const probsT = tf.transpose(probs, [0, 2, 1]) as tf.Tensor3D;
        const dValues: tf.Tensor2D[] = [];
        const dProbs: tf.Tensor2D[] = [];
        for (let h = 0; h < H; h++) {
          for (let b = 0; b < B; b++) {
            const dO = block(dOut, h, b);
            dValues.push(tf.matMul(square(probsT, h * B + b), dO));
            dProbs.push(tf.matMul(dO, block(valuesT, h, b)));
          }
        }
        const dP = tf.reshape(tf.concat(dProbs, 0), [H * B, T, T]);
        // softmax backward: dS = P ⊙ (dP − Σ_j dP·P), times the score scale.
        const dS = tf.mul(tf.mul(probs, tf.sub(dP, tf.sum(tf.mul(dP, probs), -1, true))), s.scale) as tf.Tensor3D;
        const dST = tf.transpose(dS, [0, 2, 1]) as tf.Tensor3D;
        const dQueries: tf.Tensor2D[] = [];
        const dKeys: tf.Tensor2D[] = [];
        for (let h = 0; h < H; h++) {
          for (let b = 0; b < B; b++) {
            dQueries.push(tf.matMul(square(dS, h * B + b), block(heads, H + h, b)));
            dKeys.push(tf.matMul(square(dST, h * B + b), block(heads, h, b)));
          }
        }
        const dHeads = tf.reshape(tf.concat([...dQueries, ...dKeys, ...dValues], 0), [3 * H, B, T, dh]);
        return [tf.reshape(tf.transpose(dHeads, [1, 2, 0, 3]), [B * T, 3 * H * dh])];
      },
    };
  });
  return op(qkv);
}

// ---- the model -----------------------------------------------------------------------------

/** The transformer: weights plus the forward passes for training, scoring and decoding. */
export class Gpt {
  readonly config: GptConfig;
  readonly params: Params;
  private readonly masks = new Map<number, tf.Tensor2D>();

  constructor(config: GptConfig, params: Params) {
    validateConfig(config);
    for (const spec of paramSpecs(config)) {
      const p = params[spec.name];
      if (p === undefined) throw new OpenClawError('data', `model weights lack ${spec.name}`);
      if (p.shape.join(',') !== spec.shape.join(',')) {
        throw new OpenClawError('data', `weight ${spec.name} has shape [${p.shape}], config needs [${spec.shape}]`);
      }
    }
    this.config = { ...config, tieEmbeddings: config.tieEmbeddings ?? true };
    this.params = params;
  }

  /** A freshly initialised model. */
  static create(config: GptConfig, seed = 0): Gpt {
    return new Gpt(config, initParams(config, seed));
  }

  /** A deep copy; `trainable` decides whether the copy's weights are tf.Variables. */
  clone(trainable: boolean): Gpt {
    const params: Params = {};
    for (const [name, p] of Object.entries(this.params)) params[name] = trainable ? tf.variable(p, true) : tf.keep(p.clone());
    return new Gpt(this.config, params);
  }

  /** Overwrites this model's weights with another's (same config). */
  assignFrom(other: Gpt): void {
    for (const [name, p] of Object.entries(this.params)) {
      const src = other.params[name];
      if (p instanceof tf.Variable) p.assign(src);
      else {
        p.dispose();
        this.params[name] = tf.keep(src.clone());
      }
    }
  }

  /** The trainable weights in a stable order. */
  variables(): tf.Variable[] {
    return paramSpecs(this.config)
      .map((s) => this.params[s.name])
      .filter((p): p is tf.Variable => p instanceof tf.Variable);
  }

  /** Frees the weights and cached masks. */
  dispose(): void {
    for (const p of Object.values(this.params)) p.dispose();
    for (const m of this.masks.values()) m.dispose();
    this.masks.clear();
  }

  /**
   * Hidden states after the final layer norm for B sequences padded to T tokens
   * (`tokens` is row-major [B, T]): [B·T, d]. Differentiable.
   */
  hidden(tokens: Int32Array, B: number, T: number): tf.Tensor2D {
    return this.run(tokens, B, T, null);
  }

  /** Output logits of hidden rows [R, d] → [R, V]. */
  logits(h: tf.Tensor2D): tf.Tensor2D {
    return this.config.tieEmbeddings === false
      ? linear(h, this.params.head as tf.Tensor2D)
      : linearTransposed(h, this.params.wte as tf.Tensor2D);
  }

  /** Runs one prompt (B = 1) and returns the KV cache plus the logits of its last position. */
  prefill(tokens: readonly number[]): { cache: KvCache; logits: tf.Tensor2D } {
    const T = tokens.length;
    this.checkLength(T);
    const collected: { k: tf.Tensor3D[]; v: tf.Tensor3D[] } = { k: [], v: [] };
    const h = this.run(Int32Array.from(tokens), 1, T, collected);
    const last = tf.slice(h, [T - 1, 0], [1, this.config.dModel]);
    return { cache: { k: collected.k, v: collected.v, length: T }, logits: this.logits(last) };
  }

  /** Feeds one token after a cache; returns the extended cache and the next-token logits [1, V]. */
  decode(cache: KvCache, token: number): { cache: KvCache; logits: tf.Tensor2D } {
    const { dModel: d, nHead: H } = this.config;
    const dh = d / H;
    this.checkLength(cache.length + 1);
    const p = this.params;
    const tokenRow = tf.gather(p.wte, tf.tensor1d([token], 'int32'));
    let x = tf.add(tokenRow, tf.slice(p.wpe, [cache.length, 0], [1, d])) as tf.Tensor2D;
    const next: KvCache = { k: [], v: [], length: cache.length + 1 };
    for (let l = 0; l < this.config.nLayer; l++) {
      const a = layerNorm(x, p[`h.${l}.ln1.g`], p[`h.${l}.ln1.b`]);
      const r = tf.reshape(linear(a, p[`h.${l}.attn.wqkv`] as tf.Tensor2D), [3 * H, 1, dh]);
      const k = tf.concat([cache.k[l], tf.slice(r, [H, 0, 0], [H, 1, dh])], 1) as tf.Tensor3D;
      const v = tf.concat([cache.v[l], tf.slice(r, [2 * H, 0, 0], [H, 1, dh])], 1) as tf.Tensor3D;
      next.k.push(k);
      next.v.push(v);
      // One query row per head: these batched products are tiny, so the slow kernel does not matter.
      const probs = tf.softmax(tf.mul(tf.matMul(tf.slice(r, [0, 0, 0], [H, 1, dh]), k, false, true), 1 / Math.sqrt(dh)));
      const att = tf.reshape(tf.matMul(probs, v), [1, d]) as tf.Tensor2D;
      x = tf.add(x, linear(att, p[`h.${l}.attn.wproj`] as tf.Tensor2D));
      x = tf.add(x, this.mlp(x, l));
    }
    const h = layerNorm(x, p['lnf.g'], p['lnf.b']);
    return { cache: next, logits: this.logits(h) };
  }

  /** Batches single-sequence caches (from prefill) into one; the inputs are left as they are. */
  batchCaches(caches: readonly KvCache[]): BatchKvCache {
    const { nHead: H } = this.config;
    const L = Math.max(...caches.map((c) => c.length));
    const pad = (t: tf.Tensor3D, n: number) =>
      n === L
        ? t
        : (tf.pad(t, [
            [0, 0],
            [0, L - n],
            [0, 0],
          ]) as tf.Tensor3D);
    const layers = (which: 'k' | 'v') =>
      caches[0][which].map(
        (_, l) =>
          tf.concat(
            caches.map((c) => pad(c[which][l], c.length)),
            0,
          ) as tf.Tensor3D,
      );
    const mask = new Float32Array(caches.length * H * L);
    caches.forEach((c, b) => {
      for (let h = 0; h < H; h++) mask.fill(MASKED, (b * H + h) * L + c.length, (b * H + h + 1) * L);
    });
    return { k: layers('k'), v: layers('v'), bias: tf.tensor3d(mask, [caches.length * H, 1, L]) };
  }

  /**
   * Feeds one token to each of B sequences at their own positions; returns the extended cache and
   * the next-token logits [B, V]. The same arithmetic as `decode` per sequence, in one pass.
   */
  decodeMany(cache: BatchKvCache, tokens: readonly number[], positions: readonly number[]): { cache: BatchKvCache; logits: tf.Tensor2D } {
    const { dModel: d, nHead: H } = this.config;
    const dh = d / H;
    const B = tokens.length;
    for (const p of positions) this.checkLength(p + 1);
    const p = this.params;
    let x = tf.add(
      tf.gather(p.wte, tf.tensor1d(Int32Array.from(tokens), 'int32')),
      tf.gather(p.wpe, tf.tensor1d(Int32Array.from(positions), 'int32')),
    ) as tf.Tensor2D;
    const bias = tf.concat([cache.bias, tf.zeros([B * H, 1, 1])], 2) as tf.Tensor3D;
    const next: BatchKvCache = { k: [], v: [], bias };
    for (let l = 0; l < this.config.nLayer; l++) {
      const a = layerNorm(x, p[`h.${l}.ln1.g`], p[`h.${l}.ln1.b`]);
      // [B, 3d] → per part [B·H, 1, dh], sequence-major like the cache.
      const r = tf.reshape(linear(a, p[`h.${l}.attn.wqkv`] as tf.Tensor2D), [B, 3, H, dh]);
      const part = (i: number) => tf.reshape(tf.slice(r, [0, i, 0, 0], [B, 1, H, dh]), [B * H, 1, dh]) as tf.Tensor3D;
      const k = tf.concat([cache.k[l], part(1)], 1) as tf.Tensor3D;
      const v = tf.concat([cache.v[l], part(2)], 1) as tf.Tensor3D;
      next.k.push(k);
      next.v.push(v);
      const probs = tf.softmax(tf.add(tf.mul(tf.matMul(part(0), k, false, true), 1 / Math.sqrt(dh)), bias));
      const att = tf.reshape(tf.matMul(probs, v), [B, d]) as tf.Tensor2D;
      x = tf.add(x, linear(att, p[`h.${l}.attn.wproj`] as tf.Tensor2D));
      x = tf.add(x, this.mlp(x, l));
    }
    const h = layerNorm(x, p['lnf.g'], p['lnf.b']);
    return { cache: next, logits: this.logits(h) };
  }

  private mlp(x: tf.Tensor2D, l: number): tf.Tensor2D {
    const p = this.params;
    const m = layerNorm(x, p[`h.${l}.ln2.g`], p[`h.${l}.ln2.b`]);
    return linear(gelu(linear(m, p[`h.${l}.mlp.wfc`] as tf.Tensor2D)), p[`h.${l}.mlp.wproj`] as tf.Tensor2D);
  }

  private run(tokens: Int32Array, B: number, T: number, collect: { k: tf.Tensor3D[]; v: tf.Tensor3D[] } | null): tf.Tensor2D {
    this.checkLength(T);
    if (tokens.length !== B * T) throw new OpenClawError('internal', `model input has ${tokens.length} tokens, expected B·T = ${B * T}`);
    const { dModel: d, nHead: H } = this.config;
    const p = this.params;
    const shape: AttentionShape = { B, T, H, dh: d / H, scale: 1 / Math.sqrt(d / H) };
    const tokenRows = gatherRows(p.wte as tf.Tensor2D, tokens);
    let x = tf.reshape(tf.add(tf.reshape(tokenRows, [B, T, d]), tf.slice(p.wpe, [0, 0], [T, d])), [B * T, d]) as tf.Tensor2D;
    for (let l = 0; l < this.config.nLayer; l++) {
      const a = layerNorm(x, p[`h.${l}.ln1.g`], p[`h.${l}.ln1.b`]);
      const qkv = linear(a, p[`h.${l}.attn.wqkv`] as tf.Tensor2D);
      let att: tf.Tensor2D;
      if (collect !== null) {
        const f = attentionForward(qkv, shape, this.mask(T));
        collect.k.push(tf.reshape(tf.slice(f.heads, [H, 0, 0, 0], [H, 1, T, d / H]), [H, T, d / H]));
        collect.v.push(tf.reshape(tf.slice(f.heads, [2 * H, 0, 0, 0], [H, 1, T, d / H]), [H, T, d / H]));
        att = f.out;
      } else {
        att = causalAttention(qkv, shape, this.mask(T));
      }
      x = tf.add(x, linear(att, p[`h.${l}.attn.wproj`] as tf.Tensor2D));
      x = tf.add(x, this.mlp(x, l));
    }
    return layerNorm(x, p['lnf.g'], p['lnf.b']);
  }

  private mask(T: number): tf.Tensor2D {
    let m = this.masks.get(T);
    if (m === undefined) {
      const values = new Float32Array(T * T);
      for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) values[i * T + j] = MASKED;
      m = tf.keep(tf.tensor2d(values, [T, T]));
      this.masks.set(T, m);
    }
    return m;
  }

  private checkLength(T: number): void {
    if (T > this.config.ctx) {
      throw new OpenClawError('context_length', `sequence of ${T} tokens exceeds the embedded model's context of ${this.config.ctx}`);
    }
    if (T <= 0) throw new OpenClawError('invalid_request', 'the model needs at least one input token');
  }
}
