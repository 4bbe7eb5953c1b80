// A small classifier over user replies, trained on our own labelled sets (bench/judge-set/, never
// a sealed one) by scripts/train-judge.ts and committed as reply-model.json: multinomial logistic
// regression over sparse binary features — the rule reader's verdict and cues, word uni- and
// bigrams, character 2–4-grams (these carry Chinese, Japanese and inflected Latin languages) and
// punctuation shapes. The rules know structure (instructions, hints, negation scope); the
// n-grams learn phrasings the cue lists miss; the weights decide, per reply, which to believe.
// Inputs: the reply text and the rules' reading. Output: a score in {−1, 0, +1} and its
// probabilities. Pure functions; no I/O here (index.ts loads the JSON through committed-model.ts).

import type { FeedbackReading } from './types.ts';

export const CLASSES = [-1, 0, 1] as const;
export type ReplyScore = (typeof CLASSES)[number];

/** The committed model: per feature, one weight per class (−1, 0, +1). */
export interface ReplyModel {
  version: 1;
  bias: [number, number, number];
  weights: Record<string, [number, number, number]>;
}

/** One labelled reply for training. */
export interface ReplyExample {
  text: string;
  reading: FeedbackReading;
  lang: string;
  score: ReplyScore;
}

/** The feature names of a reply (binary features; duplicates removed). */
export function replyFeatures(text: string, reading: FeedbackReading, lang: string): string[] {
  const f = new Set<string>();
  f.add(`r:${reading.score}`);
  f.add(`r:${reading.score}:${lang}`);
  if (reading.hint !== null) f.add(`r:hint:${reading.score}`);
  for (const cue of reading.cues) f.add(`q:${cueKind(cue)}`);
  f.add(`l:${lang}`);
  const t = text.toLowerCase().normalize('NFKC').replace(/\s+/g, ' ').trim();
  const words = t.match(/[\p{L}\p{N}']+|\p{Extended_Pictographic}/gu) ?? [];
  f.add(`n:${words.length <= 2 ? 'short' : words.length <= 8 ? 'mid' : 'long'}`);
  for (let i = 0; i < words.length; i++) {
    f.add(`w:${words[i]}`);
    f.add(`b:${i === 0 ? '^' : words[i - 1]} ${words[i]}`);
  }
  if (words.length > 0) f.add(`b:${words[words.length - 1]} $`);
  const padded = ` ${t} `;
  for (let n = 2; n <= 4; n++) for (let i = 0; i + n <= padded.length; i++) f.add(`c:${padded.slice(i, i + n)}`);
  if (/\?\s*$/.test(t)) f.add('p:?end');
  if (/[?？!！]{2,}/.test(t)) f.add('p:!?!?');
  if (/!/.test(t)) f.add('p:!');
  return [...f];
}

/** "complaint:\"too long\"" → "complaint:too long"; "positive:0.60" → "positive". */
function cueKind(cue: string): string {
  const m = /^([\w ]+?)(?::(?:"([^"]*)"|[-\d.]+))?$/.exec(cue);
  if (m === null) return cue.replace(/"/g, '');
  return m[2] === undefined ? m[1] : `${m[1]}:${m[2]}`;
}

/** Class probabilities (−1, 0, +1) of a feature list. */
export function predictProbs(model: ReplyModel, features: string[]): [number, number, number] {
  const z: [number, number, number] = [...model.bias];
  for (const name of features) {
    const w = model.weights[name];
    if (w === undefined) continue;
    z[0] += w[0];
    z[1] += w[1];
    z[2] += w[2];
  }
  return softmax(z);
}

/** The most probable score. */
export function predictScore(model: ReplyModel, features: string[]): { score: ReplyScore; probs: [number, number, number] } {
  const probs = predictProbs(model, features);
  const k = probs.indexOf(Math.max(...probs));
  return { score: CLASSES[k], probs };
}

/** Probabilities of class scores (stable: the maximum is subtracted first). */
export function softmax<T extends number[]>(z: T): T {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s) as T;
}

/** Training knobs; defaults are what scripts/train-judge.ts uses. */
export interface TrainOptions {
  epochs?: number;
  learningRate?: number;
  /** L2 penalty per example step. */
  l2?: number;
  /** Features seen in fewer training examples are dropped. */
  minCount?: number;
}

/** The reply classifier's knobs: TrainOptions plus a per-reply weight (e.g. to balance sets by author; default 1). */
export interface ReplyTrainOptions extends TrainOptions {
  weightOf?: (e: ReplyExample) => number;
}

/** A sparse linear softmax model over K classes: per feature, one weight per class. */
export interface SoftmaxWeights {
  bias: number[];
  weights: Record<string, number[]>;
}

/** One training row: its binary features, its class index, its weight (default 1). */
export interface SoftmaxRow {
  features: string[];
  target: number;
  weight?: number;
}

/** Trains the reply classifier (see trainSoftmax) on labelled replies. */
export function trainReplyModel(examples: ReplyExample[], opts: ReplyTrainOptions = {}): ReplyModel {
  const rows = examples.map((e) => ({
    features: replyFeatures(e.text, e.reading, e.lang),
    target: CLASSES.indexOf(e.score),
    weight: opts.weightOf?.(e) ?? 1,
  }));
  const { bias, weights } = trainSoftmax(rows, 3, opts);
  return { version: 1, bias: bias as [number, number, number], weights: weights as Record<string, [number, number, number]> };
}

/**
 * Trains a K-class softmax model by AdaGrad with L2, in a fixed order (deterministic: the same
 * rows give the same weights); serves the reply classifier (K = 3).
 * Weights are rounded to 4 decimals, near-zero ones dropped.
 */
export function trainSoftmax(examples: SoftmaxRow[], K: number, opts: TrainOptions = {}): SoftmaxWeights {
  const epochs = opts.epochs ?? 40;
  const lr = opts.learningRate ?? 0.03;
  const l2 = opts.l2 ?? 1e-4;
  const minCount = opts.minCount ?? 2;
  const counts = new Map<string, number>();
  for (const e of examples) for (const name of e.features) counts.set(name, (counts.get(name) ?? 0) + 1);
  const index = new Map<string, number>();
  for (const [name, c] of counts) if (c >= minCount) index.set(name, index.size);
  const rows = examples.map((e) => e.features.map((n) => index.get(n)).filter((i): i is number => i !== undefined));
  const w = new Float64Array(index.size * K);
  const g2 = new Float64Array(index.size * K).fill(1e-8);
  const bias = new Array<number>(K).fill(0);
  const bg2 = new Array<number>(K).fill(1e-8);
  // A fixed shuffle (linear congruential) so that runs are repeatable.
  const order = examples.map((_, i) => i);
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const k of order) {
      const row = rows[k];
      const weight = examples[k].weight ?? 1;
      const z = bias.slice();
      for (const i of row) for (let c = 0; c < K; c++) z[c] += w[i * K + c];
      const p = softmax(z);
      for (let c = 0; c < K; c++) {
        const err = weight * (p[c] - (c === examples[k].target ? 1 : 0));
        bg2[c] += err * err;
        bias[c] -= (lr * err) / Math.sqrt(bg2[c]);
        for (const i of row) {
          const at = i * K + c;
          const g = err + l2 * w[at];
          g2[at] += g * g;
          w[at] -= (lr * g) / Math.sqrt(g2[at]);
        }
      }
    }
  }
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  const weights: Record<string, number[]> = {};
  for (const [name, i] of index) {
    const v = Array.from(w.subarray(i * K, i * K + K), round);
    if (v.reduce((s, x) => s + Math.abs(x), 0) >= 0.001 * K) weights[name] = v;
  }
  return { bias: bias.map(round), weights };
}
