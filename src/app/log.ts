// The server's logger: pino JSON lines on stderr, with every detected secret replaced by
// `[SECRET:type]` as each line is written (an error message can quote a request, an upstream's
// answer or a tool's output). The cost is the secret rows' scan of each line, and lines are few.
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactSecrets } from '../privacy/index.ts';

/** A logger at `level` (default OPENCLAW_RL_LOG_LEVEL or info) writing scrubbed lines to `stream` (default stderr). */
export function createLogger(level = process.env.OPENCLAW_RL_LOG_LEVEL ?? 'info', stream: DestinationStream = pino.destination(2)): Logger {
  return pino({ level, hooks: { streamWrite: redactSecrets } }, stream);
}
