// `openclaw-rl forget`: registers the command whose work is ../forget.ts (loaded only when it runs):
// a session, or every session idle since a date, removed through a running server (--url) or from a
// stopped run's folder. Output: one JSON report per forgotten session on stdout, a line on stderr.
import type { Command } from 'commander';
import { run, runFolderOf } from '../run.ts';

/** Adds `forget` to the program. */
export function registerForget(program: Command): void {
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
        const { forgetCommand } = await import('../forget.ts');
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
}
