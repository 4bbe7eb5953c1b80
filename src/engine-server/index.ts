// The engine server (`openclaw-rl engine serve`): a policy engine (the embedded one, normally a
// WorkerEngine) behind its own HTTP server, speaking OpenAI chat completions with log-probs and
// token ids (vLLM-style) and SGLang's native /generate with prompt log-probs. In: an engine, its
// chat tokenizer, host/port. Out: a listening server whose answers the gateway's
// openai_compatible channel and the teacher's sglang dialect consume unchanged.

export { startEngineServer, serveEngine, buildEngineServer, type EngineServerOptions, type RunningEngineServer } from './server.ts';
export { handleGenerate } from './generate.ts';
export type { EngineServerTokenizer } from './validate.ts';
export { loadScript } from './tinker/script.ts';
export { writeVocabCheckpoint, VOCAB_MODEL_DEFAULTS } from './tinker/vocab.ts';
