// One learning run: an in-process RL server (embedded policy + teacher, rules judge, trainer) and
// a simulated persona talking to it until the trainer has taken N steps; the persona's rating of
// first answers on held-out tasks is measured before training and at chosen steps. Used by
// `openclaw-rl demo` and `npm run bench:learning`. With `engine: 'tinker'` the same model is
// reached through the Tinker API instead: an embedded Tinker server starts on a loopback port and
// the policy, trainer and teacher speak the protocol to it (`demo --engine tinker`). With `lockstep`
// (bench:learning's default) every draw derives from the seed and steps happen at fixed points, so
// a run repeats exactly; without it the trainer runs on the server's own schedule (the demo).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { parseConfig, type Config } from '../config/index.ts';
import type { Mode } from '../methods/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { BASE_CHECKPOINT, startServer, type RunningServer } from '../app/index.ts';
import { serveEngine, type RunningEngineServer } from '../engine-server/index.ts';
import { createPersona, deriveSeed, evaluatePersona, HELD_OUT_TASKS, pickTask, Rng, runEpisode, type Persona } from '../sim/index.ts';
import type { StepMetrics } from '../trainer/index.ts';

/** Settings of one learning run. */
export interface LearnOptions {
  mode: Mode;
  persona: string;
  steps: number;
  /** Steps after which the held-out rating is measured (the last step is always measured). */
  evalAt?: number[];
  /** Held-out first answers rated per evaluation. */
  evalSamples?: number;
  seed?: number;
  outputDir?: string;
  /** Config overrides (dotted paths), e.g. `training.lr`. */
  overrides?: Record<string, unknown>;
  /** Episodes run at once (2 suits a 2-core machine). */
  concurrency?: number;
  log?: Logger;
  onProgress?: (event: ProgressEvent) => void;
  /** Stop after this many episodes even if fewer steps were reached (a mode starved of signal). */
  maxEpisodes?: number;
  /** Keep the server running after the run (demo: browse the dashboard). */
  keepServing?: boolean;
  /** 'embedded' (default): the model in this process; 'tinker': through an embedded Tinker server. */
  engine?: DemoEngine;
  /**
   * Lockstep training, for a run that repeats: rounds of `concurrency` episodes; after each, wait
   * until all its turns are judged, then train as many steps as full batches are ready (each on
   * the first ready samples by session and turn), publish, rate if due, and start the next round.
   * With every random draw derived from `seed`, the same tree, seed and options give the same
   * ratings. Off (default): the server's own schedule — the trainer takes a batch as soon as one
   * is ready and publishes while episodes go on, so which version answers which turn, and which
   * turns share a batch, depend on timing.
   */
  lockstep?: boolean;
  /** Called once the server is up, before any episode (bench:gate injects faults into its engine). */
  onServer?: (server: RunningServer) => void;
}

/** Where the demo's model is trained. */
export type DemoEngine = 'embedded' | 'tinker';

/** The base model name the demo's embedded Tinker server serves. */
export const DEMO_TINKER_MODEL = 'openclaw-rl-embedded';

/** Config overrides that sample, train and teach through a Tinker server serving the base checkpoint. */
export function tinkerOverrides(url: string, checkpoint: string): Record<string, unknown> {
  return {
    'rollout.provider': 'tinker',
    'rollout.model_id': DEMO_TINKER_MODEL,
    'rollout.checkpoint': undefined,
    'rollout.tokenizer': checkpoint,
    'tinker.base_url': url,
    'tinker.base_model': DEMO_TINKER_MODEL,
    'tinker.resume': 'never',
    'teacher.logprob_api': 'tinker',
  };
}

/** What a run reports as it goes. */
export type ProgressEvent =
  | { kind: 'server'; url: string; outputDir: string }
  | { kind: 'tinker'; url: string }
  | { kind: 'eval'; step: number; rating: number; n: number }
  | { kind: 'episode'; done: number; samplesReady: number; batchSize: number; step: number }
  | { kind: 'step'; metrics: StepMetrics };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The outcome of a run. */
export interface LearnResult {
  mode: Mode;
  persona: string;
  seed: number;
  /** step → held-out rating (step 0 = base). */
  ratings: Record<number, number>;
  /** First step whose rating reached 0.7, or null. */
  stepsTo07: number | null;
  episodes: number;
  /** Training steps actually taken (fewer than asked when maxEpisodes ran out first). */
  stepsDone: number;
  /** Episodes that failed (counted, skipped). */
  failedEpisodes: number;
  /** Accepted hints per hint-judge run at the end (`hint_accept_rate`; 0 in openclaw-rl): how many next states became hints. */
  hintAcceptRate: number;
  outputDir: string;
  url: string;
  wallSeconds: number;
  server?: RunningServer;
}

