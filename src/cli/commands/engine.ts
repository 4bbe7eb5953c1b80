// `openclaw-rl engine serve`: the embedded engine on its own over OpenAI chat completions and
// SGLang-style /generate, and with --tinker the Tinker training API (engine-server/, loaded only
// when it runs). Inputs: checkpoint or tokenizer, address, key, Tinker profile; runs until SIGINT/SIGTERM.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { OpenClawError } from '../../errors/index.ts';
import { BASE_CHECKPOINT } from '../../app/index.ts';
// engine-server/tinker/profiles.ts, not engine-server/index.ts: the CLI must not load the embedded engine at start-up.
import { TINKER_PROFILES, type TinkerProfileName } from '../../engine-server/tinker/profiles.ts';
import { intAtLeast } from '../flags.ts';
import { run } from '../run.ts';
import { untilStopSignal } from '../signals.ts';

/** Adds `engine` and its `serve` to the program. */
export function registerEngine(program: Command): void {
  const engine = program.command('engine').description('the embedded engine on its own');
  engine
    .command('serve')
    .description('serve the embedded model over OpenAI chat completions and SGLang-style /generate')
    .option('--checkpoint <dir>', 'checkpoint folder (default: the bundled base checkpoint)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port, 0 = any free port', intAtLeast('--port', 0, 65535), 30001)
    .option('--api-key <key>', 'bearer key clients must send')
    .option('--model-id <id>', 'model name served at /v1/models (and the Tinker base_model)', 'openclaw-rl-embedded')
    .option('--tinker', 'also serve the Tinker training API under /api/v1 (docs/tinker-local.md)')
    .option('--state-dir <dir>', 'where the Tinker API saves weights (save_weights, save_weights_for_sampler)', 'tinker-state')
    .addOption(
      new Option('--profile <name>', 'which real Tinker server to behave like (docs/tinker-local.md)')
        .choices(TINKER_PROFILES)
        .default('hosted'),
    )
    .option(
      '--max-lora-adapters <n>',
      "LoRA slots, one of them the base model (skyrl-jax; default 32 as SkyRL's)",
      intAtLeast('--max-lora-adapters', 2),
    )
    .option(
      '--tokenizer <dir>',
      "serve over a Hugging Face tokenizer folder (e.g. the base model's, Qwen3's); without --checkpoint a tiny random model over its whole vocabulary is built under the state dir (docs/tinker-local.md#a-real-vocabulary)",
    )
    .option(
      '--script <file>',
      'scripted Tinker answers: JSON [{"match": regex, "completion": text}] (docs/tinker-local.md#scripted-answers)',
    )
    .action(async (opts) => {
      await run(() => serveEngineUntilSignal(opts));
    });
}

/** The action of `engine serve`: serves until SIGINT/SIGTERM, then closes the server. */
async function serveEngineUntilSignal(opts: Record<string, unknown>): Promise<void> {
  const port = opts.port as number;
  const { serveEngine } = await import('../../engine-server/index.ts');
  const profile = opts.profile as TinkerProfileName;
  const maxLoraAdapters = opts.maxLoraAdapters as number | undefined;
  const script =
    opts.script !== undefined ? await (await import('../../engine-server/index.ts')).loadScript(String(opts.script)) : undefined;
  if (script !== undefined && opts.tinker !== true)
    throw new OpenClawError('invalid_request', '--script answers Tinker sampling: add --tinker');
  const tinker = opts.tinker === true ? { stateDir: opts.stateDir as string, profile, maxLoraAdapters, script } : undefined;
  const tokenizer = opts.tokenizer !== undefined ? String(opts.tokenizer) : undefined;
  let checkpoint = opts.checkpoint as string | undefined;
  if (checkpoint === undefined && tokenizer !== undefined) {
    // A random model over the tokenizer's vocabulary, built once per state dir and reused.
    const { writeVocabCheckpoint, VOCAB_MODEL_DEFAULTS } = await import('../../engine-server/index.ts');
    const { createHash } = await import('node:crypto');
    const tag = createHash('sha256').update(resolve(tokenizer)).digest('hex').slice(0, 8);
    checkpoint = join(String(opts.stateDir), `base-vocab-${tag}-d${VOCAB_MODEL_DEFAULTS.dModel}`);
    if (!existsSync(join(checkpoint, 'config.json'))) {
      const vocab = await writeVocabCheckpoint(checkpoint, tokenizer);
      process.stderr.write(
        `openclaw-rl: built a random d${VOCAB_MODEL_DEFAULTS.dModel} model over the ${vocab} ids of ${tokenizer} at ${checkpoint}\n`,
      );
    }
  }
  const server = await serveEngine({
    tokenizer,
    checkpoint: checkpoint ?? BASE_CHECKPOINT,
    host: opts.host as string,
    port,
    apiKey: opts.apiKey as string | undefined,
    modelId: opts.modelId as string,
    tinker,
  });
  const tinkerNote =
    tinker !== undefined
      ? `, Tinker API at ${server.url}/api/v1 (profile ${tinker.profile}, base_model '${opts.modelId}', weights under ${tinker.stateDir})`
      : '';
  process.stderr.write(`openclaw-rl: embedded engine at ${server.url} (/v1/chat/completions, /generate)${tinkerNote}\n`);
  await untilStopSignal();
  await server.close();
}
