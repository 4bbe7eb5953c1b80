// Child-process launcher for the crash test: starts the real server from a JSON spec given as
// argv[2] ({tree, overrides} for parseConfig, `thread` to score in the worker thread), prints `READY <url>` once listening, and closes
// cleanly on SIGTERM. SIGKILL, of course, gives it no chance to.
import pino from 'pino';
import { parseConfig } from '../../src/config/index.ts';
import { startServer } from '../../src/app/index.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as {
  tree: Record<string, unknown>;
  overrides: Record<string, unknown>;
  thread?: boolean;
  killOnTurnCompleted?: boolean;
  /** Pause this long (ms) between a forget's steps, so a random kill lands inside each of them. */
  forgetStepPauseMs?: number;
};
const config = parseConfig(spec.tree, { env: {}, overrides: spec.overrides });
// `thread`: no parts from here, so scoring runs in its worker thread.
// `killOnTurnCompleted`: die the moment a turn's line is written, to show what the client got by then.
// `forgetStepPauseMs`: widen the windows between a forget's steps (the forget kill test).
const pause = spec.forgetStepPauseMs;
const hooks = {
  ...(spec.killOnTurnCompleted ? { onTurnCompleted: () => process.kill(process.pid, 'SIGKILL') } : {}),
  ...(pause !== undefined ? { onForgetStep: () => new Promise<void>((r) => setTimeout(r, pause)) } : {}),
};
const server = await startServer(config, {
  log: pino({ level: 'silent' }),
  hooks,
  scoring: spec.thread ? undefined : { renderPrompt: () => [5, 6, 7, 8] },
});
process.stdout.write(`READY ${server.url}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
