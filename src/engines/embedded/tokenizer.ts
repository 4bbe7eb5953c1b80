// Byte-level BPE for the embedded model. Ids 0–255 are the raw bytes (so any text, Chinese or
// emoji included, encodes and decodes exactly), then one id per learned merge, then the chat
// special tokens. Merges are learned from a corpus, which keeps sequences short: attention cost
// grows with the square of the sequence length.

import { OpenClawError } from '../../errors/index.ts';

/** The special tokens of the chat template, in id order after the merges. */
export const SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;

/** One of the chat special tokens. */
export type SpecialToken = (typeof SPECIAL_TOKENS)[number];

/** The serialised form (tokenizer.json of a checkpoint). */
export interface TokenizerJson {
  type: 'openclaw-byte-bpe';
  version: 1;
  /** merges[i] = [left, right] makes id 256 + i. */
  merges: Array<[number, number]>;
  specialTokens: Record<SpecialToken, number>;
}

// Chunks that merges never cross: words with their leading space, numbers, punctuation runs,
// whitespace. Keeps merges meaningful and encoding of a chunk cacheable.
const CHUNK = /\s?\p{L}+|\s?\p{N}{1,3}|\s?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

const utf8 = new TextEncoder();

function pairKey(a: number, b: number): number {
  return a * 1_048_576 + b;
}

/** A byte-level BPE tokenizer with chat special tokens. */
export class Tokenizer {
  readonly merges: ReadonlyArray<readonly [number, number]>;
  readonly vocabSize: number;
  readonly special: Readonly<Record<SpecialToken, number>>;
  private readonly mergeRank = new Map<number, number>();
  private readonly bytesOf: Uint8Array[] = [];
  private readonly chunkCache = new Map<string, number[]>();
  private readonly specialPattern: RegExp;

  constructor(merges: ReadonlyArray<readonly [number, number]>) {
    this.merges = merges.map(([a, b]) => [a, b] as const);
    for (let i = 0; i < 256; i++) this.bytesOf.push(Uint8Array.of(i));
    this.merges.forEach(([a, b], i) => {
      const id = 256 + i;
      if (a >= id || b >= id) throw new OpenClawError('data', `tokenizer merge ${i} refers to a later id (${a}, ${b})`);
      this.mergeRank.set(pairKey(a, b), id);
      const bytes = new Uint8Array(this.bytesOf[a].length + this.bytesOf[b].length);
      bytes.set(this.bytesOf[a]);
      bytes.set(this.bytesOf[b], this.bytesOf[a].length);
      this.bytesOf.push(bytes);
    });
    const special = {} as Record<SpecialToken, number>;
    SPECIAL_TOKENS.forEach((name, j) => {
      special[name] = 256 + this.merges.length + j;
      this.bytesOf.push(utf8.encode(name));
    });
    this.special = special;
    this.vocabSize = this.bytesOf.length;
    this.specialPattern = new RegExp(`(${SPECIAL_TOKENS.map((s) => s.replace(/[|]/g, '\\|')).join('|')})`);
  }

  /**
   * Text → ids. With `allowSpecial` the literal strings `<|im_start|>` etc. become their special
   * ids; without it (the default, for user content) they are plain bytes and cannot forge a turn.
   */
  encode(text: string, opts: { allowSpecial?: boolean } = {}): number[] {
    const out: number[] = [];
    const parts = opts.allowSpecial === true ? text.split(this.specialPattern) : [text];
    for (const part of parts) {
      if (part === '') continue;
      const specialId = opts.allowSpecial === true ? this.special[part as SpecialToken] : undefined;
      if (specialId !== undefined) {
        out.push(specialId);
        continue;
      }
      for (const match of part.matchAll(CHUNK)) out.push(...this.encodeChunk(match[0]));
    }
    return out;
  }

  /** Ids → text; invalid UTF-8 (a multi-byte character cut in half) becomes U+FFFD. */
  decode(ids: readonly number[]): string {
    return new TextDecoder().decode(this.decodeBytes(ids));
  }

