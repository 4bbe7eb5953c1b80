// A small classifier over user replies, trained on our own labelled sets (bench/judge-set/, never
// a sealed one) by scripts/train-judge.ts and committed as reply-model.json: multinomial logistic
// regression over sparse binary features — the rule reader's verdict and cues, word uni- and
// bigrams, character 2–4-grams (these carry Chinese, Japanese and inflected Latin languages) and
// punctuation shapes. The rules know structure (instructions, hints, negation scope); the
// n-grams learn phrasings the cue lists miss; the weights decide, per reply, which to believe.
// Inputs: the reply text and the rules' reading. Output: a score in {−1, 0, +1} and its
// probabilities. Pure functions; no I/O here (the JSON is loaded in index.ts).

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

function softmax(z: [number, number, number]): [number, number, number] {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e[0] + e[1] + e[2];
  return [e[0] / s, e[1] / s, e[2] / s];
}

/** Training knobs; defaults are what scripts/train-judge.ts uses. */
export interface TrainOptions {
  epochs?: number;
  learningRate?: number;
  /** L2 penalty per example step. */
  l2?: number;
  /** Features seen in fewer training replies are dropped. */
  minCount?: number;
  /** Per-example weight (e.g. to balance sets by author); default 1. */
  weightOf?: (e: ReplyExample) => number;
}

/**
 * Trains the model by AdaGrad on the softmax loss with L2, in a fixed order (deterministic: the
 * same examples give the same weights). Weights are rounded to 4 decimals, near-zero ones dropped.
 */
export function trainReplyModel(examples: ReplyExample[], opts: TrainOptions = {}): ReplyModel {
  const epochs = opts.epochs ?? 40;
  const lr = opts.learningRate ?? 0.03;
  const l2 = opts.l2 ?? 1e-4;
  const minCount = opts.minCount ?? 2;
  const featureLists = examples.map((e) => replyFeatures(e.text, e.reading, e.lang));
  const counts = new Map<string, number>();
  for (const fs of featureLists) for (const name of fs) counts.set(name, (counts.get(name) ?? 0) + 1);
  const index = new Map<string, number>();
  for (const [name, c] of counts) if (c >= minCount) index.set(name, index.size);
  const rows = featureLists.map((fs) => fs.map((n) => index.get(n)).filter((i): i is number => i !== undefined));
  const w = new Float64Array(index.size * 3);
  const g2 = new Float64Array(index.size * 3).fill(1e-8);
  const bias = [0, 0, 0];
  const bg2 = [1e-8, 1e-8, 1e-8];
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
      const weight = opts.weightOf?.(examples[k]) ?? 1;
      const z: [number, number, number] = [bias[0], bias[1], bias[2]];
      for (const i of row) for (let c = 0; c < 3; c++) z[c] += w[i * 3 + c];
      const p = softmax(z);
      const target = CLASSES.indexOf(examples[k].score);
      for (let c = 0; c < 3; c++) {
        const err = weight * (p[c] - (c === target ? 1 : 0));
        bg2[c] += err * err;
        bias[c] -= (lr * err) / Math.sqrt(bg2[c]);
        for (const i of row) {
          const at = i * 3 + c;
          const g = err + l2 * w[at];
          g2[at] += g * g;
          w[at] -= (lr * g) / Math.sqrt(g2[at]);
        }
      }
    }
  }
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  const weights: Record<string, [number, number, number]> = {};
  for (const [name, i] of index) {
    const v: [number, number, number] = [round(w[i * 3]), round(w[i * 3 + 1]), round(w[i * 3 + 2])];
    if (Math.abs(v[0]) + Math.abs(v[1]) + Math.abs(v[2]) >= 0.003) weights[name] = v;
  }
  return { version: 1, bias: [round(bias[0]), round(bias[1]), round(bias[2])], weights };
}
