// Start-up's last step and shutdown: listen (closing what was opened if the port cannot be had),
// start the background parts, and close every part in order with one grace period for what is in
// flight. In: the running parts. Out: the URL listened on; a close() that closes each part even
// when one before it failed, and throws the first failure at the end.
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import type { ScoringStage } from '../pipeline/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { RecordWriter, SessionTracker } from '../sessions/index.ts';
import type { Trainer } from '../trainer/index.ts';
import type { JournalCheckpoints } from './journal.ts';
import type { Policy } from './policy.ts';
import type { StorageMonitor } from './storage.ts';

/** Every part that is started or closed, in one place. */
export interface LiveServer {
  app: FastifyInstance;
  policy: Policy;
  store: SampleStore;
  records: RecordWriter;
  tracker: SessionTracker;
  pipeline: ScoringStage;
  checkpoints: JournalCheckpoints;
  storage: StorageMonitor;
  trainer?: Trainer;
  evaluation?: { close: () => Promise<void> };
  timers: Array<NodeJS.Timeout | undefined>;
  log: Logger;
}

/** Listens on config.server.host:port and starts the background parts; returns the URL. */
export async function listenAndStart(config: Config, live: LiveServer): Promise<string> {
  const { app, log, pipeline } = live;
  try {
    await app.listen({ host: config.server.host, port: config.server.port });
  } catch (err) {
    for (const t of live.timers) clearInterval(t);
    await pipeline.close();
    await live.evaluation?.close();
    live.store.close();
    live.records.close();
    await live.policy.close();
    throw err;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.server.port;
  const host = config.server.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url, model: config.rollout.model_id, mode: config.mode, training: live.trainer !== undefined }, 'openclaw-rl listening');
  // Re-judges the turns left pending, those replay found missing in the store among them.
  pipeline.start();
  live.checkpoints.start();
  live.storage.start();
  live.trainer?.start();
  return url;
}

/** Closes the server: answers and judge calls in flight share one grace period. */
export async function closeServer(config: Config, live: LiveServer): Promise<void> {
  const deadline = Date.now() + config.server.shutdown_grace_s * 1000;
  for (const t of live.timers) clearInterval(t);
  live.checkpoints.stop();
  live.storage.stop();
  // Each part is closed even when one before it failed (a final checkpoint into a full disk
  // must not leave the server listening); the first failure is thrown at the end.
  let failure: unknown;
  const step = async (what: string, fn: () => unknown) => {
    try {
      await fn();
    } catch (err) {
      failure ??= err;
      live.log.error({ err: (err as Error)?.message ?? String(err) }, `shutdown: ${what} failed; closing the rest`);
    }
  };
  await step('stopping the trainer', () => live.trainer?.stop());
  await step('closing the HTTP server', () => live.app.close());
  await step('ending the sessions', () => live.tracker.closeAll());
  await step('closing the scoring pipeline', () => live.pipeline.close(Math.max(0, deadline - Date.now())));
  await step('saving the journal checkpoint', () => live.checkpoints.advance());
  await step('closing the sample store', () => live.store.close());
  await step('closing the journal', () => live.records.close());
  await step('closing the evaluation clients', () => live.evaluation?.close());
  await step('closing the policy', () => live.policy.close());
  if (failure !== undefined) throw failure;
}
