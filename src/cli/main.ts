// The `openclaw-rl` command line: api-server, train, doctor, export. Each command loads the
// config (file + env + flags), runs, and maps errors to exit codes in one place (`run`).
import { Command, Option } from 'commander';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { exitCodeFor, OpenClawError } from '../errors/index.ts';
import { loadConfig, MODES, type Config } from '../config/index.ts';
// personas.ts, not sim/index.ts: the CLI must not load the pretraining code (and tfjs) at start-up.
import { PERSONA_NAMES } from '../sim/personas.ts';
import { startServer, BASE_CHECKPOINT } from '../app/index.ts';
import { formatDoctorTable, runDoctor } from '../doctor/index.ts';
import { addServeOptions, addTrainingOptions, overridesFrom } from './flags.ts';
import { ShutdownBackstop, untilStopSignal } from './signals.ts';

const PERSONA_LIST = PERSONA_NAMES.join(', ');

async function run(fn: () => Promise<number | void>): Promise<void> {
  try {
    const code = await fn();
    if (typeof code === 'number') process.exitCode = code;
  } catch (err) {
    const msg = err instanceof OpenClawError ? err.message : ((err as Error)?.stack ?? String(err));
    process.stderr.write(`openclaw-rl: ${msg}\n`);
    process.exitCode = exitCodeFor(err);
  }
}

function configFrom(opts: Record<string, unknown>, cmd: Command): Config {
  return loadConfig(opts.config as string | undefined, { overrides: overridesFrom(opts, cmd) });
}

/** Serves until SIGINT/SIGTERM, then closes everything (records and store flushed). */
async function serveUntilSignal(config: Config, apiKey: string | undefined, train: boolean): Promise<void> {
  // Started before anything can go wrong: its thread cannot start once the working folder is gone.
  const backstop = ShutdownBackstop.start();
  const server = await startServer(config, { apiKey, train });
  process.stderr.write(
    `openclaw-rl: serving ${config.rollout.model_id} at ${server.url}/v1 (mode ${config.mode}${train ? ', training' : ''}); records in ${join(config.output_dir, 'records')}; dashboard at ${server.url}/dashboard\n`,
  );
  const progress =
    server.trainer && process.stderr.isTTY
      ? setInterval(() => {
          const t = server.trainer!;
          const ready = server.store.countReady();
          const batch = config.training.batch_size;
          const filled = Math.min(20, Math.round((20 * ready) / batch));
          const last = t.log.latest;
          process.stderr.write(
            `\r\x1b[K[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}] ${ready}/${batch} samples toward step ${t.step + 1}` +
              (last
                ? ` | step ${last.step}: ${last.step_time_s.toFixed(1)} s, reward_mean ${last.reward_mean.toFixed(2)}, policy v${last.policy_version}`
                : ''),
          );
        }, 1000)
      : undefined;
  await untilStopSignal();
  if (progress) clearInterval(progress);
  // The grace period bounds answers and judge calls in flight; one more second for the rest.
  backstop.arm(config.server.shutdown_grace_s * 1000 + 1000, 'shutdown');
  await server.close();
}

