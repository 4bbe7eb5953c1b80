// Messages between WorkerEngine (main thread) and its two worker threads. Every request carries an
// id; the worker answers it exactly once (result or error), and a generation may first send any
// number of token messages for the same id. Errors cross the thread boundary as plain objects and
// become OpenClawError again on the main side, with kind, status, param and code intact.

import { OpenClawError, type ErrorKind } from '../../errors/index.ts';
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
  | { kind: 'create'; config: GptConfig; seed: number; tokenizer: TokenizerJson | null; keepReference: boolean; adamw?: Partial<AdamWConfig> }
  | { kind: 'load'; dir: string; keepReference: boolean; adamw?: Partial<AdamWConfig> }
  | { kind: 'weights'; config: GptConfig; weights: HostWeights; version: number };

/** What a worker reports once its model is ready. */
export interface WorkerReady {
  config: GptConfig;
  version: number;
  tokenizer: TokenizerJson | null;
}

/** main → worker. `cancel` aborts the in-flight request with id `target`. */
export type WorkerRequest =
  | { id: number; op: string; args: unknown }
  | { id: number; op: 'cancel'; target: number };

/** An error as it crosses the thread boundary. */
export interface SerializedError {
  kind: ErrorKind;
  message: string;
  status: number;
  param: string | null;
  code: string | null;
}

/** worker → main. */
export type WorkerReply =
  | { id: number; type: 'result'; result: unknown }
  | { id: number; type: 'error'; error: SerializedError }
  | { id: number; type: 'token'; tokenId: number; logprob: number };

/** Any thrown value as a SerializedError; non-OpenClawError values become 'internal'. */
export function serializeError(err: unknown): SerializedError {
  if (err instanceof OpenClawError) return { kind: err.kind, message: err.message, status: err.status, param: err.param, code: err.code };
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', message: `embedded engine worker failed: ${message}`, status: 500, param: null, code: null };
}

/** The OpenClawError a SerializedError stands for. */
export function deserializeError(e: SerializedError): OpenClawError {
  return new OpenClawError(e.kind, e.message, { status: e.status, param: e.param, code: e.code });
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
