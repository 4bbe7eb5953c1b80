// The `openclaw-rl` command line: api-server, train, doctor, export, report, rollback, forget, redact. Each command loads the
// config (file + env + flags), runs, and maps errors to exit codes in one place (`run`); usage
// errors the parser finds (unknown option, bad value, no command) exit 2 in `main`.
import { Command, CommanderError, Option } from 'commander';
import { join, resolve } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { exitCodeFor, OpenClawError } from '../errors/index.ts';
import { redactSecrets } from '../privacy/index.ts';
import { loadConfig, TRAIN_DEFAULTS, type Config, type ConfigOverrides } from '../config/index.ts';
import { MODES } from '../methods/index.ts';
// personas.ts, not sim/index.ts: the CLI must not load the pretraining code (and tfjs) at start-up.
import { PERSONA_NAMES } from '../sim/personas.ts';
import { startServer, rolloutProvider, BASE_CHECKPOINT } from '../app/index.ts';
import { formatDoctorTable, runDoctor } from '../doctor/index.ts';
import { addServeOptions, addTrainingOptions, intAtLeast, overridesFrom, positiveNumber } from './flags.ts';
import { ShutdownBackstop, untilStopSignal } from './signals.ts';
// engine-server/tinker/profiles.ts, not engine-server/index.ts: the same reason (the embedded engine).
import { TINKER_PROFILES, type TinkerProfileName } from '../engine-server/tinker/profiles.ts';

const PERSONA_LIST = PERSONA_NAMES.join(', ');

/** The package's version, from the package.json beside src/ (no build step copies it anywhere). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function run(fn: () => Promise<number | void>): Promise<void> {
  try {
    const code = await fn();
    if (typeof code === 'number') process.exitCode = code;
  } catch (err) {
    const msg = err instanceof OpenClawError ? err.message : ((err as Error)?.stack ?? String(err));
    process.stderr.write(`openclaw-rl: ${redactSecrets(msg)}\n`);
    process.exitCode = exitCodeFor(err);
  }
}

/** Settings left to a default the user probably did not mean, printed before anything runs. */
function warn(message: string): void {
  process.stderr.write(`openclaw-rl: warning: ${message}\n`);
}

function configFrom(opts: Record<string, unknown>, cmd: Command, defaults?: ConfigOverrides): Config {
  return loadConfig(opts.config as string | undefined, { overrides: overridesFrom(opts, cmd), defaults, onWarning: warn });
}

