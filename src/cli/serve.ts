// The serving loop of `api-server` and `train`: starts the app's server on a validated config,
// says on stderr what it serves (and what it resumed), shows training progress on a terminal, and
// closes everything (records and store flushed) on SIGINT/SIGTERM, within the shutdown backstop.
import { join } from 'node:path';
import type { Config } from '../config/index.ts';
import { startServer } from '../app/index.ts';
import { ShutdownBackstop, untilStopSignal } from './signals.ts';

/** Serves until SIGINT/SIGTERM, then closes everything (records and store flushed). */
export async function serveUntilSignal(config: Config, apiKey: string | undefined, train: boolean, fresh = false): Promise<void> {
  // Started before anything can go wrong: its thread cannot start once the working folder is gone.
  const backstop = ShutdownBackstop.start();
  const server = await startServer(config, { apiKey, train, fresh });
  if (server.archivedTo !== undefined) process.stderr.write(`openclaw-rl: --fresh: the previous run was moved to ${server.archivedTo}\n`);
  const r = server.resume;
  if (r !== undefined) {
    process.stderr.write(
      r.from !== undefined
        ? `openclaw-rl: resuming from ${r.from.dir} (step ${r.step}, policy version ${r.version}${r.requeued > 0 ? `; ${r.requeued} samples of later steps returned to ready` : ''}); --fresh starts over\n`
        : `openclaw-rl: no checkpoint under ${join(config.output_dir, 'checkpoints')}: training starts from the configured weights${r.version > 0 ? ` (served as policy version ${r.version})` : ''}\n`,
    );
  }
  process.stderr.write(
    `openclaw-rl: serving ${config.rollout.model_id} at ${server.url}/v1 (mode ${config.mode}${train ? ', training' : ''}); records in ${join(config.output_dir, 'records')}; dashboard at ${server.url}/dashboard\n`,
  );
  const progress =
    server.trainer && process.stderr.isTTY
      ? setInterval(() => {
          const t = server.trainer!;
          const ready = server.store.countReady();
          const batch = config.training.batch_size;
          const filled = Math.min(20, Math.round((20 * ready) / batch));
          const last = t.log.latest;
          process.stderr.write(
            `\r\x1b[K[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}] ${ready}/${batch} samples toward step ${t.step + 1}` +
              (last
                ? ` | step ${last.step}: ${last.step_time_s.toFixed(1)} s, reward_mean ${last.reward_mean.toFixed(2)}, policy v${last.policy_version}`
                : ''),
          );
        }, 1000)
      : undefined;
  await untilStopSignal();
  if (progress) clearInterval(progress);
  // The grace period bounds answers and judge calls in flight; one more second for the rest.
  backstop.arm(config.server.shutdown_grace_s * 1000 + 1000, 'shutdown');
  await server.close();
}
