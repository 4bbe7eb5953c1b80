// `openclaw-rl report`: prints a run's evaluation per policy version from its sample store
// (evaluation/, loaded only when it runs); read-only, so it works while the run is up.
// Inputs: --output-dir or --config; output: a table on stdout, or with --json the body of GET /evaluation.
import type { Command } from 'commander';
import { run, runFolderOf } from '../run.ts';

/** Adds `report` to the program. */
export function registerReport(program: Command): void {
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
        const { evaluationOfRun, formatEvaluation } = await import('../../evaluation/index.ts');
        const evaluation = evaluationOfRun(dir);
        process.stdout.write(opts.json === true ? `${JSON.stringify(evaluation, null, 2)}\n` : `${formatEvaluation(evaluation)}\n`);
      });
    });
}
