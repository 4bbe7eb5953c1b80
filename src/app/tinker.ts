// The policy side for `rollout.provider: tinker`: a TinkerEngine (sampling, scoring, training
// through the Tinker API) served to agents by a TokenChatChannel with the base model's own chat
// template and tokenizer (rollout.tokenizer, a local Hugging Face folder). The sampled ids and
// log-probs are recorded as returned, never re-tokenised. Tool-call / <think> parsing of the
// answer text belongs to the chat side (branch tinker-chat); this file only connects the parts.
import type { Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { TokenChatChannel, type ChatTokenizer } from '../engines/token_chat.ts';
import { tinkerEngineFromConfig } from '../engines/tinker/index.ts';
import { loadHfTokenizer } from '../tokenize/index.ts';
import type { Policy } from './policy.ts';

/** Builds the Tinker policy; a missing tokenizer folder is a config error naming what to set. */
export async function tinkerPolicy(config: Config): Promise<Policy> {
  if (config.rollout.tokenizer === undefined) {
    throw new OpenClawError('config', `rollout.tokenizer: with rollout.provider tinker, set a local folder holding ${config.tinker.base_model}'s tokenizer.json and tokenizer_config.json (its chat template renders the prompts Tinker samples from)`, { param: 'rollout.tokenizer' });
  }
  const tok = await loadHfTokenizer(config.rollout.tokenizer);
  const engine = tinkerEngineFromConfig(config, { onWarning: (m) => process.stderr.write(`openclaw-rl: ${m}\n`) });
  const encodeChat: ChatTokenizer['encodeChat'] = (messages, tools) => tok.encode(tok.renderChat(messages, { tools, addGenerationPrompt: true }));
  const chatTok: ChatTokenizer = {
    encodeChat,
    decode: (ids) => tok.decode(ids, { skipSpecialTokens: true }),
    stopTokenIds: [...tok.endOfTurnIds],
    tokenText: (id) => tok.decode([id]),
  };
  const channel = new TokenChatChannel(engine, chatTok, {
    modelId: config.rollout.model_id,
    defaultTemperature: config.rollout.temperature,
    defaultMaxTokens: config.rollout.max_tokens,
    topP: config.rollout.top_p,
    contextLength: config.rollout.context_length ?? Number.MAX_SAFE_INTEGER,
  });
  return { channel, engine, renderPrompt: encodeChat, close: () => channel.close() };
}
