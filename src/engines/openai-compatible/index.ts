// OpenAI-compatible engines (SGLang, vLLM, any OpenAI server) over HTTP. In: a base URL, key and
// model id. Out: a ChatChannel for the gateway, raw JSON posts for judge/teacher, and the
// explanations of every upstream failure that `doctor` and the gateway share.
export { OpenAICompatibleChannel, channelFromSettings, type OpenAIChannelOptions, type ChannelSettings } from './client.ts';
export { normalizeBaseUrl, type NormalizedBaseUrl } from './base-url.ts';
export { retryDelay, type AttemptOutcome } from './retry.ts';
export { sseData } from './sse.ts';
export * from './explain.ts';
