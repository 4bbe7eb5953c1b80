// The embedded Tinker server on loopback for tests of the whole Tinker path: a tiny checkpoint,
// its engine (serving only, for comparisons), the Tinker service and an engine server carrying it.
import { WorkerEngine } from '../../src/engines/embedded/index.ts';
import { startEngineServer, type RunningEngineServer } from '../../src/engine-server/index.ts';
import { TinkerService, type TinkerServerOptions } from '../../src/engine-server/tinker/index.ts';
import { writeVocabCheckpoint } from '../../src/engine-server/tinker/vocab.ts';
import { EmbeddedChatTokenizer, loadChatTokenizer } from '../../src/chat/index.ts';
import { tinyCheckpoint } from './tiny-checkpoint.ts';
import { tempDir } from './temp.ts';

/** A running embedded Tinker server. */
export interface EmbeddedTinker {
  /** Server root: the Tinker base URL (routes under /api/v1). */
  url: string;
  baseModel: string;
  checkpoint: string;
  stateDir: string;
  engine: WorkerEngine;
  service: TinkerService;
  server: RunningEngineServer;
  close(): Promise<void>;
}

/**
 * Starts one. Pass `checkpoint`/`stateDir`/`engine` to start a second server on the same files
 * (a "restart"); its close() then leaves the given engine open. With `tokenizer` (a Hugging Face
 * folder, e.g. qwen3TokenizerDir()) and no checkpoint, the model is a random d-16 one over that
 * tokenizer's whole vocabulary (`dModel`, `ctx` size it), served with it on every route.
 */
export async function startEmbeddedTinker(
  opts: Partial<TinkerServerOptions> & { ctx?: number; dModel?: number; engine?: WorkerEngine } = {},
): Promise<EmbeddedTinker> {
  let checkpoint = opts.checkpoint;
  if (checkpoint === undefined && opts.tokenizer !== undefined) {
    checkpoint = tempDir('ocrl-vocab-ckpt-');
    await writeVocabCheckpoint(checkpoint, opts.tokenizer, { ctx: opts.ctx, dModel: opts.dModel });
  }
  checkpoint ??= await tinyCheckpoint(opts.ctx ?? 96);
  const stateDir = opts.stateDir ?? tempDir('ocrl-tinker-state-');
  const baseModel = opts.baseModel ?? 'tiny-embedded';
  const engine = opts.engine ?? (await WorkerEngine.load(checkpoint, { train: false }));
  const service = await TinkerService.start({ pollMs: 200, seqGapMs: 60_000, ...opts, checkpoint, stateDir, baseModel });
  const server = await startEngineServer({
    engine,
    tokenizer:
      opts.tokenizer !== undefined ? (await loadChatTokenizer(opts.tokenizer)).tokenizer : new EmbeddedChatTokenizer(engine.tokenizer!),
    modelId: baseModel,
    contextLength: engine.config.ctx,
    tinker: service,
  });
  return {
    url: server.url,
    baseModel,
    checkpoint,
    stateDir,
    engine,
    service,
    server,
    close: async () => {
      await server.close();
      await service.close();
      if (opts.engine === undefined) await engine.close();
    },
  };
}
