// chat: chat over token ids, for policies whose engine speaks tokens (the embedded engine, Tinker,
// `engine serve`). Renders messages and tools with the model's chat template into prompt ids
// (ChatML for the embedded model, the model's own Jinja template for a Hugging Face folder, encoded
// incrementally per session), streams the sampled tokens back as OpenAI chat chunks, and parses
// the answer text into content, reasoning_content (think blocks) and tool_calls.
// In: ChatMessages + tools, a token-level PolicyEngine, a tokenizer folder (`rollout.tokenizer`)
// or an embedded checkpoint's BPE. Out: a ChatChannel (TokenChatChannel) the gateway serves, and
// ChatTokenizers for code that needs the prompt ids itself (doctor, engine serve).
// Sits above engines/ (it wraps their PolicyEngine, and reads ChatMessage from engines/types.ts)
// and tokenize/ (the Hugging Face tokenizer and template); neither imports chat/.
export { TokenChatChannel, WHOLE_SEQUENCE_CHUNK_TOKENS } from './token-chat-channel.ts';
export type { ChatTokenizer, TokenChatOptions, TokenChatCounters } from './token-chat-channel.ts';
export { PlainOutputParser, HermesOutputParser, toolCallOf } from './output-parser.ts';
export type { OutputParser, OutputDelta, ParsedToolCall } from './output-parser.ts';
export { applyChatTemplate, messageBody, type ChatTemplateOptions } from './embedded-chat-template.ts';
export { EmbeddedChatTokenizer, toolsText, type EmbeddedChatTokenizerOptions } from './embedded-chat-tokenizer.ts';
export { HfChatTokenizer, type HfChatTokenizerOptions } from './hf-chat-tokenizer.ts';
export { PrefixEncoder, commonPrefixLength, type PrefixEncoderStats } from './prefix-encoder.ts';
export { loadChatTokenizer, type LoadedChatTokenizer } from './load-chat-tokenizer.ts';