/** Serves until SIGINT/SIGTERM, then closes everything (records and store flushed). */
async function serveUntilSignal(config: Config, apiKey: string | undefined, train: boolean, fresh = false): Promise<void> {
  // Started before anything can go wrong: its thread cannot start once the working folder is gone.
  const backstop = ShutdownBackstop.start();
  const server = await startServer(config, { apiKey, train, fresh });
  if (server.archivedTo !== undefined) process.stderr.write(`openclaw-rl: --fresh: the previous run was moved to ${server.archivedTo}\n`);
  const r = server.resume;
  if (r !== undefined) {
    process.stderr.write(
      r.from !== undefined
        ? `openclaw-rl: resuming from ${r.from.dir} (step ${r.step}, policy version ${r.version}${r.requeued > 0 ? `; ${r.requeued} samples of later steps returned to ready` : ''}); --fresh starts over\n`
        : `openclaw-rl: no checkpoint under ${join(config.output_dir, 'checkpoints')}: training starts from the configured weights${r.version > 0 ? ` (served as policy version ${r.version})` : ''}\n`,
    );
  }
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

/** The run folder of `export`, `report` and `rollback`: --output-dir, or output_dir of --config (an explicit --output-dir wins). */
function runFolderOf(opts: { config?: string; outputDir: string }): string {
  if (opts.config === undefined) return opts.outputDir;
  return loadConfig(opts.config, { overrides: { output_dir: opts.outputDir !== '.' ? opts.outputDir : undefined } }).output_dir;
}

/** Builds the program (exported for tests). */
export function buildProgram(): Command {
  const program = new Command('openclaw-rl')
    .description('Online RL for agents: an OpenAI-compatible server that learns from its own conversations')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError()
    // Parser errors throw a CommanderError (handled in `main`) instead of exiting 1 on their own;
    // commands added below inherit this.
    .exitOverride();

  const apiServer = program.command('api-server').description('serve the OpenAI-compatible API, record and judge turns (no training)');
  addTrainingOptions(addServeOptions(apiServer)).action(async (opts, cmd: Command) => {
    await run(async () => {
      const config = configFrom(opts, cmd);
      await serveUntilSignal(config, opts.apiKey, false);
    });
  });

  const train = program
    .command('train')
    .description('serve the API and train the policy in the background (resumes from the newest checkpoint of its output_dir)')
    .option('--fresh', "start over: move the output folder's previous run to <output_dir>/previous/<time>/ instead of resuming it");
  addTrainingOptions(addServeOptions(train)).action(async (opts, cmd: Command) => {
    await run(async () => {
      // The regression gate is on unless the config says evaluation.gate: false (docs/evaluation.md).
      const config = configFrom(opts, cmd, TRAIN_DEFAULTS);
      if (rolloutProvider(config).trainingKind === undefined) {
        throw new OpenClawError(
          'config',
          `train: rollout.provider is ${config.rollout.provider}; training needs rollout.provider embedded (this CPU) or tinker (hosted Tinker, SkyRL, or 'engine serve --tinker'). For an SGLang/vLLM policy run 'api-server' and train from the sample store ('openclaw-rl export').`,
        );
      }
      await serveUntilSignal(config, opts.apiKey, true, opts.fresh === true);
    });
  });

  program
    .command('demo')
    .description('the whole loop on this CPU: embedded policy, simulated user, training, Base vs Updated table')
    .addOption(new Option('--mode <mode>', 'training signal').choices([...MODES]).default('openclaw-combine'))
    .addOption(new Option('--persona <name>', `simulated user (${PERSONA_LIST})`).choices(PERSONA_NAMES).default('no-markdown'))
    .option('--steps <n>', 'training steps', intAtLeast('--steps', 1), 8)
    .option('--seed <n>', 'random seed', intAtLeast('--seed', 0), 1)
    .option('--eval-samples <n>', 'held-out answers rated per evaluation', intAtLeast('--eval-samples', 1), 40)
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
        const { runDemo } = await import('../demo/index.ts');
        const r = await runDemo({
          mode: opts.mode,
          persona: opts.persona,
          steps: opts.steps,
          seed: opts.seed,
          evalSamples: opts.evalSamples,
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
      await run(async () => {
        const port = opts.port as number;
        const { serveEngine } = await import('../engine-server/index.ts');
        const profile = opts.profile as TinkerProfileName;
        const maxLoraAdapters = opts.maxLoraAdapters as number | undefined;
        const script =
          opts.script !== undefined ? await (await import('../engine-server/index.ts')).loadScript(String(opts.script)) : undefined;
        if (script !== undefined && opts.tinker !== true)
          throw new OpenClawError('invalid_request', '--script answers Tinker sampling: add --tinker');
        const tinker = opts.tinker === true ? { stateDir: opts.stateDir as string, profile, maxLoraAdapters, script } : undefined;
        const tokenizer = opts.tokenizer !== undefined ? String(opts.tokenizer) : undefined;
        let checkpoint = opts.checkpoint as string | undefined;
        if (checkpoint === undefined && tokenizer !== undefined) {
          // A random model over the tokenizer's vocabulary, built once per state dir and reused.
          const { writeVocabCheckpoint, VOCAB_MODEL_DEFAULTS } = await import('../engine-server/index.ts');
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
          host: opts.host,
          port,
          apiKey: opts.apiKey,
          modelId: opts.modelId,
          tinker,
        });
        const tinkerNote =
          tinker !== undefined
            ? `, Tinker API at ${server.url}/api/v1 (profile ${tinker.profile}, base_model '${opts.modelId}', weights under ${tinker.stateDir})`
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
    .option('--timeout <s>', 'seconds per check', positiveNumber('--timeout'), 30)
    .option('--train', 'also create a training model (Tinker: create_model round trip)')
    .action(async (opts) => {
      await run(async () => {
        if (opts.config === undefined)
          warn(
            'no --config given: checking the built-in defaults (embedded policy and teacher in this process, rules judge), not your model servers; pass --config FILE',
          );
        const config = loadConfig(opts.config, { onWarning: warn });
        const rows = await runDoctor(config, (opts.timeout as number) * 1000, { train: opts.train === true });
        process.stdout.write(formatDoctorTable(rows) + '\n');
        return rows.every((r) => r.ok) ? 0 : 1;
      });
    });

  program
    .command('redact')
    .description('find secrets and personal data in text on stdin; print the redacted text and the findings as JSON lines')
    .option('--jsonl', 'read lines of {"text": …} instead of one text')
    .action(async (opts) => {
      await run(async () => {
        const { redactStream } = await import('./redact.ts');
        await redactStream(process.stdin, process.stdout, opts.jsonl === true);
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
        const dir = runFolderOf(opts);
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

  program
    .command('rollback')
    .description('serve and train from a kept earlier policy version again (a running server with --url, or a stopped run)')
    .requiredOption(
      '--to <version>',
      'the kept policy version to restore (GET /admin/versions or checkpoints/*/trainer.json list them)',
      intAtLeast('--to', 0),
    )
    .option('--url <url>', 'a running `train` server: roll back at once through POST /admin/rollback')
    .option('--api-key <key>', "that server's API key (else OPENCLAW_RL_API_KEY)")
    .option('--output-dir <dir>', 'a stopped run: its folder (the next `train` continues from the restored version)', '.')
    .option('--config <file>', 'take output_dir from this config')
    .action(async (opts) => {
      await run(async () => {
        const to = opts.to as number;
        if (opts.url !== undefined) {
          const { callServer } = await import('./server-call.ts');
          const body = await callServer<{ policy_version?: number }>(String(opts.url), 'POST', '/admin/rollback', {
            apiKey: opts.apiKey,
            body: { version: to },
            what: 'rollback',
          });
          process.stdout.write(`${JSON.stringify(body)}\n`);
          process.stderr.write(`openclaw-rl: serving the weights of version ${to} as policy version ${body.policy_version}\n`);
          return;
        }
        const dir = runFolderOf(opts);
        const { SampleStore, SAMPLE_STORE_FILE } = await import('../samples/index.ts');
        const { rollbackStoppedRun } = await import('../trainer/index.ts');
        const path = join(dir, SAMPLE_STORE_FILE);
        if (!existsSync(path))
          throw new OpenClawError(
            'config',
            `no sample store at ${path}: pass the run's --output-dir (or --config), or --url for a running server`,
          );
        const store = SampleStore.open(path, { recoverLeases: false });
        try {
          const r = await rollbackStoppedRun(dir, store, to);
          process.stdout.write(`${JSON.stringify(r)}\n`);
          process.stderr.write(
            `openclaw-rl: wrote ${r.checkpoint}: the next \`train\` on ${dir} serves the weights of version ${to} as policy version ${r.policy_version}\n`,
          );
        } finally {
          store.close();
        }
      });
    });

  program
    .command('forget')
    .description(
      "remove a session (or every session idle since a date) from the run's journal, judge logs and sample store; a running server with --url, or a stopped run",
    )
    .option('--session <id>', 'the session to forget (its X-Session-Id, or the id GET /sessions shows)')
    .option('--before <date>', 'forget every session whose newest turn is older than this ISO 8601 date')
    .option('--url <url>', 'a running server: forget through DELETE /sessions (needs its API key)')
    .option('--api-key <key>', "that server's API key (else OPENCLAW_RL_API_KEY)")
    .option('--output-dir <dir>', 'a stopped run: its folder', '.')
    .option('--config <file>', 'take output_dir from this config')
    .action(async (opts) => {
      await run(async () => {
        const { forgetCommand } = await import('./forget.ts');
        await forgetCommand(
          {
            session: opts.session,
            before: opts.before,
            url: opts.url,
            apiKey: opts.apiKey,
            dir: opts.url === undefined ? runFolderOf(opts) : '.',
          },
          process.stdout,
          process.stderr,
        );
      });
    });

  program
    .command('report')
    .description(
      "print the run's evaluation per policy version (judged turns, reward mean, −1 and hint rates with 95% intervals) from its sample store; read-only, works while the run is up",
    )
    .option('--output-dir <dir>', 'run folder holding samples.sqlite', '.')
    .option('--config <file>', 'take output_dir from this config')
    .option('--json', 'print the JSON of GET /evaluation instead of the table')
    .action(async (opts) => {
      await run(async () => {
        const dir = runFolderOf(opts);
        const { evaluationOfRun, formatEvaluation } = await import('../evaluation/index.ts');
        const evaluation = evaluationOfRun(dir);
        process.stdout.write(opts.json === true ? `${JSON.stringify(evaluation, null, 2)}\n` : `${formatEvaluation(evaluation)}\n`);
      });
    });

  return program;
}

/** Exit code for what the parser threw: 0 after help or --version (commander's own 0), 2 for every usage error. */
export function exitCodeForParser(err: CommanderError): number {
  return err.exitCode === 0 ? 0 : 2;
}

/** Entry point used by bin/openclaw-rl.js. */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    // Commander has printed its message (and the help) already, except for a missing command,
    // where it prints only the help.
    if (err.code === 'commander.help' && err.exitCode !== 0) {
      process.stderr.write('error: no command given; choose one of the commands listed above\n');
    }
    process.exitCode = exitCodeForParser(err);
  }
}
