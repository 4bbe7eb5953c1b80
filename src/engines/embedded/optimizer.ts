// AdamW (decoupled weight decay) over a Gpt's variables. The moments and the step count are
// plain state so a checkpoint can save them and training resumes exactly where it stopped.

import * as tf from '@tensorflow/tfjs';
import { OpenClawError } from '../../errors/index.ts';
import type { Params } from './model.ts';

/** AdamW hyper-parameters other than lr and weight decay (which come per step). */
export interface AdamWConfig {
  beta1: number;
  beta2: number;
  eps: number;
}

/** Defaults of AdamWConfig. */
export const DEFAULT_ADAMW: AdamWConfig = { beta1: 0.9, beta2: 0.999, eps: 1e-8 };

/** AdamW state (first/second moments per weight, step count) and its update rule. */
export class AdamW {
  readonly config: AdamWConfig;
  step = 0;
  readonly m: Params = {};
  readonly v: Params = {};

  constructor(config: Partial<AdamWConfig> = {}) {
    this.config = { ...DEFAULT_ADAMW, ...config };
  }

  /**
   * One update: params[name] -= lr · (m̂ / (√v̂ + eps) + wd · param). Weight decay applies to
   * matrices only (rank ≥ 2), not to layer-norm gains and biases. `overrides` replaces betas/eps
   * for this update only (the Tinker API sends them with every optim_step).
   */
  apply(params: Params, grads: Record<string, tf.Tensor>, lr: number, weightDecay: number, overrides: Partial<AdamWConfig> = {}): void {
    this.step += 1;
    const { beta1, beta2, eps } = { ...this.config, ...overrides };
    const c1 = 1 - beta1 ** this.step;
    const c2 = 1 - beta2 ** this.step;
    tf.tidy(() => {
      for (const [name, g] of Object.entries(grads)) {
        const p = params[name];
        if (!(p instanceof tf.Variable)) throw new OpenClawError('internal', `AdamW: ${name} is not a trainable variable`);
        this.m[name] ??= tf.variable(tf.zerosLike(p), false);
        this.v[name] ??= tf.variable(tf.zerosLike(p), false);
        const m = this.m[name] as tf.Variable;
        const v = this.v[name] as tf.Variable;
        m.assign(tf.add(tf.mul(m, beta1), tf.mul(g, 1 - beta1)));
        v.assign(tf.add(tf.mul(v, beta2), tf.mul(tf.square(g), 1 - beta2)));
        let update = tf.div(tf.div(m, c1), tf.add(tf.sqrt(tf.div(v, c2)), eps));
        if (weightDecay !== 0 && p.rank >= 2) update = tf.add(update, tf.mul(p, weightDecay));
        p.assign(tf.sub(p, tf.mul(update, lr)));
      }
    });
  }

  /** Replaces the state with saved moments and step count. */
  restore(step: number, m: Params, v: Params): void {
    this.dispose();
    this.step = step;
    for (const [name, t] of Object.entries(m)) this.m[name] = tf.variable(t, false);
    for (const [name, t] of Object.entries(v)) this.v[name] = tf.variable(t, false);
  }

  /** Frees the moment tensors. */
  dispose(): void {
    for (const store of [this.m, this.v]) {
      for (const [name, t] of Object.entries(store)) {
        t.dispose();
        delete store[name];
      }
    }
  }
}