/**
 * The demo's learning settings: what moves the small embedded policy in a few steps on a CPU.
 * Four PPO epochs per batch (two learned the sign-off persona too slowly); answers up to 160
 * tokens, because the base model's answers average ~80 tokens and a cut-off answer can never end
 * with the sign-off the friendly-signoff persona asks for (96 cut a quarter of them).
 * The teacher − old term is clipped to ±2 per token: the paraphrase-trained base is sharp, so one
 * token the teacher rules out gave −8 or less, and with 4 epochs at this lr such tokens drove
 * ppo_kl to 2–2.6 and the lowercase persona to 0 in combine mode (clipped: 0.15 → 1.0, seed 1).
 */
export const DEMO_TRAINING: Record<string, unknown> = {
  'training.batch_size': 16,
  'training.lr': 2e-3,
  'training.epochs': 4,
  'training.opd_adv_clip': 2,
  'training.minibatches': 1,
  'training.max_staleness': 3,
  'training.save_interval': 0,
  'rollout.temperature': 1,
  'rollout.max_tokens': 160,
  'scoring.majority_vote': 1,
};

/** The config of a learning run (embedded policy and teacher, rules judge). */
export function learnConfig(opts: LearnOptions, outputDir: string): Config {
  return parseConfig(
    {},
    {
      env: {},
      overrides: {
        mode: opts.mode,
        output_dir: outputDir,
        'server.host': '127.0.0.1',
        'server.port': 0,
        'rollout.provider': 'embedded',
        'teacher.provider': 'embedded',
        'teacher.logprob_api': 'embedded',
        'judge.provider': 'rules',
        ...DEMO_TRAINING,
        'training.max_steps': opts.steps,
        ...opts.overrides,
      },
    },
  );
}

/** What each seed of a run is derived from: `deriveSeed(seed, DRAW.x, …)`. */
const DRAW = { persona: 1, sampling: 2, rating: 3 } as const;

async function evaluate(
  server: RunningServer,
  persona: Persona,
  n: number,
  config: Config,
  seed: number,
): Promise<{ rating: number; n: number }> {
  const r = await evaluatePersona({
    baseUrl: server.url,
    model: config.rollout.model_id,
    persona,
    tasks: HELD_OUT_TASKS,
    samples: n,
    concurrency: 2,
    // The same draws at every rating of the run: the versions are compared on equal terms.
    seed: deriveSeed(seed, DRAW.rating),
  });
  return { rating: r.mean, n: r.n };
}