  /** Ids → the raw bytes they stand for (for streaming decoders that must hold partial characters). */
  decodeBytes(ids: readonly number[]): Uint8Array {
    const pieces = ids.map((id) => this.tokenBytes(id));
    const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const p of pieces) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }

  /** The bytes of one token id. */
  tokenBytes(id: number): Uint8Array {
    const bytes = this.bytesOf[id];
    if (bytes === undefined) throw new OpenClawError('data', `token id ${id} is outside the vocabulary (size ${this.vocabSize})`);
    return bytes;
  }

  /** The JSON form written to tokenizer.json. */
  toJSON(): TokenizerJson {
    return { type: 'openclaw-byte-bpe', version: 1, merges: this.merges.map(([a, b]) => [a, b]), specialTokens: { ...this.special } };
  }

  /** Rebuilds a tokenizer from its JSON form, checking that the special ids match. */
  static fromJSON(json: TokenizerJson): Tokenizer {
    if (json.type !== 'openclaw-byte-bpe' || json.version !== 1) {
      throw new OpenClawError(
        'data',
        `tokenizer.json has type ${String(json.type)} v${String(json.version)}; expected openclaw-byte-bpe v1`,
      );
    }
    const tok = new Tokenizer(json.merges);
    for (const name of SPECIAL_TOKENS) {
      if (json.specialTokens[name] !== tok.special[name]) {
        throw new OpenClawError('data', `tokenizer.json gives ${name} id ${json.specialTokens[name]}, expected ${tok.special[name]}`);
      }
    }
    return tok;
  }

  private encodeChunk(chunk: string): number[] {
    const cached = this.chunkCache.get(chunk);
    if (cached !== undefined) return cached;
    const ids = Array.from(utf8.encode(chunk));
    // Standard BPE: repeatedly apply the earliest-learned merge present in the chunk.
    for (;;) {
      let bestId = Infinity;
      let bestAt = -1;
      for (let i = 0; i + 1 < ids.length; i++) {
        const id = this.mergeRank.get(pairKey(ids[i], ids[i + 1]));
        if (id !== undefined && id < bestId) {
          bestId = id;
          bestAt = i;
        }
      }
      if (bestAt < 0) break;
      ids.splice(bestAt, 2, bestId);
    }
    if (this.chunkCache.size < 100_000) this.chunkCache.set(chunk, ids);
    return ids;
  }
}

/**
 * Learns merges from `texts` until the vocabulary (bytes + merges + special tokens) reaches
 * `vocabSize` or no pair occurs twice. Deterministic: ties go to the smallest (left, right) pair.
 */
export function trainBpe(texts: readonly string[], vocabSize: number): Tokenizer {
  const mergesWanted = vocabSize - 256 - SPECIAL_TOKENS.length;
  if (!Number.isInteger(vocabSize) || mergesWanted < 0) {
    throw new OpenClawError('config', `vocabSize must be an integer ≥ ${256 + SPECIAL_TOKENS.length}, got ${vocabSize}`);
  }
  const chunkCounts = new Map<string, number>();
  for (const text of texts) {
    for (const match of text.matchAll(CHUNK)) chunkCounts.set(match[0], (chunkCounts.get(match[0]) ?? 0) + 1);
  }
  const words = [...chunkCounts.entries()].map(([chunk, count]) => ({ ids: Array.from(utf8.encode(chunk)), count }));
  const merges: Array<[number, number]> = [];
  while (merges.length < mergesWanted) {
    const pairCounts = new Map<number, number>();
    for (const w of words) {
      for (let i = 0; i + 1 < w.ids.length; i++) {
        const key = pairKey(w.ids[i], w.ids[i + 1]);
        pairCounts.set(key, (pairCounts.get(key) ?? 0) + w.count);
      }
    }
    let bestKey = -1;
    let bestCount = 1;
    for (const [key, count] of pairCounts) {
      if (count > bestCount || (count === bestCount && bestKey >= 0 && key < bestKey)) {
        bestKey = key;
        bestCount = count;
      }
    }
    if (bestKey < 0) break;
    const left = Math.floor(bestKey / 1_048_576);
    const right = bestKey % 1_048_576;
    const newId = 256 + merges.length;
    merges.push([left, right]);
    for (const w of words) {
      for (let i = 0; i + 1 < w.ids.length; i++) {
        if (w.ids[i] === left && w.ids[i + 1] === right) w.ids.splice(i, 2, newId);
      }
    }
  }
  return new Tokenizer(merges);
}
