// `openclaw-rl redact`: registers the command whose work is ../redact.ts (loaded only when it runs).
// Input: text on stdin, or lines of {"text": …} with --jsonl; output: one JSON line per input on stdout.
import type { Command } from 'commander';
import { run } from '../run.ts';

/** Adds `redact` to the program. */
export function registerRedact(program: Command): void {
  program
    .command('redact')
    .description('find secrets and personal data in text on stdin; print the redacted text and the findings as JSON lines')
    .option('--jsonl', 'read lines of {"text": …} instead of one text')
    .action(async (opts) => {
      await run(async () => {
        const { redactStream } = await import('../redact.ts');
        await redactStream(process.stdin, process.stdout, opts.jsonl === true);
      });
    });
}
