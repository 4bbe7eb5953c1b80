// `openclaw-rl doctor`: checks the rollout, judge and teacher channels of a config (doctor/) and
// prints one table row per check on stdout. Inputs: --config, --timeout, --train; exits 0 when
// every check passed, 1 when one failed.
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.ts';
import { formatDoctorTable, runDoctor } from '../../doctor/index.ts';
import { positiveNumber } from '../flags.ts';
import { run, warn } from '../run.ts';

/** Adds `doctor` to the program. */
export function registerDoctor(program: Command): void {
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
}