/** Runs one learning session and returns the ratings. */
export async function learn(opts: LearnOptions): Promise<LearnResult> {
  const t0 = performance.now();
  const persona = createPersona(opts.persona);
  const seed = opts.seed ?? 1;
  const outputDir = opts.outputDir ?? mkdtempSync(join(tmpdir(), `ocrl-learn-${opts.mode}-${opts.persona}-`));
  let tinker: RunningEngineServer | undefined;
  let config = learnConfig(opts, outputDir);
  if (opts.engine === 'tinker') {
    // The Tinker server serves the checkpoint the in-process demo would have loaded.
    const checkpoint = config.rollout.checkpoint ?? BASE_CHECKPOINT;
    tinker = await serveEngine({
      checkpoint,
      host: '127.0.0.1',
      port: 0,
      modelId: DEMO_TINKER_MODEL,
      tinker: { stateDir: join(outputDir, 'tinker-state') },
    });
    opts.onProgress?.({ kind: 'tinker', url: tinker.url });
    config = learnConfig({ ...opts, overrides: { ...opts.overrides, ...tinkerOverrides(tinker.url, checkpoint) } }, outputDir);
  }
  const evalSamples = opts.evalSamples ?? 40;
  const evalAt = new Set([...(opts.evalAt ?? []), opts.steps]);
  // Set below to the rating check on the server's own schedule (lockstep checks after each step it
  // takes). Called inside the step, so a version to rate holds the trainer before its next step: a
  // 100 ms watcher alone missed versions when tiny-model steps came faster than that.
  let afterStep = (): void => {};
  let ownServer: RunningServer;
  try {
    ownServer = await startServer(config, {
      train: true,
      trainerPollMs: 50,
      // Lockstep waits on each step with nothing served meanwhile: no reason to yield the CPU to serving.
      trainingNice: opts.lockstep === true ? 0 : undefined,
      log: opts.log ?? pino({ level: 'error' }, pino.destination(2)),
      hooks: {
        onTrainStep: (m) => {
          opts.onProgress?.({ kind: 'step', metrics: m });
          afterStep();
        },
      },
    });
  } catch (err) {
    await tinker?.close();
    throw err;
  }
  // The Tinker server lives as long as ours (also when it keeps serving after the run).
  const server: RunningServer = tinker
    ? {
        ...ownServer,
        close: async () => {
          await ownServer.close();
          await tinker.close();
        },
      }
    : ownServer;
  opts.onServer?.(server);
  opts.onProgress?.({ kind: 'server', url: server.url, outputDir });
  const trainer = server.trainer!;
  const lockstep = opts.lockstep === true;
  // Lockstep: the background loop never takes a step; the rounds below call trainOnce.
  if (lockstep) trainer.pause();
  const concurrency = opts.concurrency ?? 2;
  const batchSize = config.training.batch_size;
  const ratings: Record<number, number> = {};
  let episodes = 0;
  let failures = 0;
  let hintAcceptRate = 0;
  try {
    // The base rating is measured before any training step can happen (no samples yet).
    const base = await evaluate(server, persona, evalSamples, config, seed);
    ratings[0] = base.rating;
    opts.onProgress?.({ kind: 'eval', step: 0, rating: base.rating, n: base.n });
    // Episodes pause while a version is evaluated, and the trainer holds its next step, so each
    // rating belongs to exactly the weights published by that step.
    let gate: Promise<void> = Promise.resolve();
    let failedInARow = 0;
    const evaluated = new Set<number>([0]);
    const outOfEpisodes = () => opts.maxEpisodes !== undefined && episodes >= opts.maxEpisodes;
    const maybeEvaluate = (final = false): void => {
      const s = trainer.step;
      if (evaluated.has(s) || !(evalAt.has(s) || s >= opts.steps || final)) return;
      evaluated.add(s);
      if (!lockstep) trainer.pause();
      gate = gate.then(async () => {
        const r = await evaluate(server, persona, evalSamples, config, seed);
        ratings[s] = r.rating;
        opts.onProgress?.({ kind: 'eval', step: s, rating: r.rating, n: r.n });
        if (!lockstep) trainer.resume();
      });
    };
    if (!lockstep) afterStep = () => maybeEvaluate();
    // Episode i draws its task, the persona's words and its answers' tokens from seeds derived
    // from (seed, i): the same in every run, whichever episode finishes first.
    const playEpisode = async (): Promise<void> => {
      const index = episodes++;
      const rng = new Rng(deriveSeed(seed, DRAW.persona, index));
      try {
        await runEpisode({
          baseUrl: server.url,
          model: config.rollout.model_id,
          persona,
          task: pickTask(rng),
          // Zero-padded, so session order (a lockstep batch's order) is episode order.
          sessionId: `learn-${seed}-${String(index).padStart(6, '0')}`,
          rng,
          seed: deriveSeed(seed, DRAW.sampling, index),
          maxTurns: 2,
        });
        failedInARow = 0;
      } catch (err) {
        // One bad episode (e.g. a conversation grown past the model's context) must not end the
        // run; a run where nothing works must.
        failures++;
        if (++failedInARow >= 10) throw new OpenClawError('internal', `10 episodes in a row failed; last error: ${(err as Error).message}`);
        return;
      }
      opts.onProgress?.({
        kind: 'episode',
        done: episodes,
        samplesReady: server.store.countReady(),
        batchSize,
        step: trainer.step,
      });
    };
    const unfinished = () => trainer.step < opts.steps && !outOfEpisodes();
    if (lockstep) {
      while (unfinished()) {
        const round = Math.min(concurrency, (opts.maxEpisodes ?? Number.POSITIVE_INFINITY) - episodes);
        await Promise.all(Array.from({ length: round }, playEpisode));
        server.pipeline.drainIntake();
        await server.pipeline.whenIdle();
        while (server.store.countReady() >= batchSize && trainer.step < opts.steps) {
          if ((await trainer.trainOnce({ order: 'session' })) === undefined) break;
          maybeEvaluate();
          await gate;
        }
      }
    } else {
      const worker = async () => {
        while (unfinished()) {
          await gate;
          // Back-pressure: a full batch is waiting, so let the trainer take it before talking more.
          // Without it, episodes on a busy CPU outpace training and their samples go stale unused.
          while (server.store.countReady() >= batchSize && trainer.step < opts.steps) await sleep(50);
          if (!unfinished()) break;
          await playEpisode();
          maybeEvaluate();
        }
      };
      const watcher = setInterval(maybeEvaluate, 100);
      await Promise.all(Array.from({ length: concurrency }, worker));
      clearInterval(watcher);
    }
    await gate;
    // No more steps on leftovers: the last version is the one rated, also when the episode
    // budget ran out first.
    trainer.pause();
    maybeEvaluate(true);
    await gate;
    trainer.pause();
    hintAcceptRate = server.pipeline.gauges().hint_accept_rate ?? 0;
  } finally {
    if (!opts.keepServing) await server.close();
  }
  const measured = Object.entries(ratings)
    .map(([s, r]) => [Number(s), r] as const)
    .sort((a, b) => a[0] - b[0]);
  const reached = measured.find(([s, r]) => s > 0 && r >= 0.7);
  return {
    mode: opts.mode,
    persona: opts.persona,
    seed,
    ratings,
    stepsTo07: reached ? reached[0] : null,
    episodes,
    stepsDone: Math.max(...Object.keys(ratings).map(Number)),
    failedEpisodes: failures,
    hintAcceptRate,
    outputDir,
    url: server.url,
    wallSeconds: (performance.now() - t0) / 1000,
    server: opts.keepServing ? server : undefined,
  };
}
