// The embedded policy engine: a small GPT in TypeScript on tfjs + the wasm backend, so the whole
// RL loop runs on any CPU with no download. In: token ids (chat rendered by src/chat/ with the
// byte-level BPE of tokenizer.ts), TrainSamples with per-token advantages from src/rl.
// Out: sampled tokens with log_softmax(logits/T) log-probs, scores (+ top-K), PPO training steps
// with metrics, versioned weight publishing, safetensors checkpoints that resume exactly.
// Call initBackend() once per thread (EmbeddedEngine.create/load do it for you).
// WorkerEngine is the same engine with serving and training in worker threads (what servers use);
// EmbeddedChatTokenizer + TokenChatChannel (src/chat/) turn either into the gateway's ChatChannel.

export { initBackend } from './backend.ts';
export { Tokenizer, trainBpe, SPECIAL_TOKENS, type SpecialToken, type TokenizerJson } from './tokenizer.ts';
export {
  Gpt,
  initParams,
  paramCount,
  paramSpecs,
  forwardFlops,
  validateConfig,
  type GptConfig,
  type Params,
  type KvCache,
} from './model.ts';
export { generateTokens, scoreTokens, type GenerateTokensRequest, type GeneratedTokens } from './sampling.ts';
export { trainStep, lossTerms, packBatch, trainLogprobs, validateSample, type PackedBatch, type TrainContext } from './train.ts';
export { AdamW, DEFAULT_ADAMW, type AdamWConfig } from './optimizer.ts';
export { encodeSafetensors, decodeSafetensors, type HostTensor } from './safetensors.ts';
export { readCheckpoint, writeCheckpoint, type CheckpointConfig, type CheckpointData } from './checkpoint.ts';
export { EmbeddedEngine, type EmbeddedEngineOptions } from './engine.ts';
export { WorkerEngine, type WorkerEngineOptions } from './worker-engine.ts';
export { benchEngine, formatBench, matmulGflops, BENCH_CONFIG, type EngineBenchOptions, type EngineBenchResult } from './bench.ts';
export { fromHost, toHost } from './checkpoint.ts';
export { ServedSnapshot } from './snapshot.ts';
export { gatherRows } from './model.ts';
export { cosineLr, supervisedLoss, supervisedStep } from './pretrain.ts';
export type { SupervisedExample } from './pretrain.ts';
