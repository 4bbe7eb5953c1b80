// `openclaw-rl rollback`: serves and trains from a kept earlier policy version again — on a running
// `train` server through POST /admin/rollback (--url, via server-call.ts), or in a stopped run's folder
// (trainer/). Inputs: --to, --url/--api-key or --output-dir/--config; the result as JSON on stdout.
import type { Command } from 'commander';
import { intAtLeast } from '../flags.ts';
import { run, runFolderOf, STOPPED_RUN_HINT, withRunStore } from '../run.ts';

/** Adds `rollback` to the program. */
export function registerRollback(program: Command): void {
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
      await run(() => (opts.url !== undefined ? rollbackRunning(String(opts.url), opts.apiKey, opts.to) : rollbackStopped(opts, opts.to)));
    });
}

/** Rolls a running server back at once (POST /admin/rollback); a refusal is an error carrying the server's message. */
async function rollbackRunning(url: string, apiKey: string | undefined, to: number): Promise<void> {
  const { callServer } = await import('../server-call.ts');
  const body = await callServer<{ policy_version?: number }>(url, 'POST', '/admin/rollback', {
    apiKey,
    body: { version: to },
    what: 'rollback',
  });
  process.stdout.write(`${JSON.stringify(body)}\n`);
  process.stderr.write(`openclaw-rl: serving the weights of version ${to} as policy version ${body.policy_version}\n`);
}

/** Writes a checkpoint into a stopped run so that its next `train` serves version `to`'s weights. */
async function rollbackStopped(opts: { config?: string; outputDir: string }, to: number): Promise<void> {
  const dir = runFolderOf(opts);
  const { rollbackStoppedRun } = await import('../../trainer/index.ts');
  await withRunStore(dir, STOPPED_RUN_HINT, async (store) => {
    const r = await rollbackStoppedRun(dir, store, to);
    process.stdout.write(`${JSON.stringify(r)}\n`);
    process.stderr.write(
      `openclaw-rl: wrote ${r.checkpoint}: the next \`train\` on ${dir} serves the weights of version ${to} as policy version ${r.policy_version}\n`,
    );
  });
}
