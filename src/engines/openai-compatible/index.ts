// OpenAI-compatible engines (SGLang, vLLM, any OpenAI server) over HTTP. In: a base URL, key and
// model id. Out (over the http/ core): a ChatChannel for the gateway, raw JSON posts for judge/teacher, and the
// explanations of every upstream failure that `doctor` and the gateway share.
export { OpenAICompatibleChannel, channelFromSettings, type OpenAIChannelOptions, type ChannelSettings } from './client.ts';
export { sseData } from './sse.ts';
export * from './explain.ts';
