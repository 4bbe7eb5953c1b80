// tokenize: the policy model's Hugging Face tokenizer and chat template, loaded from a local
// folder (`rollout.tokenizer`), and token alignment for upstreams that return only text.
// In: a model folder; chat messages, tools, the upstream's response text and log-probs.
// Out: prompt text, prompt/response token ids, and log-probs fitted to the response ids with a
// mask and counters for every pad/trim (docs/design.md §3 "Token alignment").
// Chat over token ids (ChatTokenizers, the token chat channel) is built on this in src/chat/.
export { loadHfTokenizer, toTemplateMessages } from './hf-tokenizer.ts';
export type { HfTokenizer, RenderOptions, LoadTokenizerOptions } from './hf-tokenizer.ts';
export { alignResponse, createAlignmentCounters, PAD_LOGPROB } from './align.ts';
export type { AlignInput, AlignedTurn, AlignmentCounters } from './align.ts';
