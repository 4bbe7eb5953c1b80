// What the stand-in reads text with: the checkpoint's own byte-level tokenizer, or the base model's
// real Hugging Face tokenizer (`--tokenizer DIR`, e.g. Qwen3's) when the checkpoint was built over
// that vocabulary. Sampling itself is ids in, ids out; text matters for stop strings and scripted
// answers (script.ts), which must use the same ids a client's renderer produces.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OpenClawError } from '../../errors/index.ts';
import type { Tokenizer } from '../../engines/embedded/index.ts';
import { loadHfTokenizer } from '../../tokenize/index.ts';

/** Text ↔ ids for the served vocabulary; special-token text (e.g. `<|im_end|>`) maps to its id. */
export interface TextCodec {
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  /** Ids the vocabulary has (every id is below this). */
  readonly vocabSize: number;
  /** Where it came from, for error messages. */
  readonly source: string;
}

/** The checkpoint's embedded tokenizer as a codec. */
export function embeddedCodec(tok: Tokenizer, checkpoint: string): TextCodec {
  return {
    encode: (text) => tok.encode(text, { allowSpecial: true }),
    decode: (ids) => tok.decode(ids),
    vocabSize: tok.vocabSize,
    source: `the tokenizer of checkpoint ${checkpoint}`,
  };
}

/** A Hugging Face tokenizer folder (tokenizer.json + tokenizer_config.json) as a codec. */
export async function hfCodec(dir: string): Promise<TextCodec> {
  const hf = await loadHfTokenizer(dir);
  const vocabSize = hfVocabSize(JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')));
  return { encode: (text) => hf.encode(text), decode: (ids) => hf.decode(ids), vocabSize, source: `the tokenizer in ${dir}` };
}

/** Ids a tokenizer.json defines: 1 + the largest id of its model vocabulary and added tokens. */
export function hfVocabSize(json: unknown): number {
  const j = json as { model?: { vocab?: Record<string, number> | Array<[string, number]> }; added_tokens?: Array<{ id: number }> };
  let max = -1;
  const vocab = j.model?.vocab;
  // BPE/WordPiece keep {token: id}; Unigram keeps [[piece, score]] in id order.
  if (Array.isArray(vocab)) max = vocab.length - 1;
  else if (vocab !== undefined) for (const id of Object.values(vocab)) if (id > max) max = id;
  for (const t of j.added_tokens ?? []) if (t.id > max) max = t.id;
  return max + 1;
}

/** Throws when a codec's ids do not fit the model's embedding. */
export function checkCodecFits(codec: TextCodec, modelVocab: number, checkpoint: string): void {
  if (codec.vocabSize > modelVocab)
    throw new OpenClawError(
      'config',
      `${codec.source} has ${codec.vocabSize} ids but checkpoint ${checkpoint} has a vocabulary of ${modelVocab}: build the checkpoint with vocabSize ≥ ${codec.vocabSize} (docs/tinker-local.md#a-real-vocabulary)`,
      { param: 'tokenizer' },
    );
}

/** Shape of a random checkpoint over a real vocabulary (small: the vocabulary dominates its size). */
export interface VocabModelShape {
  dModel: number;
  nLayer: number;
  nHead: number;
  ctx: number;
  seed: number;
}

/** d 16, one layer, 4096 positions: ~2.4 M weights with Qwen3's 151,669 ids (10 MB), a step on a 1.7k-token prompt in seconds. */
export const VOCAB_MODEL_DEFAULTS: VocabModelShape = { dModel: 16, nLayer: 1, nHead: 2, ctx: 4096, seed: 1 };

/**
 * Writes a random embedded checkpoint whose embedding has one row per id of a Hugging Face
 * tokenizer (no tokenizer.json of its own: serve it with that tokenizer). Returns its vocabulary.
 */
export async function writeVocabCheckpoint(dir: string, tokenizerDir: string, shape: Partial<VocabModelShape> = {}): Promise<number> {
  const { initBackend, Gpt, toHost, writeCheckpoint, DEFAULT_ADAMW } = await import('../../engines/embedded/index.ts');
  const s = { ...VOCAB_MODEL_DEFAULTS, ...Object.fromEntries(Object.entries(shape).filter(([, v]) => v !== undefined)) };
  const vocabSize = hfVocabSize(JSON.parse(await readFile(join(tokenizerDir, 'tokenizer.json'), 'utf8')));
  await initBackend();
  const model = Gpt.create({ vocabSize, dModel: s.dModel, nLayer: s.nLayer, nHead: s.nHead, ctx: s.ctx }, s.seed);
  try {
    await writeCheckpoint(dir, {
      config: { format: 'openclaw-embedded', model: model.config, version: 0, adamw: DEFAULT_ADAMW },
      tokenizer: null,
      weights: toHost(model.params),
      optimizer: null,
      reference: null,
    });
  } finally {
    model.dispose();
  }
  return vocabSize;
}
