// What WorkerEngine (main thread) and its two worker threads exchange, on top of the generic
// request/answer protocol of threads/: roles, initial weights, and weight buffers to transfer.
// A generation streams each sampled token as a `[tokenId, logprob]` partial value.

import type { GptConfig } from './model.ts';
import type { AdamWConfig } from './optimizer.ts';
import type { HostTensor } from './safetensors.ts';
import type { TokenizerJson } from './tokenizer.ts';

/** Which job a worker thread does. */
export type WorkerRole = 'serving' | 'training';

/** Host weights by parameter name. */
export type HostWeights = Record<string, HostTensor>;

/** How a worker gets its first weights. */
export type WorkerInit =
  | {
      kind: 'create';
      config: GptConfig;
      seed: number;
      tokenizer: TokenizerJson | null;
      keepReference: boolean;
      adamw?: Partial<AdamWConfig>;
    }
  | { kind: 'load'; dir: string; keepReference: boolean; adamw?: Partial<AdamWConfig>; version?: number }
  | { kind: 'weights'; config: GptConfig; weights: HostWeights; version: number };

/** What a worker reports once its model is ready. */
export interface WorkerReady {
  config: GptConfig;
  version: number;
  tokenizer: TokenizerJson | null;
}

/**
 * The ArrayBuffers of host weights, to transfer them instead of copying. A tensor that is a view
 * into a larger buffer (e.g. a decoded file) is first copied: transferring would detach its neighbours.
 */
export function weightBuffers(weights: HostWeights): ArrayBuffer[] {
  const seen = new Set<ArrayBufferLike>();
  for (const t of Object.values(weights)) {
    const whole = t.data.byteOffset === 0 && t.data.byteLength === t.data.buffer.byteLength;
    if (!whole || seen.has(t.data.buffer) || !(t.data.buffer instanceof ArrayBuffer)) t.data = t.data.slice();
    seen.add(t.data.buffer);
  }
  return [...seen] as ArrayBuffer[];
}
