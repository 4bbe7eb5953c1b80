// `openclaw-rl demo`: the whole loop on this CPU (demo/index.ts, loaded only when it runs).
// Inputs: mode, persona, steps, seed, evaluation size, run folder, engine; prints the Base vs
// Updated table, and with --keep-serving serves on until SIGINT/SIGTERM.
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { MODES } from '../../methods/index.ts';
// personas.ts, not sim/index.ts: the CLI must not load the pretraining code (and tfjs) at start-up.
import { PERSONA_NAMES } from '../../sim/personas.ts';
import { intAtLeast } from '../flags.ts';
import { run } from '../run.ts';
import { untilStopSignal } from '../signals.ts';

const PERSONA_LIST = PERSONA_NAMES.join(', ');

/** Adds `demo` to the program. */
export function registerDemo(program: Command): void {
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
        const { runDemo } = await import('../../demo/index.ts');
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
}