/** Builds the program (exported for tests). */
export function buildProgram(): Command {
  const program = new Command('openclaw-rl')
    .description('Online RL for agents: an OpenAI-compatible server that learns from its own conversations')
    .showHelpAfterError();

  const apiServer = program.command('api-server').description('serve the OpenAI-compatible API, record and judge turns (no training)');
  addTrainingOptions(addServeOptions(apiServer)).action(async (opts, cmd: Command) => {
    await run(async () => {
      const config = configFrom(opts, cmd);
      await serveUntilSignal(config, opts.apiKey, false);
    });
  });

  const train = program.command('train').description('serve the API and train the policy in the background');
  addTrainingOptions(addServeOptions(train)).action(async (opts, cmd: Command) => {
    await run(async () => {
      const config = configFrom(opts, cmd);
      if (config.rollout.provider === 'openai_compatible') {
        throw new OpenClawError(
          'config',
          `train: rollout.provider is ${config.rollout.provider}; training needs rollout.provider embedded (this CPU) or tinker (hosted Tinker, SkyRL, or 'engine serve --tinker'). For an SGLang/vLLM policy run 'api-server' and train from the sample store ('openclaw-rl export').`,
        );
      }
      await serveUntilSignal(config, opts.apiKey, true);
    });
  });

  program
    .command('demo')
    .description('the whole loop on this CPU: embedded policy, simulated user, training, Base vs Updated table')
    .addOption(new Option('--mode <mode>', 'training signal').choices([...MODES]).default('openclaw-combine'))
    .option('--persona <name>', `simulated user (${PERSONA_LIST})`, 'no-markdown')
    .option('--steps <n>', 'training steps', '8')
    .option('--seed <n>', 'random seed', '1')
    .option('--eval-samples <n>', 'held-out answers rated per evaluation', '40')
    .option('--output-dir <dir>', 'run folder (default: ./runs/demo-<time>)')
    .option('--keep-serving', 'keep the server (and dashboard) up after the run')
    .addOption(
      new Option(
        '--engine <engine>',
        "where the model trains: 'embedded' in this process, or 'tinker' through the Tinker API on an embedded Tinker server",
      )
        .choices(['embedded', 'tinker'])
        .default('embedded'),
    )
    .action(async (opts) => {
      await run(async () => {
        const int = (flag: string, v: string, min: number) => {
          const n = Number(v);
          if (!Number.isInteger(n) || n < min)
            throw new OpenClawError('invalid_request', `${flag} expects an integer ≥ ${min}, got '${v}'`);
          return n;
        };
        const { runDemo } = await import('../demo/index.ts');
        const r = await runDemo({
          mode: opts.mode,
          persona: opts.persona,
          steps: int('--steps', opts.steps, 1),
          seed: int('--seed', opts.seed, 0),
          evalSamples: int('--eval-samples', opts.evalSamples, 1),
          outputDir: opts.outputDir ?? join('runs', `demo-${new Date().toISOString().replace(/[:.]/g, '-')}`),
          keepServing: opts.keepServing === true,
          engine: opts.engine,
        });
        if (r.server) {
          await untilStopSignal();
          await r.server.close();
        }
      });
    });

  const engine = program.command('engine').description('the embedded engine on its own');
  engine
    .command('serve')
    .description('serve the embedded model over OpenAI chat completions and SGLang-style /generate')
    .option('--checkpoint <dir>', 'checkpoint folder (default: the bundled base checkpoint)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port, 0 = any free port', '30001')
    .option('--api-key <key>', 'bearer key clients must send')
    .option('--model-id <id>', 'model name served at /v1/models (and the Tinker base_model)', 'openclaw-rl-embedded')
    .option('--tinker', 'also serve the Tinker training API under /api/v1 (docs/tinker-local.md)')
    .option('--state-dir <dir>', 'where the Tinker API saves weights (save_weights, save_weights_for_sampler)', 'tinker-state')
    .action(async (opts) => {
      await run(async () => {
        const port = Number(opts.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new OpenClawError('invalid_request', `--port expects a port 0-65535, got '${opts.port}'`);
        const { serveEngine } = await import('../engine-server/index.ts');
        const tinker = opts.tinker === true ? { stateDir: opts.stateDir as string } : undefined;
        const server = await serveEngine({
          checkpoint: opts.checkpoint ?? BASE_CHECKPOINT,
          host: opts.host,
          port,
          apiKey: opts.apiKey,
          modelId: opts.modelId,
          tinker,
        });
        const tinkerNote =
          tinker !== undefined
            ? `, Tinker API at ${server.url}/api/v1 (base_model '${opts.modelId}', weights under ${tinker.stateDir})`
            : '';
        process.stderr.write(`openclaw-rl: embedded engine at ${server.url} (/v1/chat/completions, /generate)${tinkerNote}\n`);
        await untilStopSignal();
        await server.close();
      });
    });

  program
    .command('doctor')
    .description('check the rollout, judge and teacher channels and explain failures')
    .option('--config <file>', 'YAML config file')
    .option('--timeout <s>', 'seconds per check', '30')
    .option('--train', 'also create a training model (Tinker: create_model round trip)')
    .action(async (opts) => {
      await run(async () => {
        const config = loadConfig(opts.config);
        const rows = await runDoctor(config, Number(opts.timeout) * 1000, { train: opts.train === true });
        process.stdout.write(formatDoctorTable(rows) + '\n');
        return rows.every((r) => r.ok) ? 0 : 1;
      });
    });

  program
    .command('export')
    .description("write the run's training samples to stdout, one JSON object (snake_case fields) per line")
    .option('--format <format>', 'output format (jsonl)', 'jsonl')
    .option('--output-dir <dir>', 'run folder holding samples.sqlite', '.')
    .option('--config <file>', 'take output_dir from this config')
    .action(async (opts) => {
      await run(async () => {
        if (opts.format !== 'jsonl')
          throw new OpenClawError('invalid_request', `--format ${opts.format} is not supported; use --format jsonl`);
        const dir = opts.config
          ? loadConfig(opts.config, { overrides: { output_dir: opts.outputDir !== '.' ? opts.outputDir : undefined } }).output_dir
          : opts.outputDir;
        const { SampleStore, exportJsonl, SAMPLE_STORE_FILE } = await import('../samples/index.ts');
        const path = join(dir, SAMPLE_STORE_FILE);
        if (!existsSync(path))
          throw new OpenClawError(
            'config',
            `no sample store at ${path}: run the server with --output-dir ${dir} first, or pass the run's --output-dir`,
          );
        const store = SampleStore.open(path, { recoverLeases: false });
        try {
          const { lines, readerClosed } = await exportJsonl(store, process.stdout);
          // A reader that stopped early (`| head`) got what it asked for: nothing to report.
          if (!readerClosed) process.stderr.write(`openclaw-rl: exported ${lines} samples from ${path}\n`);
        } finally {
          store.close();
        }
      });
    });

  return program;
}

/** Entry point used by bin/openclaw-rl.js. */
export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
