// Checkpoint folder layout:
//   config.json            {format, model: GptConfig, version, adamw}
//   tokenizer.json         the byte-level BPE (tokenizer.ts)
//   model.safetensors      policy weights (the trained ones, which may be ahead of the served)
//   optimizer.safetensors  AdamW moments m.<name>, v.<name>; metadata {step}
//   reference.safetensors  frozen reference weights for the KL term (when kept)

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { OpenClawError } from '../../errors/index.ts';
import type { GptConfig, Params } from './model.ts';
import type { AdamWConfig } from './optimizer.ts';
import { decodeSafetensors, encodeSafetensors, type HostTensor } from './safetensors.ts';
import type { TokenizerJson } from './tokenizer.ts';

/** Contents of config.json. */
export interface CheckpointConfig {
  format: 'openclaw-embedded';
  model: GptConfig;
  /** Policy version (number of publishes) when saved. */
  version: number;
  adamw: AdamWConfig;
}

/** Everything a checkpoint holds, as host arrays. */
export interface CheckpointData {
  config: CheckpointConfig;
  tokenizer: TokenizerJson | null;
  weights: Record<string, HostTensor>;
  optimizer: { step: number; m: Record<string, HostTensor>; v: Record<string, HostTensor> } | null;
  reference: Record<string, HostTensor> | null;
}

/** Copies tensors to host memory. */
export function toHost(params: Params): Record<string, HostTensor> {
  const out: Record<string, HostTensor> = {};
  for (const [name, t] of Object.entries(params))
    out[name] = { shape: [...t.shape], data: Float32Array.from(t.dataSync() as Float32Array) };
  return out;
}

/** Host tensors → tf tensors (kept: they outlive any tidy scope). */
export function fromHost(weights: Record<string, HostTensor>): Params {
  const out: Params = {};
  for (const [name, t] of Object.entries(weights)) out[name] = tf.keep(tf.tensor(t.data, t.shape, 'float32'));
  return out;
}

async function writeAtomic(path: string, data: string | Buffer): Promise<void> {
  // Write-then-rename: a crash mid-save never leaves a half-written file under the real name.
  await writeFile(`${path}.tmp`, data);
  await rename(`${path}.tmp`, path);
}

/** Writes a checkpoint folder (created if missing). */
export async function writeCheckpoint(dir: string, data: CheckpointData): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeAtomic(join(dir, 'model.safetensors'), encodeSafetensors(data.weights, { format: 'pt' }));
  if (data.optimizer !== null) {
    const tensors: Record<string, HostTensor> = {};
    for (const [name, t] of Object.entries(data.optimizer.m)) tensors[`m.${name}`] = t;
    for (const [name, t] of Object.entries(data.optimizer.v)) tensors[`v.${name}`] = t;
    await writeAtomic(join(dir, 'optimizer.safetensors'), encodeSafetensors(tensors, { step: String(data.optimizer.step) }));
  }
  if (data.reference !== null) await writeAtomic(join(dir, 'reference.safetensors'), encodeSafetensors(data.reference, { format: 'pt' }));
  if (data.tokenizer !== null) await writeAtomic(join(dir, 'tokenizer.json'), JSON.stringify(data.tokenizer));
  // config.json last: its presence marks a complete checkpoint.
  await writeAtomic(join(dir, 'config.json'), JSON.stringify(data.config, null, 2));
}

async function readTensors(path: string): Promise<{ tensors: Record<string, HostTensor>; metadata: Record<string, string> }> {
  return decodeSafetensors(await readFile(path), path);
}

/** Reads a checkpoint folder written by writeCheckpoint. */
export async function readCheckpoint(dir: string): Promise<CheckpointData> {
  const configPath = join(dir, 'config.json');
  if (!existsSync(configPath)) throw new OpenClawError('config', `no embedded checkpoint at ${dir}: config.json is missing`);
  const config = JSON.parse(await readFile(configPath, 'utf8')) as CheckpointConfig;
  if (config.format !== 'openclaw-embedded')
    throw new OpenClawError('config', `${configPath} has format ${String(config.format)}, expected openclaw-embedded`);
  const tokenizerPath = join(dir, 'tokenizer.json');
  const tokenizer = existsSync(tokenizerPath) ? (JSON.parse(await readFile(tokenizerPath, 'utf8')) as TokenizerJson) : null;
  const weights = (await readTensors(join(dir, 'model.safetensors'))).tensors;
  let optimizer: CheckpointData['optimizer'] = null;
  const optimizerPath = join(dir, 'optimizer.safetensors');
  if (existsSync(optimizerPath)) {
    const { tensors, metadata } = await readTensors(optimizerPath);
    const m: Record<string, HostTensor> = {};
    const v: Record<string, HostTensor> = {};
    for (const [name, t] of Object.entries(tensors)) (name.startsWith('m.') ? m : v)[name.slice(2)] = t;
    optimizer = { step: Number(metadata.step ?? 0), m, v };
  }
  const referencePath = join(dir, 'reference.safetensors');
  const reference = existsSync(referencePath) ? (await readTensors(referencePath)).tensors : null;
  return { config, tokenizer, weights, optimizer, reference };
}
