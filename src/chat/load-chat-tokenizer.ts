// One loader for `rollout.tokenizer`: the folder is either a Hugging Face model folder
// (tokenizer.json + tokenizer_config.json with its chat template) or an embedded checkpoint
// (config.json with format openclaw-embedded, whose tokenizer.json is the byte-level BPE and whose
// chat template is the built-in ChatML). Either way the caller gets a ChatTokenizer, so a Tinker
// policy on the embedded Tinker server (base model openclaw-rl-embedded) needs no HF files.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OpenClawError } from '../errors/index.ts';
import type { ChatTokenizer } from './token-chat-channel.ts';
import { EmbeddedChatTokenizer } from './embedded-chat-tokenizer.ts';
import { Tokenizer, type TokenizerJson } from '../engines/embedded/tokenizer.ts';
import { HfChatTokenizer, type HfChatTokenizerOptions } from './hf-chat-tokenizer.ts';
import { loadHfTokenizer } from '../tokenize/index.ts';

/** A loaded chat tokenizer and what its folder says about the model. */
export interface LoadedChatTokenizer {
  tokenizer: ChatTokenizer;
  /** 'hf' (Hugging Face folder) or 'embedded' (an embedded checkpoint). */
  format: 'hf' | 'embedded';
  /** The model's context window, when the folder records it (embedded checkpoints do). */
  contextLength?: number;
}

const SETTING = 'rollout.tokenizer';

/** Loads the ChatTokenizer of a model folder, detecting its format. */
export async function loadChatTokenizer(dir: string, opts: HfChatTokenizerOptions = {}): Promise<LoadedChatTokenizer> {
  const embedded = await embeddedConfig(dir);
  if (embedded === null) return { tokenizer: new HfChatTokenizer(await loadHfTokenizer(dir), opts), format: 'hf' };
  const path = join(dir, 'tokenizer.json');
  let json: TokenizerJson;
  try {
    json = JSON.parse(await readFile(path, 'utf8')) as TokenizerJson;
  } catch (err) {
    throw new OpenClawError('config', `${dir} is an embedded checkpoint but ${path} could not be read: ${(err as Error).message}`, {
      param: SETTING,
      cause: err,
    });
  }
  return { tokenizer: new EmbeddedChatTokenizer(Tokenizer.fromJSON(json)), format: 'embedded', contextLength: embedded.ctx };
}

/** The model section of an embedded checkpoint's config.json, or null for any other folder. */
async function embeddedConfig(dir: string): Promise<{ ctx?: number } | null> {
  let text: string;
  try {
    text = await readFile(join(dir, 'config.json'), 'utf8');
  } catch {
    return null; // HF tokenizer-only folders have no config.json; loadHfTokenizer explains what is missing
  }
  try {
    const config = JSON.parse(text) as { format?: unknown; model?: { ctx?: unknown } };
    if (config.format !== 'openclaw-embedded') return null;
    return { ctx: typeof config.model?.ctx === 'number' ? config.model.ctx : undefined };
  } catch {
    return null; // not ours: a HF model config is checked by loadHfTokenizer's own files
  }
}
