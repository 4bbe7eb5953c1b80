// The `openclaw-rl` command line: api-server, train, demo, engine serve, doctor, redact, export,
// rollback, forget, report — one file each under commands/, registered here in the order `--help`
// lists them. Each command's errors map to exit codes in one place (run.ts); usage errors the
// parser finds (unknown option, bad value, no command) exit 2 in `main`.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerApiServer } from './commands/api-server.ts';
import { registerDemo } from './commands/demo.ts';
import { registerDoctor } from './commands/doctor.ts';
import { registerEngine } from './commands/engine.ts';
import { registerExport } from './commands/export.ts';
import { registerForget } from './commands/forget.ts';
import { registerRedact } from './commands/redact.ts';
import { registerReport } from './commands/report.ts';
import { registerRollback } from './commands/rollback.ts';
import { registerTrain } from './commands/train.ts';

/** The package's version, from the package.json beside src/ (no build step copies it anywhere). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Builds the program (exported for tests). */
export function buildProgram(): Command {
  const program = new Command('openclaw-rl')
    .description('Online RL for agents: an OpenAI-compatible server that learns from its own conversations')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError()
    // Parser errors throw a CommanderError (handled in `main`) instead of exiting 1 on their own;
    // the commands registered below inherit this (program.command copies it to each).
    .exitOverride();
  // In the order `--help` lists them.
  registerApiServer(program);
  registerTrain(program);
  registerDemo(program);
  registerEngine(program);
  registerDoctor(program);
  registerRedact(program);
  registerExport(program);
  registerRollback(program);
  registerForget(program);
  registerReport(program);
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
