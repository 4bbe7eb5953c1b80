// `openclaw-rl export`: writes a run's training samples to stdout, one JSON object per line, read
// from its sample store (samples/, loaded only when it runs). Inputs: --output-dir or --config,
// --format jsonl; a count of exported samples on stderr.
import type { Command } from 'commander';
import { OpenClawError } from '../../errors/index.ts';
import { run, runFolderOf, withRunStore } from '../run.ts';

/** Adds `export` to the program. */
export function registerExport(program: Command): void {
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
        const { exportJsonl } = await import('../../samples/index.ts');
        const hint = `run the server with --output-dir ${dir} first, or pass the run's --output-dir`;
        await withRunStore(dir, hint, async (store, path) => {
          const { lines, readerClosed } = await exportJsonl(store, process.stdout);
          // A reader that stopped early (`| head`) got what it asked for: nothing to report.
          if (!readerClosed) process.stderr.write(`openclaw-rl: exported ${lines} samples from ${path}\n`);
        });
      });
    });
}
